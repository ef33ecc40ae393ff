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
from firmware.display.fonts import NO_BREAK, Fonts
from firmware.display.layout import Layout
from firmware.display.render import shown
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
            names: dict[int, str] | None = None) -> Iterator[dict[str, Any]]:
    """Each action of ``game`` and the pages of its result on ``layout``."""
    fonts, words = Fonts(), Words(lang, names)
    played = Game(game.seats, game.first, game.rules)
    for number, action in enumerate(game.actions, start=1):
        played = played.play(action)
        pages = shown(screens.result_screen(words, played), fonts, layout)
        yield {"action": number, "token": action.token, "kind": kind(played),
               "pages": [{"title": _drawn(p.title), "lines": [_drawn(r) for r in p.rows],
                          "footer": _drawn("\n".join(p.footer))} for p in pages]}


def _drawn(text: str) -> str:
    """A text as the panel draws it: a no-break space is a space."""
    return text.replace(NO_BREAK, " ")


def as_text(screen: dict[str, Any]) -> list[str]:
    """One result's pages as plain lines: a head, then each page framed."""
    count = len(screen["pages"])
    lines = [f"{screen['action']}. {screen['token']} ({screen['kind']})"]
    for n, page in enumerate(screen["pages"], start=1):
        lines.append(f"  ┌ {page['title']}" + (f"   [{n}/{count}]" if count > 1 else ""))
        lines += [f"  │ {row}" for row in page["lines"]]
        lines += [f"  └ {row}" for row in page["footer"].split("\n") if row]
    return lines
