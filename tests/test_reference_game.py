"""A recorded four-player game pins the whole behaviour down, word for word.

If a change to the rules engine is meant, regenerate with
``.venv/bin/python -m tests.make_reference`` and read the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

from firmware.cli import replay_game
from firmware.tools.summary import replay_args, summary
from robinson_core import Game
from robinson_core.narrate import account

HERE = Path(__file__).with_name("reference")
SCRIPT = (HERE / "game_4p.script").read_text(encoding="utf-8").strip()


def test_reference_game_transcript() -> None:
    game = replay_game((1, 2, 3, 4), None, [], SCRIPT)
    expected = (HERE / "game_4p.en.txt").read_text(encoding="utf-8").splitlines()
    assert account(game, "en") == expected


def test_reference_game_final_state() -> None:
    game = replay_game((1, 2, 3, 4), None, [], SCRIPT)
    assert summary(game) == json.loads((HERE / "game_4p.json").read_text(encoding="utf-8"))


def test_reference_game_survives_save_and_replay_args() -> None:
    game = replay_game((1, 2, 3, 4), None, [], SCRIPT)
    assert Game.load(game.save()) == game
    args = replay_args(game)
    assert args[:4] == ["--seats", "1,2,3,4", "--first", "1"] and args[-1] == SCRIPT
