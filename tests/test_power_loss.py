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
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.table.store import Store
from robinson_core import Game

ROBINSON = Path(sys.executable).with_name("robinson")
ROUNDS = 300 if os.environ.get("ROBINSON_LONG") else 24


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


def test_power_loss_loses_at_most_the_press_in_flight(tmp_path: Path) -> None:
    state, capture = tmp_path / "state", tmp_path / "capture"
    rng = random.Random(20261129)
    survived = lost = grew = games_begun = 0
    for round_ in range(ROUNDS):
        (capture / "frames.log").unlink(missing_ok=True)
        archived = len(list((state / "archive").glob("*.txt")))
        process = subprocess.Popen(
            [ROBINSON, "table", "--emulate", "--state-dir", str(state), "--seats", "1,2,3",
             "--capture", str(capture), "--seed", str(round_)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert process.stdin is not None
        keys = "h h " if round_ == 0 else " "  # start a game, or resume the saved one
        # Mostly rolls; now and then a long press (the other choice, a new game) or a
        # very long one (the menu), so kills land mid-animation, mid-save and mid-menu.
        keys += "".join(rng.choice("        hm") for _ in range(30))
        try:
            process.stdin.write(keys.encode())
            process.stdin.flush()
        except BrokenPipeError:
            pass
        time.sleep(rng.uniform(0.6, 2.2))  # mid-animation, mid-save, mid-screen: anywhere
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdin.close()
        stderr = process.stderr.read().decode() if process.stderr else ""
        if process.stderr:
            process.stderr.close()
        assert "Traceback" not in stderr, stderr
        survived += 1

        saved = Store(state).load()
        assert saved.problem is None, saved.problem
        shown = last_shown(capture)
        if saved.game is None or shown is None:
            continue
        tokens = [a.token for a in saved.game.actions]
        # Equal to its own replay (Game.load replays; this checks the state it carries).
        replayed = Game(saved.game.seats, saved.game.first, saved.game.rules,
                        saved.game.actions)
        assert replayed.state == saved.game.state
        if len(list((state / "archive").glob("*.txt"))) > archived and len(tokens) <= 1:
            games_begun += 1
            continue  # a game was put away and a new one begun in this round
        common = 0
        while common < min(len(tokens), len(shown)) and tokens[common] == shown[common]:
            common += 1
        lost += len(shown) - common  # shown on the panel, but not on disk
        assert common == len(shown), (shown, tokens)
        assert len(tokens) - len(shown) <= 1, (shown, tokens)  # at most the press in flight
        grew += len(tokens) - len(shown)
    print(f"\npower loss: {survived} kills survived, {lost} actions lost, "
          f"{grew} presses in flight kept, {games_begun} new games begun")
    assert survived == ROUNDS


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
