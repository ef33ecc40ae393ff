"""Invariants over random seatings, house rules and die sequences (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from robinson_core import (
    CHOICES,
    Action,
    DeadChips,
    Game,
    GameState,
    HouseRules,
    Pending,
    Roll,
    ShareWith,
    Square4,
    Status,
    apply,
)
from robinson_core.engine import Play

# A game ends when someone is home or everyone is dead; with a fair die this
# takes a few hundred actions. No sequence of choices can keep it going for
# ever only because the die, not the players, decides; the bound makes a
# runaway loop fail clearly instead of hanging.
ACTION_BOUND = 20_000

seatings = st.lists(st.integers(1, 8), min_size=2, max_size=8, unique=True)
house_rules = st.builds(
    lambda purse, stake_share, debt, square_4, chain, dead, share: HouseRules(
        purse=purse, stake=purse * stake_share // 4, debt=debt, square_4=square_4,
        chain_25_to_14=chain, dead_chips=dead, share_with=share),
    st.integers(0, 40), st.integers(0, 4), st.booleans(),
    # stay first: the simplest die (all ones) ends a game only where 4 sends nobody back
    st.sampled_from((Square4.STAY, Square4.ASK, Square4.BACK)),
    st.booleans(),
    st.sampled_from(DeadChips), st.sampled_from(ShareWith))


@st.composite
def games(draw: st.DrawFn, max_actions: int = 400) -> Game:
    seats = draw(seatings)
    first = draw(st.sampled_from(seats))
    game = Game(tuple(seats), first, draw(house_rules))
    for _ in range(draw(st.integers(0, max_actions))):
        state = game.state
        if state.pending is Pending.OVER:
            break
        game = game.play(draw(st.sampled_from(state.legal_actions())))
    return game


def assert_books_balance(state: GameState) -> None:
    assert sum(p.chips for p in state.players) + state.pot == state.issued
    assert state.pot >= 0


@settings(max_examples=150, deadline=None)
@given(games())
def test_chips_are_conserved_after_every_action(game: Game) -> None:
    for state, _ in game.history:
        assert_books_balance(state)


@settings(max_examples=150, deadline=None)
@given(games())
def test_no_balance_goes_negative_unless_debt(game: Game) -> None:
    if game.rules.debt:
        return
    for state, _ in game.history:
        assert all(p.chips >= 0 for p in state.players)


@settings(max_examples=100, deadline=None)
@given(games())
def test_to_move_is_active_and_never_sitting_out(game: Game) -> None:
    for state, _ in game.history:
        if state.status is Status.PLAYING:
            mover = state.player(state.to_move)  # type: ignore[arg-type]
            assert mover.active and not mover.sits_out
        else:
            assert state.to_move is None and state.legal_actions() == ()


@settings(max_examples=40, deadline=None)
@given(seatings, house_rules, st.randoms(use_true_random=False), st.booleans())
def test_games_end(seats: list[int], rules: HouseRules, rng: random.Random,
                   defaults: bool) -> None:
    # Decisions are the default or a coin toss: a player who stays on 7 for
    # ever would keep a game going for ever, at the table as here.
    state = Game(tuple(seats), rules=rules).state
    for _ in range(ACTION_BOUND):
        if state.pending is Pending.OVER:
            break
        action: Action
        if state.pending is Pending.ROLL:
            action = Roll(rng.randint(1, 6))
        else:
            options = CHOICES[state.pending]
            action = options[0] if defaults else rng.choice(options)
        state, _ = apply(state, action)
    else:
        raise AssertionError(f"no end after {ACTION_BOUND} actions: {state}")
    assert state.status in (Status.WON, Status.NO_WINNER)
    assert_books_balance(state)


@settings(max_examples=150, deadline=None)
@given(games())
def test_save_load_round_trips(game: Game) -> None:
    loaded = Game.load(game.save())
    assert loaded == game and loaded.state == game.state


@settings(max_examples=100, deadline=None)
@given(games(max_actions=200))
def test_undo_equals_replaying_the_shorter_list(game: Game) -> None:
    if not game.actions:
        return
    undone = game.undo()
    assert undone.state == Game(game.seats, game.first, game.rules, game.actions[:-1]).state
    assert undone.state == game.history[-2][0]


@settings(max_examples=100, deadline=None)
@given(games())
def test_play_extends_history_exactly_as_a_replay_would(game: Game) -> None:
    replayed = Game(game.seats, game.first, game.rules, game.actions)
    assert replayed.history == game.history


@settings(max_examples=100, deadline=None)
@given(games())
def test_one_play_kept_for_a_whole_game_agrees_with_apply(game: Game) -> None:
    # The simulator keeps one Play for a game; the table freezes a state per action.
    play = Play(game.history[0][0])
    for action, (state, events) in zip(game.actions, game.history[1:], strict=True):
        assert tuple(play.apply(action)) == events
        assert play.state == state
