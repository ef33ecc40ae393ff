"""The main screens of the table, in every language: what tests/reference/screens/ pins down.

Regenerate the PNGs (after a deliberate change, then look at them) with
``.venv/bin/python -m tests.make_screens``.
"""

from __future__ import annotations

from collections.abc import Iterator

from firmware.display import screens
from firmware.display.render import Screen
from robinson_core import Game, HouseRules, play_script
from robinson_core.texts import LANGUAGES

NAMES = {1: "Ana", 2: "Ben", 3: "Cid"}
# Each script stops three players at a moment worth a screen (found with the engine).
MOMENTS = {
    "roll_result": "3",
    "shipwreck": "4",
    "pay_neighbour": "5 1 3 5",
    "decision_again": "5 2 6 6 2 6 6 6 3",
    "parrot": "6 5 1 5 6 6 6",
    "friday": "5 2 2 6 6 3 6 2 4 6 jump 5 2 2",
    "swap": "6 6 4 3 1 1 5 roll 6 6 4 4 roll 1 5 jump 5 2 5 6 5 6 6 3 3 2",
    "dead": "5 3 4 5 3 5 1 5 6 6 4 6 6 jump 3 1 4 3 6 6 4 5 5 5 1 6",
    "won_friday": "1 6 3 3 4 4 5 4 roll 1 1 4 4 1 5 jump roll 2 2 3 3 6 1 4 5 1 6",
}


def games() -> dict[str, Game]:
    seats = (1, 2, 3)
    return {name: play_script(Game(seats), script) for name, script in MOMENTS.items()}


def gallery() -> Iterator[tuple[str, Screen]]:
    for lang in LANGUAGES:
        w = screens.Words(lang, NAMES)
        yield f"{lang}-title", screens.title_screen(w, True)
        yield f"{lang}-setup", screens.setup_screen(w, (1, 2, 3), 2, HouseRules())
        yield f"{lang}-turn", screens.turn_screen(w, Game((1, 2, 3)).state)
        yield f"{lang}-rolling", screens.rolling_screen(w, 1, 5, 2)
        for name, game in games().items():
            yield f"{lang}-{name}", screens.result_screen(w, game)
        yield f"{lang}-menu", screens.menu_screen(w, [w("menu_back"), w("menu_undo"),
                                                    w("menu_standings")], 1)
