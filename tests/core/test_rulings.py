"""Rulings and house rules beyond single squares: setup, turns, money, Friday, death, share."""

from __future__ import annotations

import re

import pytest

from robinson_core import (
    Choice,
    DeadChips,
    Game,
    HouseRuleError,
    HouseRules,
    IllegalActionError,
    Pending,
    Roll,
    SetupError,
    ShareWith,
    Square4,
    Square32,
    Status,
    new_game,
)
from robinson_core import events as ev

from ..midgame import chips, play, positions, table

# -- setup --------------------------------------------------------------------


def test_setup_purse_and_stake_go_into_the_pot() -> None:
    state = new_game([1, 2, 3])
    assert chips(state) == {1: 10, 2: 10, 3: 10} and state.pot == 30


def test_house_rules_purse_and_stake() -> None:
    state = new_game([2, 5], rules=HouseRules(purse=30, stake=5))
    assert chips(state) == {2: 25, 5: 25} and state.pot == 10


def test_setup_the_lowest_seat_starts_by_default() -> None:
    assert new_game([5, 3, 7]).to_move == 3
    assert new_game([5, 3, 7], first=7).to_move == 7


def test_setup_all_tokens_begin_at_start() -> None:
    assert set(positions(new_game(range(1, 9))).values()) == {0}


@pytest.mark.parametrize("seats,first", [([1], None), (list(range(1, 10)), None), ([1, 1], None),
                                         ([0, 1], None), ([1, 9], None), ([1, 2], 3)])
def test_setup_refuses_what_is_not_a_game(seats: list[int], first: int | None) -> None:
    with pytest.raises(SetupError):
        new_game(seats, first)


# -- turns --------------------------------------------------------------------


def test_play_passes_clockwise_in_increasing_seat_order_and_wraps() -> None:
    state = new_game([2, 4, 7], first=4)
    order = []
    for _ in range(4):
        order.append(state.to_move)
        state, _ = play(state, 2)
    assert order == [4, 7, 2, 4]


def test_first_roll_puts_the_token_on_the_square_it_shows() -> None:
    state, _ = play(new_game([1, 2]), 6)
    assert positions(state)[1] == 6


def test_eliminated_players_are_skipped_in_turn_order() -> None:
    state, _ = play(table({1: 0, 2: None, 3: 0}), 2)
    assert state.to_move == 3


def test_an_illegal_action_names_the_state_and_the_action() -> None:
    state = new_game([1, 2])
    with pytest.raises(IllegalActionError, match=r"seat 1 to roll.*'jump'"):
        play(state, Choice.JUMP)
    tree = table({1: 7, 2: 0}, pending=Pending.TREE)
    with pytest.raises(IllegalActionError, match=r"square 7 to choose roll or stay.*roll of 3"):
        play(tree, 3)


def test_a_die_shows_1_to_6() -> None:
    for face in (0, 7, True):
        with pytest.raises(IllegalActionError):
            Roll(face)


def test_a_finished_game_takes_no_action() -> None:
    state, _ = play(table({1: 44, 2: 0}), 1)
    with pytest.raises(IllegalActionError, match="over"):
        play(state, 1)


# -- money --------------------------------------------------------------------


def test_house_rule_debt_pays_the_full_amount() -> None:
    state, events = play(table({1: 7, 2: 0}, chips={1: 1}, rules=HouseRules(debt=True)), 1)
    assert chips(state)[1] == -2 and ev.Transfer(1, None, 3, 3) in events


def test_house_rule_debt_between_players() -> None:
    state, _ = play(table({1: 8, 2: 0}, chips={1: 0}, rules=HouseRules(debt=True)), 2)
    assert chips(state) == {1: -2, 2: 12}


def test_house_rule_debt_still_collects_at_most_the_pot() -> None:
    start = table({1: 17, 2: 0}, chips={1: 20, 2: 20}, rules=HouseRules(debt=True))
    state, events = play(start, 1)
    assert ev.Transfer(None, 1, 4, 0) in events and state.pot == 0


def test_friday_pays_the_bank_1_when_the_master_pays() -> None:
    state, events = play(table({1: 7, 2: 0}, friday={1: 2}), 1)
    assert events[-2:] == [ev.Transfer(1, None, 3, 3), ev.Transfer(2, None, 1, 1, ev.Why.FRIDAY)]
    assert chips(state) == {1: 7, 2: 9}


def test_friday_collects_1_when_the_master_collects() -> None:
    _state, events = play(table({1: 17, 2: 0}, friday={1: 2}), 1)
    assert events[-2:] == [ev.Transfer(None, 1, 4, 4),
                           ev.Transfer(None, 2, 1, 1, ev.Why.FRIDAY)]


