"""Pull the plug: SIGKILL the real app at random moments and start it again, many times.

After every restart the saved game must be the game last shown plus at most
the press in flight, it must replay to itself, and no roll may ever have been
shown that was not saved first. ROBINSON_LONG=1 runs the long campaign.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.saves.store import Store
from robinson_core import Status

ROBINSON = Path(sys.executable).with_name("robinson")
ROUNDS = 300 if os.environ.get("ROBINSON_LONG") else 12
"""Kills of the running app. 24 until 2026-12-06 (58 s of the host's tests, the longest
test): each round is one more random moment of the same app, and a kill at every
write-side system call is tests/saves/test_kill_points.py's."""


def last_shown(capture: Path) -> list[str] | None:
    """The actions of the game behind the last frame the killed app put on the panel."""
    log = capture / "frames.log"
    if not log.exists():
        return None
    lines = [line for line in log.read_text(encoding="utf-8").splitlines() if " actions=" in line]
    if not lines:
        return None
    tokens = lines[-1].split(" actions=", 1)[1]
    return tokens.split(",") if tokens else []


def consistent(shown: list[str], saved: list[str], put_away: list[str] | None) -> str | None:
    """Why what the panel showed and what the disk holds disagree, or None.

    The disk may be one press ahead of the panel (the press in flight: committed, not
    yet shown), never behind it. If the game shown was put away before the kill, it is
    the newest finished game, and the game in play has at most the press in flight."""
    if saved[:len(shown)] == shown and len(saved) - len(shown) <= 1:
        return None
    if put_away is not None and put_away[:len(shown)] == shown and \
            len(put_away) - len(shown) <= 1 and len(saved) <= 1:
        return None
    return f"shown {shown}, saved {saved}, last put away {put_away}"


def test_power_loss_loses_at_most_the_press_in_flight(tmp_path: Path) -> None:
    state, capture = tmp_path / "state", tmp_path / "capture"
    rng = random.Random(20261129)
    survived = compared = ahead = moved_on = 0
    before: list[str] | None = None
    for round_ in range(ROUNDS):
        (capture / "frames.log").unlink(missing_ok=True)
        notify = tmp_path / f"notify{round_}"
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(str(notify))
        listener.settimeout(60)
        process = subprocess.Popen(
            [ROBINSON, "table", "--emulate", "--state-dir", str(state), "--seats", "1,2,3",
             "--capture", str(capture), "--seed", str(round_)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env={**os.environ, "NOTIFY_SOCKET": str(notify)})
        assert process.stdin is not None
        try:
            ready = listener.recv(64)  # the first frame is out: no sleeping
        except TimeoutError:  # say why: the table's own words, not only the wait's
            process.kill()
            _, err = process.communicate(timeout=30)
            raise AssertionError(f"round {round_}: no READY in 60 s (status "
                                 f"{process.returncode}): {err.decode()[-2000:]}") from None
        finally:
            listener.close()
        assert ready == b"READY=1", ready
        in_play = Store(state, read_only=True).load().game if round_ else None
        resume = in_play is not None and bool(in_play.actions)
        keys = " " if resume else "h h "  # resume, or set up and begin (two long presses)
        over = in_play is not None and in_play.state.status is not Status.PLAYING
        if over:  # a won game: long presses show its unread pages, then one begins again
            keys += "hhh"
        # Mostly rolls; now and then a long press (the other choice on a decision, again
        # after a win) or the menu opened and closed, so kills land mid-animation,
        # mid-save and mid-menu, and the game moves on in most rounds.
        keys += "".join(rng.choice([" "] * 12 + ["h", "mm"]) for _ in range(30))
        try:
            process.stdin.write(keys.encode())
            process.stdin.flush()
        except BrokenPipeError:
            pass
        # After READY: mid-animation, mid-save, anywhere (a new game takes 3 s to begin).
        time.sleep(rng.uniform(0.5, 2.5) + (0 if resume and not over else 3.5))
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdin.close()
        stderr = process.stderr.read().decode() if process.stderr else ""
        if process.stderr:
            process.stderr.close()
        assert "Traceback" not in stderr, stderr
        survived += 1

        store = Store(state, read_only=True)
        saved = store.load()
        assert saved.problem is None, saved.problem
        shown = last_shown(capture)
        assert shown is not None, "READY came before any frame"
        tokens = [a.token for a in saved.game.actions] if saved.game else []
        if saved.game is not None:  # equal to its own replay
            assert saved.game.audit() is None
        finished = store.finished(1)
        put_away = [a.token for a in finished[0].game.actions] if finished else None
        problem = consistent(shown, tokens, put_away)
        assert problem is None, f"round {round_}: {problem}"
        compared += 1
        ahead += len(tokens) > len(shown)
        moved_on += shown != before  # the panel showed something new in this round
        before = shown
        store.close()
    print(f"\npower loss: {survived} kills, {compared} compared with the panel, {moved_on} "
          f"in which the game moved on, 0 actions lost, {ahead} presses in flight kept")
    assert survived == ROUNDS
    assert compared >= 0.9 * ROUNDS  # not vacuous: every round is judged
    assert moved_on >= 0.6 * ROUNDS  # and the game was played, not killed at its title


def test_state_json_reproduces_through_replay(tmp_path: Path) -> None:
    state = tmp_path / "state"
    keys = "h h" + " " * 25 + "q"  # start a game, play 25 presses, quit (which saves)
    run = subprocess.run(
        [ROBINSON, "table", "--emulate", "--seed", "5", "--no-animation", "--seats", "1,3,4",
         "--state-dir", str(state)], input=keys, capture_output=True, text=True, timeout=120,
        check=False)
    assert run.returncode == 0, run.stderr
    shown = subprocess.run([ROBINSON, "state", "--state-dir", str(state), "--json"],
                           capture_output=True, text=True, check=True)
    saved = json.loads(shown.stdout)
    assert len(saved["actions"]) >= 20 and [p["seat"] for p in saved["players"]] == [1, 3, 4]
    replay = subprocess.run([ROBINSON, "replay", *saved["replay_args"], "--json"],
                            capture_output=True, text=True, check=True)
    again = json.loads(replay.stdout)
    assert {k: v for k, v in saved.items() if k != "replay_args"} == again


@pytest.mark.parametrize("problem,message", [
    ("[pins]\nbutton = 2\n", "pins.button GPIO 2 is taken by I2C SDA"),
    ("colour = 'red'\n", "unknown key 'colour'"),
    ("language = 'de'\n", "language must be one of en, hr, fi, ja"),
    ("[rules]\npurse = 'lots'\n", "purse must be a whole number"),
    ("this is not toml", "not valid TOML"),
])
def test_a_bad_config_is_one_clear_line(tmp_path: Path, problem: str, message: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(problem)
    run = subprocess.run([ROBINSON, "table", "--emulate", "--config", str(config),
                          "--state-dir", str(tmp_path)], capture_output=True, text=True,
                         timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and message in run.stderr and str(config) in run.stderr
