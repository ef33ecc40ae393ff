"""Every square of RULES.md's table, one test (or a few) each."""

from __future__ import annotations

import pytest

from robinson_core import (
    BOARD,
    Action,
    Choice,
    Effect,
    HouseRules,
    IllegalActionError,
    Pending,
    Roll,
    Square4,
    Square32,
    Square33,
    Status,
)
from robinson_core import events as ev

from ..midgame import chips, play, positions, table


def test_board_has_45_squares_and_the_start() -> None:
    assert len(BOARD) == 46
    assert [s.number for s in BOARD] == list(range(46))


def test_story_squares_have_no_effect() -> None:
    story = [2, 5, 6, 9, 13, 16, 19, 21, 22, 24, 27, 28, 30, 31, 34, 35, 37, 38, 39, 41, 43, 44]
    assert [s.number for s in BOARD[1:] if s.effect is Effect.NONE] == story
    for number in story:
        start = table({1: number - 1, 2: 0})
        state, events = play(start, 1)
        assert positions(state)[1] == number
        assert not any(isinstance(e, ev.Transfer) for e in events)
        assert chips(state) == chips(start) and state.pot == start.pot


def test_square_1_every_active_player_pays_the_bank_1() -> None:
    state, events = play(table({1: 0, 2: 5, 3: 9}), 1)
    assert chips(state) == {1: 9, 2: 9, 3: 9}
    assert [e.payer for e in events if isinstance(e, ev.Transfer)] == [1, 2, 3]


def test_square_1_skips_eliminated_players() -> None:
    state, _ = play(table({1: 0, 2: None, 3: 9}), 1)
    assert chips(state) == {1: 9, 2: 10, 3: 9}


def test_square_1_friday_rule_applies_to_each_master() -> None:
    state, _ = play(table({1: 0, 2: 5, 3: 9}, friday={1: 2}), 1)
    # seat 2 pays its own 1 and 1 as seat 1's Friday
    assert chips(state) == {1: 9, 2: 8, 3: 9}


@pytest.mark.parametrize("square,amount", [(3, 1), (11, 1), (14, 2), (18, 4), (33, 3), (40, 4)])
def test_collect_squares_collect_from_the_bank(square: int, amount: int) -> None:
    start = table({1: square - 1, 2: 0})
    state, events = play(start, 1)
    assert chips(state)[1] == 10 + amount
    assert state.pot == start.pot - amount
    assert ev.Transfer(None, 1, amount, amount) in events


def test_collect_receives_at_most_the_pot() -> None:
    start = table({1: 17, 2: 0}, chips={1: 20, 2: 19})  # pot holds 1
    state, events = play(start, 1)
    assert ev.Transfer(None, 1, 4, 1) in events
    assert state.pot == 0 and chips(state)[1] == 21


@pytest.mark.parametrize("square,amount", [(8, 3), (15, 2), (26, 3)])
def test_pay_squares_pay_the_bank(square: int, amount: int) -> None:
    start = table({1: square - 1, 2: 0})
    state, events = play(start, 1)
    assert chips(state)[1] == 10 - amount
    assert state.pot == start.pot + amount
    assert ev.Transfer(1, None, amount, amount) in events


def test_pay_the_bank_pays_at_most_what_the_player_has() -> None:
    state, events = play(table({1: 7, 2: 0}, chips={1: 2}), 1)
    assert ev.Transfer(1, None, 3, 2) in events
    assert chips(state)[1] == 0


def test_square_4_shipwreck_back_to_start() -> None:
    state, events = play(table({1: 0, 2: 0}), 4)
    assert positions(state)[1] == 0
    assert ev.Moved(1, 4, 0, ev.Cause.SHIPWRECK) in events


def test_square_4_next_roll_is_a_first_roll_again() -> None:
    state, _ = play(table({1: 0, 2: 0}), 4, 2, 6)
    assert positions(state)[1] == 6


def test_house_rule_square_4_stay_nothing_happens() -> None:
    state, events = play(table({1: 0, 2: 0}, rules=HouseRules(square_4=Square4.STAY)), 4)
    assert positions(state)[1] == 4
    assert [type(e) for e in events] == [ev.Rolled, ev.Moved]


ASKS_ON_4 = HouseRules(square_4=Square4.ASK)