def test_friday_rule_triggers_even_if_the_master_pays_nothing() -> None:
    state, _ = play(table({1: 7, 2: 0}, chips={1: 0}, friday={1: 2}), 1)
    assert chips(state) == {1: 0, 2: 9}


def test_friday_rule_triggers_even_if_the_master_receives_less() -> None:
    start = table({1: 17, 2: 0}, chips={1: 19, 2: 19}, friday={1: 2})  # pot holds 2
    _state, events = play(start, 1)
    assert ev.Transfer(None, 1, 4, 2) in events
    assert ev.Transfer(None, 2, 1, 0, ev.Why.FRIDAY) in events


def test_a_fridays_own_payment_triggers_no_further_friday() -> None:
    # 1's Friday is 2, and 2's Friday is 3: only 2 pays for 1.
    state, _ = play(table({1: 7, 2: 0, 3: 0}, friday={1: 2, 2: 3}), 1)
    assert chips(state) == {1: 7, 2: 9, 3: 10}


def test_friday_rule_does_not_apply_between_players() -> None:
    state, _ = play(table({1: 8, 2: 0, 3: 0}, friday={1: 2}), 2)  # 10: pay the neighbour
    assert chips(state) == {1: 8, 2: 10, 3: 12}
    state, _ = play(table({1: 31, 2: 0, 3: 0}, friday={3: 2}), 1)  # 32: collect from each
    assert chips(state) == {1: 12, 2: 9, 3: 9}  # 3 pays as a player; its Friday 2 owes nothing


def test_a_friday_may_also_be_a_master() -> None:
    # 2 swears to 3 while 2 is 1's Friday: both bonds stand.
    state, _ = play(table({1: 0, 2: 0, 3: 28}, friday={1: 2}, to_move=3), 1)
    assert state.player(3).friday == 2 and state.player(1).friday is None  # taken from 1
    state, _ = play(table({1: 28, 2: 0, 3: 0}, friday={2: 3}), 1)
    assert state.player(1).friday == 3 and state.player(2).friday is None


# -- elimination ----------------------------------------------------------------


def test_house_rule_dead_chips_keep() -> None:
    state, _ = play(table({1: 42, 2: 0}, chips={1: 7}), 6)
    assert chips(state)[1] == 7


def test_house_rule_dead_chips_pot() -> None:
    start = table({1: 42, 2: 0, 3: 0}, chips={1: 7}, rules=HouseRules(dead_chips=DeadChips.POT))
    state, events = play(start, 6)
    assert chips(state)[1] == 0 and state.pot == start.pot + 7
    assert ev.Transfer(1, None, 7, 7, ev.Why.DEAD_CHIPS) in events


def test_ruling_dead_chips_pot_leaves_a_debt_with_the_dead() -> None:
    rules = HouseRules(dead_chips=DeadChips.POT, debt=True)
    start = table({1: 42, 2: 0}, chips={1: -3, 2: 23}, rules=rules)
    state, events = play(start, 6)
    assert chips(state)[1] == -3 and state.pot == start.pot
    assert not any(isinstance(e, ev.Transfer) for e in events)


def test_house_rule_dead_chips_pot_with_no_chips_moves_nothing() -> None:
    start = table({1: 42, 2: 0}, chips={1: 0}, rules=HouseRules(dead_chips=DeadChips.POT))
    state, events = play(start, 6)
    assert state.pot == start.pot
    assert [type(e) for e in events] == [ev.Rolled, ev.Moved, ev.Eliminated]


def test_elimination_ends_every_friday_bond_of_the_dead() -> None:
    start = table({1: 42, 2: 0, 3: 0}, friday={1: 2, 3: 1})
    state, events = play(start, 6)
    assert state.player(1).friday is None and state.player(3).friday is None
    assert ev.BondEnded(1, 2, ev.BondEnd.ELIMINATED) in events
    assert ev.BondEnded(3, 1, ev.BondEnd.ELIMINATED) in events


def test_the_dead_pay_and_receive_nothing() -> None:
    state, _ = play(table({1: 0, 2: None, 3: 31}), 1)  # 1: everyone pays
    assert chips(state)[2] == 10
    state, _ = play(table({1: 31, 2: None, 3: 0}), 1)  # 32: collect from each
    assert chips(state) == {1: 11, 2: 10, 3: 9}


def test_the_last_player_left_plays_on_alone() -> None:
    state, _ = play(table({1: 42, 2: 5}), 6)
    assert state.status is Status.PLAYING and state.to_move == 2
    state, _ = play(state, 1)
    assert state.to_move == 2


