"""The table's state as one frozen value: which mode it is in and that mode's own data,
the game, the settings in force. Nothing drawn is kept: ``firmware.table.view`` draws
the screen from this, every time.

Each mode's data is a small value of its own (``Play``, ``Animate``, ``Menu``…), so a
mode's fields end with the mode, and a state that cannot be is not written down.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from firmware.config.settings import Config
from firmware.display.screen import Screen
from firmware.display.screens import PastGame
from firmware.display.words import Words
from firmware.saves.faults import Fault
from firmware.table.menu import Row
from firmware.table.messages import Code, Press, TimerKind
from firmware.table.prefs import Prefs
from firmware.table.writes import Writes
from robinson_core import CHOICES, Game

Measure = Callable[[Screen], tuple[int, int]]
"""A screen's page count and its last page with an essential line, on this panel."""


class Mode(enum.Enum):
    """What a press means now (each mode's data is the value of the same name)."""

    STUCK = "stuck"  # the button was down at start: waiting for it to be let go
    TITLE = "title"
    SETUP = "setup"
    PLAY = "play"
    ANIMATE = "animate"
    MENU = "menu"
    PHONES = "phones"  # the paired phones, listed from the menu: a long press forgets one
    UNDO = "undo"  # asking whether to undo
    ABANDON = "abandon"  # asking whether to put a game in progress away
    INFO = "info"  # standings, recall, about: any press goes back
    OFF = "off"  # switched off: the last frame says so


@dataclass(frozen=True)
class Notice:
    """A message in the table's words: a text key and its values, worded when drawn (so
    it reads in the language in force then)."""

    key: str
    values: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, key: str, **values: object) -> Notice:
        return cls(key, tuple(values.items()))

    def said(self, w: Words) -> str:
        """The message in ``w``'s language; a fault among its values named in it too."""
        return w(self.key, **{name: w(value.key) if isinstance(value, Fault) else value
                              for name, value in self.values})


@dataclass(frozen=True)
class Stuck:
    """The button was down at start: nothing until it is let go (then the title, with
    its ``notes``)."""

    MODE: ClassVar[Mode] = Mode.STUCK
    notes: tuple[Notice, ...] = ()


@dataclass(frozen=True)
class Title:
    """The title; ``notes`` are the problems to tell the table once, at start."""

    MODE: ClassVar[Mode] = Mode.TITLE
    notes: tuple[Notice, ...] = ()


@dataclass(frozen=True)
class Setup:
    """Who plays (the seats switched on) and who starts."""

    MODE: ClassVar[Mode] = Mode.SETUP


class Showing(enum.Enum):
    """What the play screen shows."""

    RESULT = "result"  # the last action's result
    ASK_NEXT = "ask_next"  # the result; a press shows the next decider's own screen
    TURN = "turn"  # whose turn it is, and their question


@dataclass(frozen=True)
class Play:
    """The game as it stands."""

    MODE: ClassVar[Mode] = Mode.PLAY
    showing: Showing = Showing.RESULT


@dataclass(frozen=True)
class Animate:
    """The die tumbling for ``roller``: ``frame`` of ``frames`` drawn."""

    MODE: ClassVar[Mode] = Mode.ANIMATE
    roller: int
    frame: int
    frames: int


@dataclass(frozen=True)
class Menu:
    """The menu, its cursor on ``row``."""

    MODE: ClassVar[Mode] = Mode.MENU
    row: int = 0


@dataclass(frozen=True)
class Phones:
    """The paired phones, newest first, then Forget all and Back (``firmware.table.menu``),
    the cursor on ``row``: listed from the menu's Phones row."""

    MODE: ClassVar[Mode] = Mode.PHONES
    row: int = 0


class Question(enum.Enum):
    """What the table asks before it does it; a no goes back to the row that asked."""

    UNDO = Row.UNDO
    ABANDON = Row.NEW


@dataclass(frozen=True)
class Asking:
    """A yes-or-no question; a no goes back to ``asked_from`` (the title or the menu)."""

    question: Question
    asked_from: Mode = Mode.MENU

    @property
    def MODE(self) -> Mode:  # the same name as the other modes' class constant
        return Mode.UNDO if self.question is Question.UNDO else Mode.ABANDON


