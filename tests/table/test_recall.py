"""The recall screen reads true: each turn's path runs to where the token ended, the
newest turn first, a turn's number never alone on a row, and a game put away in play
said as put away, not as a game nobody won."""

from __future__ import annotations

import datetime
import random

import pytest

from firmware.display import screens
from firmware.display.fonts import Fonts
from firmware.display.layout import CLASSIC
from firmware.display.paging import box, fit, pages
from firmware.display.words import Words
from firmware.saves.rows import Ended, Summary
from robinson_core import Game, HouseRules
from robinson_core import events as ev
from robinson_core.texts import LANGUAGES


def seeded_games(count: int) -> list[Game]:
    games = []
    for seed in range(count):
        rng = random.Random(seed)
        game = Game(tuple(range(1, 3 + seed % 4)), rules=HouseRules(chain_25_to_14=seed % 2 == 0))
        while game.state.legal_actions():
            game = game.play(rng.choice(game.state.legal_actions()))
        games.append(game)
    return games


def test_a_turns_path_ends_where_the_token_ended() -> None:
    w, compared, onward = Words("en"), 0, 0
    for game in seeded_games(40):
        for state, events in game.history[1:]:
            rolled = [e for e in events if isinstance(e, ev.Moved) and e.cause is ev.Cause.ROLL]
            if not rolled or any(isinstance(e, ev.Eliminated) for e in events):
                continue  # no move, or the token left the board
            said = screens.action_said(w, events)
            end = said.rsplit(" → ", 1)[1]
            where = state.player(rolled[0].seat).position
            assert end == ("start" if where == 0 else str(where)), (said, where)
            compared += 1
            onward += said.count(" → ") > 1 + rolled[0].bounced
    assert compared >= 1000 and onward >= 50, (compared, onward)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_newest_turn_comes_first_and_its_number_is_never_alone(lang: str) -> None:
    w, fonts = Words(lang), Fonts()
    game = seeded_games(3)[2]
    turns = screens.last_turns(w, game)
    numbers = [int(line.split(".", 1)[0]) for line in turns]
    assert numbers == sorted(numbers, reverse=True) and numbers[0] == len(game.actions)
    assert len(numbers) == 10
    shown = fit(screens.recall_screen(w, game, ()), CLASSIC, fonts)
    rows = [row for page in pages(shown, fonts, box(CLASSIC, shown, fonts)) for row in page]
    alone = [row for row in rows if row.rstrip(".").isdecimal()]
    assert rows and alone == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_put_away_in_play_is_said_so(lang: str) -> None:
    w = Words(lang)
    when = datetime.datetime(2026, 11, 30, 20, 15)
    games = (Summary(3, Ended.ABANDONED, when, None), Summary(2, Ended.NO_WINNER, when, None),
             Summary(1, Ended.WON, when, 2))
    body = screens.recall_screen(w, None, games).body
    assert body[-3:] == (w("recall_put_away", when="30.11. 20:15"),
                         w("recall_none", when="30.11. 20:15"),
                         w("recall_won", when="30.11. 20:15", name=w.name(2)))
    assert len(set(body[-3:])) == 3