def test_nobody_left_means_no_winner_and_the_pot_stays() -> None:
    start = table({1: 42, 2: None})
    state, events = play(start, 6)
    assert state.status is Status.NO_WINNER and state.winner is None
    assert state.pot == start.pot and ev.NoWinner(start.pot) in events
    assert state.to_move is None


# -- share-out ----------------------------------------------------------------


def test_winner_takes_the_whole_pot_and_a_friday_gets_a_third() -> None:
    start = table({1: 44, 2: 0, 3: 0}, friday={1: 3})  # pot 30
    state, events = play(start, 1)
    assert ev.Shared(1, 3, 10, True) in events
    assert chips(state) == {1: 30, 2: 10, 3: 20} and state.pot == 0


def test_friday_share_rounds_down() -> None:
    start = table({1: 44, 2: 0}, chips={1: 10, 2: 20}, friday={1: 2})  # pot 10
    state, _ = play(start, 1)
    assert chips(state) == {1: 17, 2: 23}


def test_the_friday_share_applies_even_with_share_with_none() -> None:
    start = table({1: 44, 2: 0}, friday={1: 2}, rules=HouseRules(share_with=ShareWith.NONE))
    state, _ = play(start, 1)
    assert chips(state)[2] == 10 + 20 // 3


def test_house_rule_share_with_right_default() -> None:
    state, events = play(table({1: 0, 2: 44, 3: 0}, to_move=2), 1)  # pot 30
    assert ev.Shared(2, 1, 15, False) in events
    assert chips(state) == {1: 25, 2: 25, 3: 10}


def test_share_of_an_odd_pot_rounds_down() -> None:
    # pot 21: the right-hand neighbour gets 10, the winner keeps 11
    state, events = play(table({1: 0, 2: 44}, chips={1: 9, 2: 10}, to_move=2), 1)
    assert ev.Shared(2, 1, 10, False) in events
    assert chips(state) == {1: 19, 2: 21}


def test_friday_share_of_a_pot_not_divisible_by_3_rounds_down() -> None:
    state, events = play(table({1: 0, 2: 44}, chips={1: 12, 2: 8}, friday={2: 1}, to_move=2), 1)
    assert ev.Shared(2, 1, 6, True) in events  # pot 20: a third is 6
    assert chips(state) == {1: 18, 2: 22}


def test_house_rule_share_with_left() -> None:
    rules = HouseRules(share_with=ShareWith.LEFT)
    state, _ = play(table({1: 0, 2: 44, 3: 0}, to_move=2, rules=rules), 1)
    assert chips(state) == {1: 10, 2: 25, 3: 25}


def test_house_rule_share_with_runner_up() -> None:
    rules = HouseRules(share_with=ShareWith.RUNNER_UP)
    state, _ = play(table({1: 30, 2: 44, 3: 20, 4: 12}, to_move=2, rules=rules), 1)
    assert chips(state)[1] == 10 + 40 // 2


def test_house_rule_share_with_runner_up_ties_go_to_the_first_after_the_winner() -> None:
    rules = HouseRules(share_with=ShareWith.RUNNER_UP)
    _state, events = play(table({1: 30, 2: 44, 3: 20, 4: 30}, to_move=2, rules=rules), 1)
    assert ev.Shared(2, 4, 20, False) in events


def test_house_rule_share_with_none() -> None:
    rules = HouseRules(share_with=ShareWith.NONE)
    state, events = play(table({1: 0, 2: 44}, to_move=2, rules=rules), 1)
    assert not any(isinstance(e, ev.Shared) for e in events)
    assert chips(state) == {1: 10, 2: 30}


def test_share_skips_the_eliminated() -> None:
    state, _ = play(table({1: None, 2: 44, 3: 0}, to_move=2), 1)
    assert chips(state) == {1: 10, 2: 25, 3: 25}  # 3 is 2's right-hand neighbour now


def test_winner_alone_shares_with_nobody() -> None:
    state, events = play(table({1: None, 2: 44}, to_move=2), 1)
    assert not any(isinstance(e, ev.Shared) for e in events)
    assert chips(state) == {1: 10, 2: 30}


# -- house rules as a value -----------------------------------------------------


def test_house_rules_unknown_name_says_what_is_allowed() -> None:
    with pytest.raises(HouseRuleError, match=r"unknown house rule 'pursee'.*purse, stake"):
        HouseRules.from_strings({"pursee": "3"})


