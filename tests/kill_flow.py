"""One store flow, as the table runs it, for test_kill_points to kill at each system call.

    python -m tests.kill_flow FLOW FOLDER

FLOW is one of FLOWS. The folder holds the state before (made by ``prepare``); the
process opens it as the table does at start (lock, open, load) and takes the
flow's step. Only the store and the engine are imported: each run starts quickly.
"""

from __future__ import annotations

import sys
from pathlib import Path

from firmware.saves.store import Store
from robinson_core import Choice, Game, Roll, play_script

SEATS = (1, 2)
PLAYING = play_script(Game(SEATS), "3 5 1 2")
DECIDING = play_script(Game(SEATS), "6 1 1 2")  # seat 1 in the tree on 7: roll or stay
WON = play_script(Game(SEATS), "6 2 5 3 3 1 6 again 3 jump 6 1 6 3 6 1 5")
IMPORTED = play_script(Game((1, 2, 3)), "4 4 2")

FLOWS = ("roll", "decision", "undo", "abandon", "new game", "bring back", "import")
"""A new game after a win is "new game" from a finished game: the same two writes."""


def before(flow: str) -> Game | None:
    """The game in play before the flow's step."""
    return {"decision": DECIDING}.get(flow, PLAYING)


def finished_before(flow: str) -> list[Game]:
    """The games put away before the flow's step."""
    return [IMPORTED] if flow == "bring back" else []


def after(flow: str) -> Game | None:
    """The game in play after it (None: none in play)."""
    return {"roll": PLAYING.play(Roll(4)), "decision": DECIDING.play(Choice.STAY),
            "undo": PLAYING.undo(), "abandon": None, "new game": Game(SEATS),
            "bring back": IMPORTED, "import": IMPORTED}[flow]


def put_away(flow: str) -> Game | None:
    """The game the step puts among the finished ones, if it puts one away."""
    return {"abandon": PLAYING, "new game": PLAYING, "bring back": PLAYING,
            "import": PLAYING}.get(flow)


def prepare(flow: str, folder: Path) -> None:
    """The state directory before the step (in the test's process)."""
    game = before(flow)
    assert game is not None
    store = Store(folder)
    for old in finished_before(flow):  # abandoned earlier
        store.save(old)
        store.put_away(old)
    store.save(game)
    store.close()


def main(flow: str, folder: Path) -> int:
    store = Store(folder)
    store.lock()
    game = store.load().game
    if flow == "roll":
        assert game is not None
        store.save(game.play(Roll(4)))
    elif flow == "decision":
        assert game is not None
        store.save(game.play(Choice.STAY))
    elif flow == "undo":
        assert game is not None
        store.save(game.undo())
    elif flow == "abandon":  # a long press at the title: the game is put away
        assert game is not None
        store.put_away(game)
    elif flow == "new game":  # from the menu: put away, then set up and begin
        assert game is not None
        store.put_away(game)
        store.begin(Game(SEATS))
    elif flow == "bring back":  # from the menu: the abandoned game back, this one away
        assert store.bring_back() == IMPORTED
    elif flow == "import":
        store.import_game(IMPORTED)
    store.close()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], Path(sys.argv[2])))