def test_house_rule_square_4_ask_the_player_decides_before_anything_moves() -> None:
    """RULES.md, 4: `ask` = the player decides, like 7/20/23: `restart` or `stay`."""
    state, events = play(table({1: 1, 2: 0}, rules=ASKS_ON_4), 3)
    assert positions(state)[1] == 4 and state.to_move == 1 and state.pending is Pending.WRECK
    assert [type(e) for e in events] == [ev.Rolled, ev.Moved]
    assert state.legal_actions() == (Choice.RESTART, Choice.STAY)


def test_house_rule_square_4_ask_restart_sends_the_token_to_start_and_play_on() -> None:
    state, events = play(table({1: 1, 2: 0}, rules=ASKS_ON_4), 3, Choice.RESTART)
    assert positions(state)[1] == 0 and state.to_move == 2 and state.pending is Pending.ROLL
    assert events[2:] == [ev.Decided(1, Choice.RESTART, 4), ev.Moved(1, 4, 0, ev.Cause.SHIPWRECK)]
    state, _ = play(state, 1, 5)  # seat 2 to 1 (everyone pays), seat 1 from start to 5
    assert positions(state)[1] == 5


def test_house_rule_square_4_ask_stay_keeps_the_token_on_4() -> None:
    state, events = play(table({1: 1, 2: 0}, chips={1: 3}, rules=ASKS_ON_4), 3, Choice.STAY)
    assert positions(state)[1] == 4 and state.to_move == 2 and chips(state)[1] == 3
    assert events[2:] == [ev.Decided(1, Choice.STAY, 4)]
    state, _ = play(state, 2, 4)  # and moves on from 4 next time
    assert positions(state)[1] == 8


def test_house_rule_square_4_ask_a_first_roll_of_4_asks_too() -> None:
    state, _ = play(table({1: 0, 2: 0}, rules=ASKS_ON_4), 4)
    assert state.pending is Pending.WRECK and positions(state)[1] == 4


@pytest.mark.parametrize("action", [Roll(2), Choice.JUMP, Choice.ROLL, Choice.AGAIN])
def test_house_rule_square_4_ask_waits_for_restart_or_stay_only(action: Action) -> None:
    state, _ = play(table({1: 1, 2: 0}, rules=ASKS_ON_4), 3)
    with pytest.raises(IllegalActionError, match="on square 4 to choose restart or stay"):
        play(state, action)


def test_house_rule_square_4_back_and_stay_ask_nothing() -> None:
    for rule, end in ((Square4.BACK, 0), (Square4.STAY, 4)):
        state, _ = play(table({1: 1, 2: 0}, rules=HouseRules(square_4=rule)), 3)
        assert positions(state)[1] == end and state.to_move == 2, rule


def test_square_7_landing_asks_nothing_that_turn() -> None:
    state, _ = play(table({1: 3, 2: 0}), 4)
    assert state.to_move == 2 and state.pending is Pending.ROLL


def test_square_7_may_stay_on_later_turns() -> None:
    state, _ = play(table({1: 3, 2: 0}), 4, 2)
    assert state.to_move == 1 and state.pending is Pending.TREE
    state, events = play(state, Choice.STAY)
    assert positions(state)[1] == 7 and state.to_move == 2
    assert ev.Decided(1, Choice.STAY, 7) in events
    state, _ = play(state, 2)
    assert state.pending is Pending.TREE  # asked again on every later turn


def test_square_7_roll_is_the_default_and_moves_on() -> None:
    state, _ = play(table({1: 7, 2: 0}, pending=Pending.TREE), Choice.ROLL)
    assert state.to_move == 1 and state.pending is Pending.ROLL
    state, _ = play(state, 2)
    assert positions(state)[1] == 9


def test_square_10_pay_the_right_hand_neighbour_2() -> None:
    state, events = play(table({1: 0, 2: 8, 3: 0}, to_move=2), 2)
    assert ev.Transfer(2, 1, 2, 2) in events
    assert chips(state) == {1: 12, 2: 8, 3: 10}


def test_square_10_first_seat_pays_the_last_seat() -> None:
    state, _ = play(table({1: 8, 2: 0, 3: 0}), 2)
    assert chips(state) == {1: 8, 2: 10, 3: 12}


def test_square_10_right_hand_neighbour_skips_the_eliminated() -> None:
    state, _ = play(table({1: 0, 2: None, 3: 8}, to_move=3), 2)
    assert chips(state) == {1: 12, 2: 10, 3: 8}


def test_square_10_alone_pays_nobody() -> None:
    state, events = play(table({1: 8, 2: None}), 2)
    assert ev.NoNeighbour(1) in events and chips(state) == {1: 10, 2: 10}


