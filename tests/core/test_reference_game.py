"""A recorded four-player game pins the whole behaviour down, word for word.

If a change to the rules engine is meant, regenerate with
``.venv/bin/python -m tests.make_reference`` and read the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.commands.game import replay_game
from firmware.tools.summary import replay_args, summary
from robinson_core import Game
from robinson_core.narrate import account
from robinson_core.texts import LANGUAGES

HERE = (Path(__file__).parents[1] / "reference")
SCRIPT = (HERE / "game_4p.script").read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_reference_game_transcript(lang: str) -> None:
    game = replay_game((1, 2, 3, 4), None, [], SCRIPT)
    expected = (HERE / f"game_4p.{lang}.txt").read_text(encoding="utf-8").splitlines()
    assert account(game, lang) == expected


def test_every_kind_of_event_is_said_as_pinned() -> None:
    from ..make_reference import narration

    expected = (HERE / "narration.txt").read_text(encoding="utf-8").splitlines()
    assert narration() == expected and len(expected) > 150


def test_reference_game_final_state() -> None:
    game = replay_game((1, 2, 3, 4), None, [], SCRIPT)
    assert summary(game) == json.loads((HERE / "game_4p.json").read_text(encoding="utf-8"))


def test_reference_game_survives_save_and_replay_args() -> None:
    game = replay_game((1, 2, 3, 4), None, [], SCRIPT)
    assert Game.load(game.save()) == game
    args = replay_args(game)
    assert args[:4] == ["--seats", "1,2,3,4", "--first", "1"] and args[-1] == SCRIPT
