"""The main screens of the table, in every language: what tests/reference/screens/ pins down.

Regenerate the PNGs (after a deliberate change, then look at them) with
``.venv/bin/python -m tests.make_screens``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from firmware.display import screens
from firmware.display.screen import Screen
from firmware.display.words import Words
from firmware.saves.rows import Summary, ending
from firmware.table.menu import labels, phone_labels
from firmware.table.prefs import PHONES_MOST, SPEEDS, VOLUMES, Phone, Prefs
from robinson_core import Game, HouseRules, Square4, play_script
from robinson_core.texts import LANGUAGES

NAMES = {1: "Ana", 2: "Ben", 3: "Cid"}
# Each script stops three players just after a result of one kind (found by playing
# random games with the engine and keeping the shortest script for each kind).
MOMENTS = {
    "plain": "6",
    "bounce": "3 6 3 1 4 3 5 6 6 2 5 stay 5 2 stay 5 2 stay 6 3 roll 5 5 6 5",
    "chain_25": "2 6 6 6 3 4 6 5 4 6 again 5",
    "shipwreck": "4",
    "swap": "6 3 5 4 5 4 1 1 3 4 6 6 1 1 6 6 3 6 5 6 4 3 6 4 6",
    "pay_bank": "6 2 5 2",
    "collect_bank": "3",
    "pay_player": "6 3 5 4",
    "collect_each": "4 6 2 2 5 1 2 6 2 1 6 jump 3 2 5",
    "everyone_pays": "1",
    "friday_sworn": "6 5 4 6 3 6 2 2 6 2 1 6 3 5",
    "friday_pays": "4 1 1 6 4 1 3 5 2 5 4 4 6 again 6 6 again 4 4 3 4 1",
    "friday_collects": "6 5 4 6 3 6 2 2 6 2 1 6 3 5 6 4",
    "bond_ended": "6 5 1 6 6 1 6 3 4 4 6 6 5 6 4 3 4 4 4 1 1 6 2 5 3 3 3 6",
    "will_sit_out": "6 4 1 6",
    "sat_out": "6 4 1 6 6 4",
    "parrot": "5 4 5 6 6 2 6",
    "decision_tree": "2 6 5 5 6 6",
    "decision_again": "3 6 5 6 6 6 6 4 5",
    "decision_jump": "5 5 5 1 6 5 6 6 6 6",
    "decision_wreck": "4",  # house rule square_4 = ask (RULED)
    "shipwreck_stay": "4",  # house rule square_4 = stay (RULED)
    "no_neighbour": "3 4 1 2 2 5 6 2 1 1 1 roll 2 1 4 2 3 2 1 5 1 6 5 1 1 1 1 3 6 5 stay 2 1 "
                    "stay 3 6 2 2 2 1 3 6 1 6 6 6 1 2 3 5 2 4 5 2 6 6 6 4 1",
    "dead": "5 2 3 5 6 3 4 2 2 2 4 5 3 6 again 6 3 3 5 1 6 6 1 6 5 4 4 6",
    "won_alone": "5 5 5 6 6 3 5 3 2 6 2 6 4 6 5 1 1 jump 3 6 4 4 2 4 2 6 2 6 2 4 1 1 1 6 2 4 "
                 "5 4 4 2 6 1",
    "won_half": "3 6 2 3 5 2 5 5 1 5 3 6 4 pass 4 jump stay 5 6 roll 5 2 6 6 6",
    "won_past": "6 2 5 2 6 3 2 4 5 1 6 4 3 2 6 4 6 5 4 stay 6 5 2 6 6 2 3 2 1 6 6",  # the
    # half to the right goes past the hanged Cid
    "won_friday": "3 3 4 4 6 4 roll 3 6 1 5 5 again 4 3 4 5 4 5 6 3 2 5 6 1 5",
    "no_winner": "6 2 5 5 1 2 1 2 stay 1 roll 4 6 6 3 2 again 2 4 6 2 1 4 2 3 3 6 6 2 2 1 5 5 5 "
                 "2 1 5 4 4 3 6 3 6 6 5 6",
}


def menu_items(w: Words) -> list[str]:
    """The menu's rows as the table labels them (``labels``), each with the widest value
    it takes: any language, on or off, every volume and speed the menu steps through
    (a row tried only with "4/4" let Finnish's "Puhenopeus: normaali" wrap)."""
    from firmware.display.fonts import Fonts

    fonts = Fonts()
    phones = tuple(Phone(f"{n:064x}") for n in range(PHONES_MOST))
    every = [labels(w, Prefs(language=lang, voice=on, story=on, odds=on, volume=volume,
                             speed=speed, phones=phones))
             for lang in LANGUAGES for on in (True, False) for volume in VOLUMES
             for speed in SPEEDS]
    return [max(row, key=fonts.width) for row in zip(*every, strict=True)]


def phone_items(w: Words) -> list[str]:
    """The phones list as the panel labels it, with the longest kinds the page names (its
    browsers and systems: ``firmware.web.pairing``) and a phone of no known kind."""
    kinds = ("Samsung/ChromeOS", "Firefox/ChromeOS", "Opera/Windows", "", "Samsung/ChromeOS")
    return phone_labels(w, [Phone(f"{n:064x}", kind) for n, kind in enumerate(kinds)])


RULED = {"decision_wreck": HouseRules(square_4=Square4.ASK),
         "shipwreck_stay": HouseRules(square_4=Square4.STAY)}
"""The moments played under a house rule (the others: the defaults)."""


def games() -> dict[str, Game]:
    seats = (1, 2, 3)
    return {name: play_script(Game(seats, rules=RULED.get(name, HouseRules())), script)
            for name, script in MOMENTS.items()}


def gallery(names: dict[str, dict[int, str]] | None = None) -> Iterator[tuple[str, Screen]]:
    """Every screen worth pinning down: each result kind, and each page of it (the
    players named ``names[lang]``, or NAMES)."""
    played = games()
    for lang in LANGUAGES:
        w = Words(lang, (names or {}).get(lang, NAMES))
        yield f"{lang}-title", screens.title_screen(w, True)
        yield f"{lang}-title_over", screens.title_screen(w, True, over=True)
        yield f"{lang}-title_starting", screens.title_screen(w, False)
        yield f"{lang}-setup", screens.setup_screen(w, (1, 2, 3), 2, HouseRules())
        yield f"{lang}-setup_need", screens.setup_screen(w, (2,), 2, HouseRules(), wired=3)
        yield f"{lang}-setup_seats", screens.setup_screen(Words(lang), (1, 4), None,
                                                          HouseRules())
        yield f"{lang}-turn", screens.turn_screen(w, Game((1, 2, 3)).state)
        yield f"{lang}-rolling", screens.rolling_screen(w, 1, 5, 2)
        for name, game in played.items():
            screen = screens.result_screen(w, game)
            yield f"{lang}-{name}", screen
            if screens.decider(game.state) not in (None, screens.mover(game)):
                yield f"{lang}-{name}-asked", screens.turn_screen(w, game.state)
        put_away = [Summary(day, ending(played[kind]), datetime.datetime(2026, 11, day, 20, 15),
                            played[kind].state.winner)
                    for day, kind in ((30, "no_winner"), (29, "won_alone"), (28, "bounce"))]
        yield f"{lang}-recall", screens.recall_screen(w, played["bounce"], put_away)
        items = menu_items(w)
        yield f"{lang}-menu", screens.menu_screen(w, items, 0)
        yield f"{lang}-menu-last", screens.menu_screen(w, items, len(items) - 1)
        yield f"{lang}-phones", screens.menu_screen(w, phone_items(w), 1, "phones_keys")
        yield f"{lang}-pairing", screens.pairing_screen(w, "042917", "Xq3_kP9vLm2sT8wZ",
                                                        "http://robinson.local/")