def test_square_12_sit_out_the_next_turn() -> None:
    state, events = play(table({1: 11, 2: 0, 3: 0}), 1)
    assert ev.WillSitOut(1) in events and state.player(1).sits_out
    state, events = play(state, 1, 1)  # seats 2 and 3 roll; seat 1's turn is consumed
    assert ev.SatOut(1) in events
    assert state.to_move == 2 and not state.player(1).sits_out
    assert positions(state)[1] == 12


def test_square_12_alone_the_turn_is_consumed_and_play_comes_back() -> None:
    state, events = play(table({1: 11, 2: None}), 1)
    assert ev.SatOut(1) in events
    assert state.to_move == 1 and state.pending is Pending.ROLL


def test_square_17_the_parrot() -> None:
    state, events = play(table({1: 16, 2: 0}), 1)
    assert ev.Parrot(1) in events and state.pot == table({1: 16, 2: 0}).pot


def test_square_20_may_roll_again_at_once() -> None:
    state, _ = play(table({1: 18, 2: 0}), 2)
    assert state.to_move == 1 and state.pending is Pending.AGAIN
    state, _ = play(state, Choice.AGAIN, 1)
    assert positions(state)[1] == 21 and state.to_move == 2


def test_square_20_pass_ends_the_turn() -> None:
    state, _ = play(table({1: 18, 2: 0}), 2, Choice.PASS)
    assert positions(state)[1] == 20 and state.to_move == 2


def test_square_20_again_with_a_5_lands_on_25_and_back_to_14() -> None:
    state, events = play(table({1: 18, 2: 0}), 2, Choice.AGAIN, 5)
    assert positions(state)[1] == 14
    assert ev.Moved(1, 25, 14, ev.Cause.GO_BACK) in events
    assert chips(state)[1] == 12


def test_square_23_may_jump_to_27() -> None:
    state, _ = play(table({1: 20, 2: 0}, pending=Pending.ROLL), 3)
    assert state.pending is Pending.JUMP and state.to_move == 1
    before = state
    state, events = play(state, Choice.JUMP)
    assert positions(state)[1] == 27 and state.to_move == 2
    assert ev.Moved(1, 23, 27, ev.Cause.JUMP) in events
    assert chips(state) == chips(before)  # 27 has no effect


def test_square_23_stay() -> None:
    state, _ = play(table({1: 20, 2: 0}), 3, Choice.STAY)
    assert positions(state)[1] == 23 and state.to_move == 2


def test_square_25_back_to_14_and_collect_2() -> None:
    state, events = play(table({1: 24, 2: 0}), 1)
    assert positions(state)[1] == 14
    assert ev.Transfer(None, 1, 2, 2) in events


def test_house_rule_chain_25_to_14_false_no_wine() -> None:
    state, events = play(table({1: 24, 2: 0}, rules=HouseRules(chain_25_to_14=False)), 1)
    assert positions(state)[1] == 14
    assert not any(isinstance(e, ev.Transfer) for e in events)


def test_square_25_chain_applies_the_friday_rule() -> None:
    state, _ = play(table({1: 24, 2: 0}, friday={1: 2}), 1)
    assert chips(state) == {1: 12, 2: 11}


def test_square_29_neighbour_becomes_friday() -> None:
    state, events = play(table({1: 0, 2: 28, 3: 0}, to_move=2), 1)
    assert ev.Transfer(1, 2, 2, 2) in events
    assert ev.FridaySworn(2, 1) in events
    assert state.player(2).friday == 1


def test_square_29_collect_at_most_what_the_neighbour_has() -> None:
    state, events = play(table({1: 0, 2: 28}, chips={1: 1}, to_move=2), 1)
    assert ev.Transfer(1, 2, 2, 1) in events and state.player(2).friday == 1


def test_square_29_new_oath_replaces_the_previous_friday() -> None:
    start = table({1: 0, 2: 0, 3: 28}, friday={3: 1}, to_move=3)
    state, events = play(start, 1)  # seat 2 is seat 3's right-hand neighbour
    assert state.player(3).friday == 2
    assert ev.BondEnded(3, 1, ev.BondEnd.REPLACED) in events


def test_square_29_takes_the_friday_from_a_previous_master() -> None:
    start = table({1: 0, 2: 0, 3: 28}, friday={1: 2}, to_move=3)
    state, events = play(start, 1)
    assert state.player(3).friday == 2 and state.player(1).friday is None
    assert ev.BondEnded(1, 2, ev.BondEnd.TAKEN) in events