@pytest.mark.parametrize("name,value", [("purse", "-1"), ("purse", "abc"), ("stake", "21"),
                                        ("debt", "yes"), ("dead_chips", "burn"),
                                        ("share_with", "anyone"), ("purse", "1000")])
def test_house_rules_bad_value_says_what_is_allowed(name: str, value: str) -> None:
    with pytest.raises(HouseRuleError, match=name):
        HouseRules.from_strings({name: value})


@pytest.mark.parametrize("name,value", [("purse", True), ("stake", False), ("debt", 1),
                                        ("square_4", "ask"), ("dead_chips", "pot"),
                                        ("square_33", "friday")])
def test_house_rules_refuse_a_value_of_the_wrong_type(name: str, value: object) -> None:
    with pytest.raises(HouseRuleError, match=name):
        HouseRules(**{name: value})  # type: ignore[arg-type]


def test_house_rules_round_trip_as_text() -> None:
    rules = HouseRules(purse=25, debt=True, share_with=ShareWith.RUNNER_UP)
    assert HouseRules.from_strings(rules.as_strings()) == rules
    assert rules.changed() == {"purse": "25", "debt": "true", "share_with": "runner_up"}


def test_a_game_can_be_started_with_any_house_rule_changed() -> None:
    game = Game((1, 2), rules=HouseRules.from_strings(
        {"purse": "5", "stake": "5", "debt": "true", "restart_on_4": "false",
         "chain_25_to_14": "false", "dead_chips": "pot", "share_with": "none",
         "square_33": "friday"}))
    assert game.state.pot == 10 and chips(game.state) == {1: 0, 2: 0}


def test_a_game_saved_before_square_32_existed_reads_and_checks_as_saved() -> None:
    """A rule added later is written only where it is not its default: the rules line of
    a game with the defaults is the one saved before square_32 existed, so its checksum
    (the game's and the database's) still matches; a game that reads 32 otherwise says
    so, and comes back the same."""
    old = ("rules purse=20 stake=10 debt=false restart_on_4=true chain_25_to_14=true "
           "dead_chips=keep share_with=right square_33=mover\n")
    game = Game((1, 2)).play(Roll(3))
    assert old in game.save() and Game.load(game.save()) == game
    for rule in Square32:
        rules = HouseRules(square_32=rule)
        assert ("square_32" in rules.as_text()) == (rule is not Square32.MOVER)
        assert HouseRules.from_text(rules.as_text()) == rules
        kept = Game((1, 2), rules=rules).play(Roll(3))
        assert Game.load(kept.save()) == kept


@pytest.mark.parametrize("rule,saved", [(Square4.BACK, "restart_on_4=true"),
                                        (Square4.STAY, "restart_on_4=false"),
                                        (Square4.ASK, "square_4=ask")])
def test_square_4_is_saved_in_restart_on_4s_words_where_they_say_it(rule: Square4,
                                                                    saved: str) -> None:
    """square_4 took the place of the boolean restart_on_4: a game saved before reads and
    checks as saved (its back and stay are the old true and false), and a game that asks
    on 4 says so under the new name; every one comes back the same."""
    rules = HouseRules(square_4=rule)
    assert saved in rules.as_text().split() and HouseRules.from_text(rules.as_text()) == rules
    game = Game((1, 2), rules=rules).play(Roll(4))
    if rule is Square4.ASK:
        game = game.play(Choice.STAY)
    assert Game.load(game.save()) == game and f" {saved} " in game.save()


@pytest.mark.parametrize("given,meant", [({"restart_on_4": "true"}, Square4.BACK),
                                         ({"restart_on_4": "FALSE"}, Square4.STAY),
                                         ({"restart_on_4": "true", "square_4": "back"},
                                          Square4.BACK),
                                         ({"square_4": "ask"}, Square4.ASK)])
def test_the_earlier_restart_on_4_is_read_as_the_square_4_it_means(
        given: dict[str, str], meant: Square4) -> None:
    assert HouseRules.from_strings(given).square_4 is meant


@pytest.mark.parametrize("given,said", [
    ({"restart_on_4": "ask"}, "restart_on_4 must be true or false, not 'ask' "
                              "(or give square_4: one of back, ask, stay)"),
    ({"restart_on_4": "false", "square_4": "ask"},
     "house rules restart_on_4 and square_4 disagree: give only square_4"),
    ({"square_4": "maybe"}, "square_4 must be one of back, ask, stay, not 'maybe'")])
def test_restart_on_4_and_square_4_refused_in_one_line(given: dict[str, str],
                                                       said: str) -> None:
    with pytest.raises(HouseRuleError, match=re.escape(said)):
        HouseRules.from_strings(given)
