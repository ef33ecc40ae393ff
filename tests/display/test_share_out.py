"""The share-out says whom the half went past: at the table a hanged player sits between
the winner and the one on the right (or left) who gets it, and "on the right" alone
would name the empty seat (issue 61, item 6)."""

from __future__ import annotations

import random
from collections import Counter

from firmware.display import screens
from firmware.display.words import Words
from firmware.speech import said
from robinson_core import Game, HouseRules, narrate
from robinson_core import events as ev
from robinson_core.house_rules import ShareWith
from robinson_core.texts import LANGUAGES, ui

HEARD = {"en": " out", "hr": " izvan igre", "fi": " pois pelistä", "ja": "わ だつらく"}
"""What the voice says after the names passed over."""


def hanged_between(game: Game, winner: int, partner: int, rule: ShareWith) -> list[int]:
    """Read from the seats' numbers (turn order goes up, the right is the seat before):
    the hanged from the winner's side to the partner's, nearest first."""
    seats = len(game.seats)
    step = -1 if rule is ShareWith.RIGHT else 1
    found, seat = [], winner
    while (seat := (seat - 1 + step) % seats + 1) != partner:
        if game.state.player(seat).position is None:
            found.append(seat)
    return found


def test_a_half_past_the_hanged_names_them_on_the_panel_in_the_voice_and_the_transcript(
) -> None:
    """300 seeded games of 4 to 6 players under each of share_with = right and left,
    played to the end: every half names the hanged it went past (and only them) in
    every language; a half that went past nobody says nothing of anyone out."""
    compared = Counter[str]()
    for rule in (ShareWith.RIGHT, ShareWith.LEFT):
        for seed in range(300):
            rng = random.Random(seed)
            game = Game(tuple(range(1, 4 + seed % 3)), rules=HouseRules(share_with=rule))
            while game.state.legal_actions():
                game = game.play(rng.choice(game.state.legal_actions()))
            share = next((e for e in game.events if isinstance(e, ev.Shared)), None)
            if share is None or share.as_friday or not share.amount:  # a pot of 0: no half
                continue
            dead = hanged_between(game, share.winner, share.partner, rule)
            assert narrate.passed_over(share, game.state, game.rules) == dead
            for lang in LANGUAGES:
                w = Words(lang)
                screen = screens.result_screen(w, game)
                shown = " ".join(screen.body)
                heard = said.Spoken(lang).result(game)
                written = "\n".join(narrate.account(game, lang))
                names = [w.name(seat) for seat in dead]
                listed = ("、" if lang == "ja" else ", ").join(names)
                told = said.Spoken(lang)("comma").join(names[:-1]) + (
                    said.Spoken(lang)("and") if len(names) > 1 else "") + "".join(names[-1:])
                line = ui(lang, "passed_over", dead=listed)  # a line of its own, after the
                before, _, after = ui(lang, "passed_over", dead="|").partition("|")  # half
                prefix = before if before.strip() else after  # its own words
                for text, whole, part in ((shown, line, prefix), (written, line, prefix),
                                          (heard, told + HEARD[lang], HEARD[lang])):
                    if dead:
                        assert whole in text, (lang, whole, text)
                    else:
                        assert part not in text, (lang, text)
            compared["past the hanged" if dead else "nobody passed"] += 1
    print(dict(compared))
    assert compared["past the hanged"] >= 10 and compared["nobody passed"] >= 100, compared
