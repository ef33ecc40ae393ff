"""What the engine says when it is handed something it cannot take: word for word, in
process (a message is part of the contract: the CLI prints it as the one line)."""

from __future__ import annotations

import pytest

from robinson_core import Choice, Game, Roll, ScriptError, parse_action, play_script
from robinson_core.errors import IllegalActionError, quote
from robinson_core.numbers import whole_number
from robinson_core.script import script_actions, tokens


def test_a_token_that_is_neither_face_nor_word() -> None:
    with pytest.raises(IllegalActionError) as caught:
        parse_action("x")
    assert str(caught.value) == ("'x' is not a die face 1-6 or a decision word "
                                 "(roll, stay, again, pass, jump, restart)")
    for bad in ("0", "7", "", " ", "-1", "1.0"):
        with pytest.raises(IllegalActionError):
            parse_action(bad)
    assert parse_action(" 6 ") == Roll(6) and parse_action("JUMP ") is Choice.JUMP


def test_a_die_shows_one_to_six() -> None:
    with pytest.raises(IllegalActionError, match=r"^a die shows 1 to 6, not 7$"):
        Roll(7)
    assert [Roll(face).token for face in range(1, 7)] == ["1", "2", "3", "4", "5", "6"]


def test_a_script_error_names_the_token_and_its_place() -> None:
    with pytest.raises(ScriptError) as caught:
        play_script(Game((1, 2)), "3 4, x 5")
    assert caught.value.index == 3
    assert str(caught.value).startswith("token 3 of the script ('x'): 'x' is not a die face")
    with pytest.raises(ScriptError) as caught:
        play_script(Game((1, 2)), "3 stay")
    assert caught.value.index == 2
    assert str(caught.value) == ("token 2 of the script ('stay'): the game waits for seat 2 "
                                 "to roll the die")
    won = "6 2 5 3 3 1 6 again 3 jump 6 1 6 3 6 1 5"
    with pytest.raises(ScriptError, match=r"^token 18 of the script \('4'\): the game is "
                                          r"already over$"):
        play_script(Game((1, 2)), won + " 4")


def test_a_face_at_a_decision_takes_the_default_first() -> None:
    assert [a.token for a in script_actions(Game((1, 2)), "5 6 5 6 6 4 3, 2")] == [
        "5", "6", "5", "6", "6", "4", "again", "3", "jump", "2"]
    assert tokens(" 1,,2\t3\n") == ["1", "2", "3"] and tokens("") == []


def test_quoting_keeps_a_message_one_short_line() -> None:
    assert quote("banana") == "'banana'"
    assert quote("x" * 20) == repr("x" * 20)
    assert quote("1" * 5000) == "'111111111111…' (5000 characters)"
    assert quote("a" * 30, limit=10) == "'aa…' (30 characters)"


def test_whole_numbers_by_length_and_by_kind() -> None:
    assert [whole_number(t) for t in ("0", "07", " 12 ", "999999999")] == [0, 7, 12, 999999999]
    for bad in ("", " ", "1000000000", "-3", "+3", "3.0", "٣", "²", "1_000", "0x1"):
        assert whole_number(bad) is None, bad
