"""Every result of a game as the panel shows it, page by page, as text.

For translators and reviewers (read a whole game's screens without a Pi) and for
the glance checker: ``robinson replay … --pages [--display NAME[:WxH]] [--json]``.
The rows are exactly as drawn, after wrapping; the footer is the page's own (the
word for "more" while a press only turns the page).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from firmware.display import screens
from firmware.display.fonts import Fonts
from firmware.display.layout import Layout
from firmware.display.paging import Page, shown
from firmware.display.words import Words
from robinson_core import Game, Roll
from robinson_core import events as ev

KINDS = ("won", "out", "decision", "sat_out", "roll")
"""What a result was: a win, a death, a decision, a turn sat out, or a plain roll."""


def kind(game: Game) -> str:
    """The kind (``KINDS``) of ``game``'s last result."""
    events = game.events
    if any(isinstance(e, ev.Won) for e in events):
        return "won"
    if any(isinstance(e, ev.Eliminated) for e in events):
        return "out"
    if any(isinstance(e, ev.Decided) for e in events):
        return "decision"
    return "roll" if isinstance(game.actions[-1], Roll) else "sat_out"


def results(game: Game, lang: str, layout: Layout,
            names: dict[int, str] | None = None) -> Iterator[tuple[dict[str, Any], list[Page]]]:
    """Each action of ``game`` (its number, token and kind) and its result's pages."""
    fonts, words = Fonts(), Words(lang, names)
    played = Game(game.seats, game.first, game.rules)
    for number, action in enumerate(game.actions, start=1):
        played = played.play(action)
        yield ({"action": number, "token": action.token, "kind": kind(played)},
               shown(screens.result_screen(words, played), fonts, layout))


def as_json(head: dict[str, Any], pages: list[Page]) -> dict[str, Any]:
    """One result as ``--json`` prints it: the lines exactly as drawn."""
    drawn = [page.drawn() for page in pages]
    return {**head, "pages": [{"title": p.title, "lines": list(p.rows),
                               "footer": "\n".join(p.footer)} for p in drawn]}


def as_text(head: dict[str, Any], pages: list[Page]) -> list[str]:
    """One result's pages as plain lines: a head, then each page framed."""
    lines = [f"{head['action']}. {head['token']} ({head['kind']})"]
    for number, page in enumerate(pages, start=1):
        lines += ["  " + line for line in page.framed(number, len(pages))]
    return lines
