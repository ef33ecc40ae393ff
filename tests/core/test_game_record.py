"""A game as settings plus actions: save, load, undo, and what a damaged save says."""

from __future__ import annotations

import dataclasses

import pytest

from robinson_core import Choice, Game, HouseRules, RobinsonError, Roll, SaveError, ShareWith

GAME = Game((1, 3, 5), 3, HouseRules(purse=30, share_with=ShareWith.LEFT),
            (Roll(4), Roll(6), Roll(5), Roll(2)))


def test_save_is_versioned_text_with_a_checksum() -> None:
    text = GAME.save()
    lines = text.splitlines()
    assert lines[0] == "robinson-game 1"
    assert "seats 1 3 5" in lines and "first 3" in lines
    assert lines[-1].startswith("sha256 ")


def test_load_replays_to_the_same_state() -> None:
    loaded = Game.load(GAME.save())
    assert loaded == GAME and loaded.state == GAME.state


def test_undo_is_the_game_minus_the_last_action() -> None:
    assert GAME.undo().actions == GAME.actions[:-1]
    with pytest.raises(RobinsonError, match="nothing to undo"):
        Game((1, 2)).undo()


def test_decisions_are_saved_as_words() -> None:
    game = Game((1, 2))
    for face in (6, 2, 5, 3, 3, 1, 6):
        game = game.play(Roll(face))
    assert game.state.player(1).position == 20
    game = game.play(Choice.PASS)
    assert "actions 6 2 5 3 3 1 6 pass\n" in game.save()


@pytest.mark.parametrize("damage,message", [
    (lambda t: t[: len(t) // 2], "cut short|checksum"),
    (lambda t: "\0" * len(t), "not a Robinson saved game"),
    (lambda t: "", "not a Robinson saved game"),
    (lambda t: t.replace("actions 4 6", "actions 4 5"), "checksum does not match"),
    (lambda t: t.replace("purse=30", "purse=99"), "checksum does not match"),
    (lambda t: t.replace("robinson-game 1", "robinson-game 7"), "newer version"),
    (lambda t: t.replace("robinson-game 1", "robinson-game x"), "damaged"),
])
def test_a_damaged_save_says_what_is_wrong(damage: object, message: str) -> None:
    with pytest.raises(SaveError, match=message):
        Game.load(damage(GAME.save()))  # type: ignore[operator]


def _resigned(body: str) -> str:
    """A hand-edited save with a freshly computed checksum."""
    import hashlib
    return body + f"sha256 {hashlib.sha256(body.encode()).hexdigest()}\n"


def test_a_resigned_save_with_an_impossible_action_fails_the_replay() -> None:
    body = GAME.save().rsplit("sha256 ", 1)[0].replace("actions 4 6 5 2", "actions 4 jump")
    with pytest.raises(SaveError, match="does not replay"):
        Game.load(_resigned(body))


def test_a_resigned_save_with_a_bad_rule_fails_clearly() -> None:
    body = GAME.save().rsplit("sha256 ", 1)[0].replace("purse=30", "purse=lots")
    with pytest.raises(SaveError, match="purse"):
        Game.load(_resigned(body))


@pytest.mark.parametrize("version", ["0", "2"])
def test_a_save_of_an_unknown_format_version_is_refused_for_its_version(version: str) -> None:
    body = GAME.save().rsplit("sha256 ", 1)[0].replace("robinson-game 1",
                                                       f"robinson-game {version}")
    with pytest.raises(SaveError, match=f"format {version}|version {version}"):
        Game.load(_resigned(body))


def test_restart_keeps_seats_first_seat_and_rules() -> None:
    again = GAME.restart()
    assert (again.seats, again.first, again.rules, again.actions) == (
        GAME.seats, 3, GAME.rules, ())


@pytest.mark.parametrize("tail", ["actions 6 6 6\n", "\n", "sha256 0\n"])
def test_anything_after_the_checksum_line_is_refused(tail: str) -> None:
    with pytest.raises(SaveError, match=r"checksum|after the checksum"):
        Game.load(GAME.save() + tail)


def test_the_audit_finds_a_last_state_the_last_action_does_not_give() -> None:
    game = Game((1, 2)).play(Roll(3)).play(Roll(5))
    assert game.audit() is None
    before, events = game.history[-2]
    wrong = Game((1, 2)).play(Roll(3)).extended((Roll(5),), ((before, events),))
    assert wrong.audit() == "replay"  # the state of one action earlier, said to be after it
    off = dataclasses.replace(game.state, pot=game.state.pot + 1)
    assert Game((1, 2)).play(Roll(3)).extended((Roll(5),), ((off, events),)).audit() \
        == f"{off.issued + 1} ≠ {off.issued}"


def test_an_audit_costs_the_same_at_any_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last step only: a 2,000-action game audits in the steps of a 10-action one
    (counted as calls of the engine's apply, not timed)."""
    import robinson_core.engine as engine
    import robinson_core.game as game_module

    short = Game((1, 2)).play(Roll(6)).play(Roll(6)).play(Roll(1)).play(Roll(1))
    long = short
    while len(long.actions) < 2000:  # both stay in the tree on 7
        long = long.play(Choice.STAY)
    calls: list[object] = []

    def counted(state: object, action: object) -> object:
        calls.append(action)
        return engine.apply(state, action)  # type: ignore[arg-type]

    monkeypatch.setattr(game_module, "apply", counted)
    assert short.audit() is None and long.audit() is None
    assert len(calls) == 2


def test_the_digest_kept_as_a_game_goes_on_and_back_is_the_saved_texts() -> None:
    """SavedDigest (the store's digest of the game in play, hashed a token at a time)
    against sha256 of the whole saved text after every step of a seeded walk: played on,
    and undone by up to 130 actions at once, across the states it keeps every 64."""
    import hashlib
    import random

    from robinson_core import Choice, Pending
    from robinson_core.game import SavedDigest

    rng, compared, longest = random.Random(3), 0, 0
    for _ in range(30):
        game = Game((1, 2)).play(Roll(6)).play(Roll(6)).play(Roll(1)).play(Roll(1))
        kept = SavedDigest(game)
        for _ in range(400):
            pending = game.state.pending
            if rng.random() < 0.03:
                for _ in range(rng.randint(1, 130)):
                    game = game.undo() if game.actions else game
            elif pending is Pending.TREE:  # both on the tree: mostly staying, on and on
                game = game.play(Choice.STAY if rng.random() < 0.97 else Choice.ROLL)
            elif pending is Pending.OVER:
                game = game.undo()
            else:
                game = game.play(rng.choice(game.state.legal_actions()))
            assert kept.of(game) == hashlib.sha256(game.save().encode()).hexdigest()
            compared += 1
            longest = max(longest, len(game.actions))
    assert compared == 12_000 and longest > 2 * SavedDigest.EVERY
    with pytest.raises(ValueError, match="another game"):
        kept.of(Game((1, 3)))