@dataclass(frozen=True)
class Info:
    """A page chosen from the menu (standings, recall, about), or the standings a long
    press on the play screen shows (``from_play``); any press goes back."""

    MODE: ClassVar[Mode] = Mode.INFO
    row: Row
    finished: tuple[PastGame, ...] = ()  # recall: the newest games put away first
    last: Game | None = None  # recall with no game in play: the newest put away, whole
    from_play: bool = False  # a press goes back to the game, not to the menu


@dataclass(frozen=True)
class Off:
    """The table is switched off: the last frame says whether the game is on disk."""

    MODE: ClassVar[Mode] = Mode.OFF


Now = Stuck | Title | Setup | Play | Animate | Menu | Phones | Asking | Info | Off


TRIAL_FOR = 15  # seconds a phone's new panel stands unkept before the one before is back


@dataclass(frozen=True)
class Trial:
    """A phone's new panel on trial: ``config`` drives it (with the phone's ``changes``),
    and shows a test pattern; a press (or the phone) keeps it, else the panel in force
    before is back when TRIAL_FOR is up, as a screen's new resolution is."""

    changes: tuple[tuple[str, object], ...]
    config: Config


class Saver(enum.Enum):
    """The screen saver: a press that wakes the panel does nothing else."""

    AWAKE = "awake"
    DIM = "dim"
    BLANK = "blank"


@dataclass(frozen=True)
class Panel:
    """What the panel is at, whatever the mode: the page of its screen, how far it has
    been read, a message over it, the hint of a held button, and the screen saver."""

    page: int = 0  # of the screen on the panel
    seen: int = -1  # the furthest page of it that has been on the panel (-1: none yet)
    hint: Press | None = None  # the button is held past this: the footer says what letting go does
    flash: Notice | None = None  # a message over the mode's screen, for a while
    void: bool = False  # the press under way does nothing (it woke the panel, or began mid-roll)
    saver: Saver = Saver.AWAKE


class Waiting(enum.Enum):
    """An answer the table asked the shell for and has not had yet."""

    FACE = "face"  # the die's
    RECALL = "recall"  # the finished games, for the menu's recall
    BACK = "back"  # the game the store brings back
    CODE = "code"  # a pairing code, for a phone


@dataclass(frozen=True)
class Fixed:
    """What stays the same while the table runs."""

    config: Config
    measure: Measure = field(compare=False)
    lang: str | None = None  # asked for on the command line: over the saved preference
    animate: bool = True
    badge: str = ""
    seeded: bool = False  # a demo's die: the title says so
    version: str = ""
    saves: str = ""  # the state folder, for About
    fonts_missing: tuple[str, ...] = ()  # packages to install, for About and the title
    voice: bool | None = None  # --voice: on, over the saved preference and the config
    owner: str = ""  # the first boot's owner code: a phone pairs with it until one has


@dataclass(frozen=True)
class TableState:
    """Everything a press is read against."""

    fixed: Fixed
    now: Now = Title()
    game: Game | None = None
    prefs: Prefs = field(default_factory=Prefs)
    seats: tuple[int, ...] = ()  # switched on, as settled
    first: int | None = None  # the starting seat chosen in setup
    panel: Panel = field(default_factory=Panel)  # what the panel is at, over the mode
    audit: str | None = None  # what the last audit found wrong
    armed: frozenset[TimerKind] = frozenset()
    waiting: Waiting | None = None
    writes: Writes = field(default_factory=Writes)  # what the disk has not taken (writes.py)
    odds: tuple[Game, tuple[int, int]] | None = None  # a decision's chances, for its game
    weighing: Game | None = None  # the game whose decision's odds were last asked for
    pairing: Code | None = None  # the code on the panel for a phone to pair with
    address: str = ""  # where the companion page answers, as it said ("": not running)
    trial: Trial | None = None  # a phone's panel on trial, over every mode

    @property
    def mode(self) -> Mode:
        return self.now.MODE

    @property
    def deciding(self) -> bool:
        """The screen asks one of the game's decisions (a press takes it; odds are shown)."""
        game = self.game
        return (game is not None and game.state.pending in CHOICES
                and isinstance(self.now, Play))

    @property
    def ask_next(self) -> bool:
        """A press shows the decision screen of the next player, headed by them."""
        return self.now == Play(Showing.ASK_NEXT)

