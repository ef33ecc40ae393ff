"""The menu as data: each row a label and what choosing it does, and a cursor over them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from firmware.display.words import Words


def _no_values() -> dict[str, object]:
    return {}


@dataclass(frozen=True)
class Row:
    """One line of the menu: its text key, what choosing it does, the label's values now."""

    key: str
    choose: Callable[[], None]
    values: Callable[[], dict[str, object]] = field(default=_no_values)


class Menu:
    """The rows in order and the cursor: a short press moves it, a long one chooses.

    >>> menu = Menu([Row("menu_back", lambda: print("back")), Row("menu_new", lambda: None)])
    >>> menu.move(); menu.move(); menu.choose()
    back
    """

    def __init__(self, rows: Sequence[Row]) -> None:
        self.rows = tuple(rows)
        self.index = 0

    def labels(self, words: Words) -> list[str]:
        return [words(row.key, **row.values()) for row in self.rows]

    def move(self) -> None:
        self.index = (self.index + 1) % len(self.rows)

    def choose(self) -> None:
        self.rows[self.index].choose()