def test_square_29_same_neighbour_again_changes_only_the_chips() -> None:
    start = table({1: 0, 2: 28}, friday={2: 1}, to_move=2)
    state, events = play(start, 1)
    assert state.player(2).friday == 1
    assert not any(isinstance(e, (ev.FridaySworn, ev.BondEnded)) for e in events)
    assert chips(state) == {1: 8, 2: 12}


def test_square_29_alone_there_is_no_friday() -> None:
    state, events = play(table({1: 28, 2: None}), 1)
    assert ev.NoNeighbour(1) in events and state.player(1).friday is None


def test_square_32_collect_1_from_each_other_active_player() -> None:
    state, _ = play(table({1: 31, 2: 0, 3: None, 4: 5}), 1)
    assert chips(state) == {1: 12, 2: 9, 3: 10, 4: 9}


def test_square_32_the_movers_friday_fights_beside_them_and_pays_nothing() -> None:
    state, events = play(table({1: 31, 2: 0, 3: 5, 4: 9}, friday={1: 3}), 1)
    assert chips(state) == {1: 12, 2: 9, 3: 10, 4: 9}
    assert [e.payer for e in events if isinstance(e, ev.Transfer)] == [2, 4]


def test_square_32_a_friday_landing_there_still_pays_its_master() -> None:
    # The exception is the mover's own Friday, not the mover's master.
    state, _ = play(table({1: 0, 2: 31, 3: 5}, friday={1: 2}, to_move=2), 1)
    assert chips(state) == {1: 9, 2: 12, 3: 9}


def test_square_32_only_a_friday_left_collects_nothing() -> None:
    state, events = play(table({1: 31, 2: 5, 3: None}, friday={1: 2}), 1)
    assert chips(state) == {1: 10, 2: 10, 3: 10}
    assert not any(isinstance(e, ev.Transfer) for e in events)


def test_square_32_alone_collects_nothing() -> None:
    state, events = play(table({1: 31, 2: None}), 1)
    assert chips(state) == {1: 10, 2: 10} and state.pot == 20
    assert [type(e) for e in events] == [ev.Rolled, ev.Moved]


def test_house_rule_square_32_both_the_mover_and_the_friday_collect_from_each_other() -> None:
    """RULES.md: each payer pays the mover first, then the Friday; the two do not pay
    each other."""
    rules = HouseRules(square_32=Square32.BOTH)
    state, events = play(table({1: 31, 2: 0, 3: 5, 4: 9}, friday={1: 3}, rules=rules), 1)
    assert chips(state) == {1: 12, 2: 8, 3: 12, 4: 8}
    assert [(e.payer, e.payee) for e in events if isinstance(e, ev.Transfer)] == [
        (2, 1), (2, 3), (4, 1), (4, 3)]


def test_house_rule_square_32_both_a_payer_short_of_chips_pays_the_mover_first() -> None:
    rules = HouseRules(square_32=Square32.BOTH)
    state, _ = play(table({1: 31, 2: 0, 3: 5}, chips={2: 1}, friday={1: 3}, rules=rules), 1)
    assert chips(state) == {1: 11, 2: 0, 3: 10}


def test_house_rule_square_32_everyone_the_friday_pays_too() -> None:
    rules = HouseRules(square_32=Square32.EVERYONE)
    state, events = play(table({1: 31, 2: 0, 3: 5, 4: 9}, friday={1: 3}, rules=rules), 1)
    assert chips(state) == {1: 13, 2: 9, 3: 9, 4: 9}
    assert [e.payer for e in events if isinstance(e, ev.Transfer)] == [2, 3, 4]


@pytest.mark.parametrize("rule", list(Square32))
def test_house_rule_square_32_without_a_friday_all_three_are_the_same(rule: Square32) -> None:
    state, _ = play(table({1: 31, 2: 0, 3: None, 4: 5},
                               rules=HouseRules(square_32=rule)), 1)
    assert chips(state) == {1: 12, 2: 9, 3: 10, 4: 9}


@pytest.mark.parametrize("rule", list(Square32))
def test_house_rule_square_32_is_no_bank_payment_no_friday_rule(rule: Square32) -> None:
    """The mover is someone's Friday: between players the Friday rule gives the master
    nothing, whichever way 32 is read."""
    state, _ = play(table({1: 0, 2: 31, 3: 5}, friday={1: 2}, to_move=2,
                          rules=HouseRules(square_32=rule)), 1)
    assert chips(state) == {1: 9, 2: 12, 3: 9}


