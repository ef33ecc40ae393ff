"""The machine alone, stepped as the shell steps it (``Machine``: the die's faces and the
disk's answers given back after the effects), and the games and tables the rules' tests
start from. No rig, no clock: microseconds a test."""

from __future__ import annotations

import dataclasses
import datetime
import random
from collections.abc import Callable, Iterable
from typing import Any

from firmware.config.settings import Config, TableOptions
from firmware.display import screens
from firmware.display.screen import Screen
from firmware.saves.faults import Fault
from firmware.table import machine as m
from firmware.table import messages as msg
from firmware.table.menu import MENU, Row
from firmware.table.messages import Press, TimerKind
from firmware.table.state import Fixed, Menu, Mode
from firmware.table.view import view, words
from robinson_core import Game, HouseRules, Pending, Roll, Square4

CONFIG = Config()
T = CONFIG.timings
VOICE_OFF = {"voice": "off", "story": "off", "odds": "off", "volume": "100",  # a table that
             "speed": "185"}  # does not speak, at the config's loudness and speed


def one_page(screen: Screen) -> tuple[int, int]:
    return 1, 0


class Machine:
    """The machine, with a die that shows ``faces`` and a disk that takes every write
    (or none: ``disk_ok``), answered as the shell answers: after the effects' list."""

    def __init__(self, *, config: Config = CONFIG,
                 measure: Callable[[Screen], tuple[int, int]] = one_page,
                 faces: Iterable[int] = (), **fixed: Any) -> None:
        self.state = m.initial(Fixed(config, measure, **fixed))
        self.faces = list(faces)
        self.disk_ok = True
        self.refusal: Fault | None = Fault.DISK_FULL  # why the disk refuses, when it does

    def __call__(self, *events: msg.Input) -> list[msg.Effect]:
        out: list[msg.Effect] = []
        for event in events:
            for _, state, effects in m.run(self.state, event, self.answer):
                self.state = state
                out += effects
        return out

    def answer(self, effect: msg.Effect) -> msg.Input | None:
        if isinstance(effect, msg.NeedFace):
            return msg.Face(self.faces.pop(0))
        if isinstance(effect, msg.WRITES):
            return msg.Wrote(self.disk_ok, None if self.disk_ok else self.refusal)
        return None

    @property
    def w(self) -> Any:
        return words(self.state)

    @property
    def screen(self) -> Screen:
        """What the panel shows now: the view of the state."""
        return view(self.state)

    def press(self, kind: Press = Press.SHORT) -> list[msg.Effect]:
        return self(msg.Pressed(kind))

    def fire(self, kind: TimerKind) -> list[msg.Effect]:
        return self(msg.TimerFired(kind))


def started(game: Game | None = None, seats: tuple[int, ...] = (1, 2), **kw: Any) -> Machine:
    table = Machine(**kw)
    table(msg.Start(game), msg.Wired(seats))
    return table


def playing(game: Game, **kw: Any) -> Machine:
    """A table at ``game``, in play (resumed from the title)."""
    table = started(game, game.seats, **kw)
    table.press()
    assert table.state.mode is Mode.PLAY
    return table


def row_of(table: Machine) -> int:
    """The menu's cursor."""
    assert isinstance(table.state.now, Menu), table.state.now
    return table.state.now.row


def kept(effects: list[msg.Effect]) -> list[dict[str, str]]:
    """The prefs each SavePrefs keeps, as the store keeps them."""
    return [e.prefs.as_strings() for e in effects if isinstance(e, msg.SavePrefs)]


def draws(effects: list[msg.Effect]) -> list[msg.Draw]:
    return [e for e in effects if isinstance(e, msg.Draw)]


def of(kind: type, effects: list[msg.Effect]) -> list[Any]:
    return [e for e in effects if isinstance(e, kind)]


def game_where(found: Callable[[Game], bool], seats: tuple[int, ...] = (1, 2),
               seed: int = 1, rules: HouseRules | None = None) -> Game:
    """The first game of random play (from ``seed``) at which ``found`` holds."""
    rng = random.Random(seed)
    for _ in range(400):
        game = Game(seats, seats[0], rules or HouseRules())
        for _ in range(300):
            if found(game):
                return game
            if game.state.pending is Pending.OVER:
                break
            game = game.play(rng.choice(game.state.legal_actions()))
    raise AssertionError("no game found")


def rolled_into(event: type) -> Game:
    """A game whose last action is a roll that caused ``event``."""
    return game_where(lambda g: bool(g.actions) and isinstance(g.actions[-1], Roll)
                      and any(isinstance(e, event) for e in g.events))


def pending(kind: Pending) -> Game:
    """A game waiting on a decision of ``kind`` by the player who just moved (on 4 under
    house rule square_4 = ask)."""
    return game_where(lambda g: g.state.pending is kind and bool(g.actions)
                      and screens.decider(g.state) == screens.mover(g),
                      rules=HouseRules(square_4=Square4.ASK) if kind is Pending.WRECK else None)


FRESH = Game((1, 2), 1)
MOVED = FRESH.play(Roll(3)).play(Roll(4))
MOVER = MOVED.state.to_move or 0  # who rolls next in MOVED


def abandon_screen(table: Machine) -> Screen:
    w = table.w
    return Screen(title=w("abandon_title"), body=(w("abandon_what"),), footer=w("keys_yes_no"))


def unsaved(table: Machine, screen: Screen) -> Screen:
    """``screen`` with the badge that says the game is not on disk."""
    return dataclasses.replace(screen, badge=table.w("unsaved_badge"))


def writes(effects: list[msg.Effect]) -> list[msg.Effect]:
    return [e for e in effects if isinstance(e, msg.WRITES)]


def to_row(table: Machine, row: Row) -> None:
    """The menu opened and its cursor moved to ``row``."""
    table.press(Press.MENU)
    for _ in range(MENU.index(row)):
        table.press()


def menu_at(table: Machine, row: Row) -> list[msg.Effect]:
    to_row(table, row)
    return table.press(Press.LONG)


@dataclasses.dataclass(frozen=True)
class Old:
    ended: str = "abandoned"
    finished_at: datetime.datetime | None = None
    winner: int | None = None


def _in_every_mode() -> Iterable[tuple[str, Machine]]:
    """A table brought into each mode (and under a message), by presses alone."""
    stuck = Machine()
    stuck(msg.Start(MOVED), msg.Wired((1, 2), stuck=True))
    yield "stuck", stuck
    yield "title", started(MOVED)
    setup = started()
    setup.fire(TimerKind.BOOT)
    yield "setup", setup
    yield "play: the result", playing(MOVED)
    decider = playing(game_where(lambda g: (who := screens.decider(g.state)) is not None
                                 and who != screens.mover(g) and bool(g.actions)))
    decider.press()
    yield "play: whose turn", decider
    rolling = playing(MOVED, faces=[4])
    rolling.press()
    yield "animate", rolling
    menu = playing(MOVED)
    menu.press(Press.MENU)
    yield "menu", menu
    for row in (Row.UNDO, Row.NEW, Row.STANDINGS, Row.ABOUT, Row.RECALL):
        table = playing(MOVED)
        menu_at(table, row)
        if row is Row.RECALL:
            table(msg.Recalled((Old(),)))
        yield f"menu: {row.name}", table
    flashed = playing(MOVED)
    flashed(msg.SeatsChanged(3, True, (1, 2, 3)))
    yield "a message over play", flashed
    off = playing(MOVED)
    off(msg.Stop())
    yield "off", off


def said(effects: list[msg.Effect]) -> list[str]:
    return [e.text for e in of(msg.Say, effects)]


def turned(table: Machine) -> None:
    """The screen shown turned to its second page, and that page seen (the new screen
    must then be at its first page, only that one seen: page 0, seen 0)."""
    table.state = dataclasses.replace(
        table.state, panel=dataclasses.replace(table.state.panel, page=1, seen=1))


ODDS_ON = Config(table=TableOptions(odds=True))
PHONE_A, PHONE_B, PHONE_C = "a" * 64, "b" * 64, "c" * 64


def three_phones() -> Machine:
    """A game in play with phones A, B and C paired, in that order, on days 20000-20002."""
    table = playing(MOVED)
    table(msg.Address("http://robinson.local/"))
    for day, (phone, kind) in enumerate(((PHONE_A, "Chrome/Android"), (PHONE_B, "Safari/iPhone"),
                                         (PHONE_C, ""))):
        table(msg.PairAsked(), msg.Code("123456", "t"), msg.Paired("t", phone, kind, 20000 + day))
        table.press()  # the "paired" message away (a press that only ends it)
    assert table.state.prefs.digests == (PHONE_A, PHONE_B, PHONE_C)
    return table


def listed(table: Machine) -> tuple[list[str], int]:
    """The phones list as the panel shows it: its rows (the cursor's marked) and cursor."""
    assert table.state.mode is Mode.PHONES, table.state.now
    screen = view(table.state)
    return list(screen.body), screen.cursor