def test_square_36_swap_with_a_player_on_41() -> None:
    state, events = play(table({1: 35, 2: 41}), 1)
    assert positions(state) == {1: 41, 2: 36}
    assert ev.Swapped(1, 2) in events


def test_square_36_several_on_41_the_first_after_the_mover_swaps() -> None:
    state, _ = play(table({1: 41, 2: 0, 3: 35, 4: 41}, to_move=3), 1)
    assert positions(state) == {1: 41, 2: 0, 3: 41, 4: 36}


def test_square_36_nobody_on_41_nothing_happens() -> None:
    state, events = play(table({1: 35, 2: 40}), 1)
    assert positions(state) == {1: 36, 2: 40}
    assert not any(isinstance(e, ev.Swapped) for e in events)


def test_square_36_swap_resolves_neither_square() -> None:
    start = table({1: 35, 2: 41})
    state, _events = play(start, 1)
    assert chips(state) == chips(start) and state.pot == start.pot


def test_square_42_a_6_from_42_eliminates() -> None:
    state, events = play(table({1: 42, 2: 0, 3: 0}), 6)
    assert ev.Eliminated(1) in events
    assert state.player(1).position is None and not state.player(1).active
    assert state.to_move == 2


def test_square_42_landing_there_is_harmless() -> None:
    state, _ = play(table({1: 40, 2: 0}), 2)
    assert positions(state)[1] == 42 and state.player(1).active


def test_square_42_reached_by_a_bounce_is_harmless() -> None:
    state, events = play(table({1: 44, 2: 0}), 4)  # 48 -> back to 42
    assert ev.Moved(1, 44, 42, ev.Cause.ROLL, bounced=True) in events
    assert state.player(1).active


def test_square_42_a_smaller_roll_from_42_is_an_ordinary_move() -> None:
    state, _ = play(table({1: 42, 2: 0}), 5)  # 47 -> back to 43
    assert positions(state)[1] == 43


def test_square_45_exact_finish_wins() -> None:
    start = table({1: 41, 2: 10})
    state, events = play(start, 4)
    assert state.status is Status.WON and state.winner == 1
    assert ev.Won(1, start.pot) in events
    assert state.to_move is None and state.legal_actions() == ()


def test_exact_finish_bounces_back_by_the_excess() -> None:
    state, events = play(table({1: 43, 2: 0}), 5)  # 48: three too far
    assert positions(state)[1] == 42
    assert ev.Moved(1, 43, 42, ev.Cause.ROLL, bounced=True) in events


def test_bounce_lands_on_40_and_collects() -> None:
    state, _ = play(table({1: 44, 2: 0}), 6)  # 50 -> 40
    assert positions(state)[1] == 40 and chips(state)[1] == 14


# -- square 33 and its house rule -------------------------------------------------


def test_square_33_mover_collects_3_and_the_friday_rule_gives_the_friday_1() -> None:
    state, events = play(table({1: 32, 2: 0, 3: 0}, friday={1: 2}), 1)
    assert chips(state) == {1: 13, 2: 11, 3: 10}
    assert [e for e in events if isinstance(e, ev.Transfer)] == [
        ev.Transfer(None, 1, 3, 3), ev.Transfer(None, 2, 1, 1, ev.Why.FRIDAY)]


def test_house_rule_square_33_friday_the_friday_collects_3_and_no_friday_rule() -> None:
    rules = HouseRules(square_33=Square33.FRIDAY)
    # seat 2 is seat 1's Friday and has a Friday of its own (3): 3 gets nothing
    start = table({1: 32, 2: 0, 3: 0}, friday={1: 2, 2: 3}, rules=rules)
    state, events = play(start, 1)
    assert chips(state) == {1: 10, 2: 13, 3: 10} and state.pot == start.pot - 3
    assert [e for e in events if isinstance(e, ev.Transfer)] == [ev.Transfer(None, 2, 3, 3)]


def test_house_rule_square_33_friday_without_a_friday_the_mover_collects() -> None:
    rules = HouseRules(square_33=Square33.FRIDAY)
    state, _ = play(table({1: 32, 2: 0}, rules=rules), 1)
    assert chips(state) == {1: 13, 2: 10}


def test_house_rule_square_33_friday_collects_at_most_the_pot() -> None:
    rules = HouseRules(square_33=Square33.FRIDAY)
    start = table({1: 32, 2: 0}, chips={1: 20, 2: 19}, friday={1: 2}, rules=rules)  # pot 1
    state, events = play(start, 1)
    assert ev.Transfer(None, 2, 3, 1) in events and state.pot == 0
