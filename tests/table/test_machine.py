"""The table's interaction rules as properties of ``step``: thousands of random press,
switch and timer sequences, no rig, no clock, no disk.

The world here plays the shell's part as values: it answers the die and the disk,
fires only timers that are armed (in any order: harsher than a clock), and keeps
every effect in order. Each checker returns what it found wrong and counts what it
compared; the self-checks at the end break the machine on purpose and expect a find.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from firmware.config.settings import Config, Timings
from firmware.display import screens
from firmware.display.fonts import Fonts
from firmware.display.layout import CLASSIC, Layout
from firmware.display.paging import essential_page, page_count
from firmware.display.screen import Screen
from firmware.saves.faults import Fault
from firmware.shell.buttons import Press
from firmware.table import machine as m
from firmware.table import menus, panel, phones
from firmware.table import messages as msg
from firmware.table import play as play_room
from firmware.table.menu import MENU, Row
from firmware.table.moment import Moment as Step
from firmware.table.prefs import Owed
from firmware.table.state import Fixed, Mode, TableState
from firmware.table.view import view, words
from robinson_core import Game, Pending, Roll

FONTS = Fonts()
CONFIG = Config(timings=Timings(animation=0.24))
_measured: dict[tuple[Layout, Screen], tuple[int, int]] = {}
STRIP = Layout(128, 32)  # two rows a page: results whose consequences run past page 1


def measure_on(layout: Layout) -> Callable[[Screen], tuple[int, int]]:
    """The real page count and essential page on this panel."""
    def measure(screen: Screen) -> tuple[int, int]:
        if (layout, screen) not in _measured:
            _measured[layout, screen] = (page_count(screen, FONTS, layout),
                                         essential_page(screen, FONTS, layout))
        return _measured[layout, screen]
    return measure


measure = measure_on(CLASSIC)


@dataclasses.dataclass
class Moment:
    """One input and what it did."""

    before: TableState
    event: msg.Input
    effects: list[msg.Effect]
    after: TableState
    cause: int  # which outer input (a press, a timer…) this answer belongs to
    cause_before: TableState  # the table before that input
    disk: Game | None  # the game in play on the World's disk, the writes answered so far


class World:
    """The shell's part: the die, the disk, the timers; every step kept. The disk keeps
    the games put away unfinished (the newest is brought back) and the preferences (a
    restart starts with them; they are kept even while the games' writes are refused,
    as a real store may)."""

    def __init__(self, state: TableState, faces: random.Random, failing: bool) -> None:
        self.state = state
        self.faces = faces
        self.failing = failing  # the disk refuses now and then
        self.moments: list[Moment] = []
        self.disk: Game | None = None  # what the writes it took put in play
        self.away: list[Game] = []  # games put away unfinished, the newest last
        self.kept: tuple[tuple[str, str], ...] = ()  # the preferences kept

    def take(self, event: msg.Input) -> None:
        cause, cause_before = len(self.moments), self.state
        if isinstance(event, msg.Start):
            self.disk = event.game
        for current, after, effects in m.run(self.state, event, self.answer):
            self.moments.append(Moment(self.state, current, effects, after, cause,
                                       cause_before, self.disk))
            self.state = after

    def answer(self, effect: msg.Effect) -> msg.Input | None:
        if isinstance(effect, msg.NeedFace):
            return msg.Face(self.faces.randint(1, 6))
        if isinstance(effect, msg.WRITES):
            ok = not (self.failing and self.faces.random() < 0.2)
            if ok and isinstance(effect, msg.PutAway):
                self._put_away(effect.game)
                self.disk = effect.then
            elif ok:
                self.disk = effect.game
            return msg.Wrote(ok, None if ok else Fault.DISK_FULL)
        if isinstance(effect, msg.SavePrefs):
            self.kept = tuple(effect.prefs.as_strings().items())
        if isinstance(effect, msg.NeedRecall):
            return msg.Recalled(())
        if isinstance(effect, msg.NeedCode):
            return msg.Code(f"{self.faces.randrange(10 ** 6):06d}", f"t{self.faces.random()}")
        if isinstance(effect, msg.BringBack):
            if not self.away:
                return msg.Brought(None)
            brought = self.away.pop()
            if self.disk is not None:
                self._put_away(self.disk)
            self.disk = brought
            return msg.Brought(brought)
        return None

    def _put_away(self, game: Game) -> None:
        if game.actions and game.state.pending is not Pending.OVER:  # as the store does
            self.away.append(game)

    def restart(self) -> None:
        """The plug pulled and put back: a new process, from what the disk holds."""
        seats = self.state.seats  # the switches as they are
        self.take(msg.Stop())
        self.state = m.initial(self.state.fixed)
        self.take(msg.Start(self.disk, prefs=self.kept))
        self.take(msg.Wired(seats))


def midgame(rng: random.Random, seats: tuple[int, ...]) -> Game:
    """A game some way in (a win or a decision now and then)."""
    game = Game(seats, seats[0])
    for _ in range(rng.randrange(0, 120)):
        if game.state.pending is Pending.OVER:
            break
        game = game.play(rng.choice(game.state.legal_actions()))
    return game


INPUTS = ("short", "long", "menu", "short", "short", "long", "seat", "timer", "timer",
          "timer", "down", "held", "pressed", "undo", "stray", "undo", "new", "bring back",
          "restart", "a phone")
PHONE = ("phone", "pair", "paired", "guess", "address", "repeat", "forget")
"""What a phone (or the menu's rows for phones) does: one kind of input among the others,
drawn as often as one, so the button's own play keeps its share."""
ROWS = {"undo": Row.UNDO, "new": Row.NEW, "bring back": Row.BRING_BACK,  # the menu's
        "phone": Row.PHONE, "forget": Row.PHONES}
STRAYS = (msg.Face(6), msg.Recalled(()), msg.Brought(None), msg.Code("123456", "t"))  # unasked
STRAYS_KINDS = (msg.Face, msg.Recalled, msg.Brought, msg.Code)
PAGE = "http://robinson.local/"


def play(data: st.DataObject, failing: bool = False, steps: int = 80,
         crashed: list[BaseException] | None = None,
         inputs: tuple[str, ...] = INPUTS) -> World:
    """A table from a random start, then ``steps`` random inputs. With ``crashed``, a
    machine that raises (a broken one, in the self-checks) ends the play there, the
    moments up to it kept for the properties to judge."""
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    seats = tuple(sorted(rng.sample(range(1, 7), rng.randint(0, 5))))
    game = midgame(rng, seats) if len(seats) >= 2 and rng.random() < 0.7 else None
    panel = measure_on(STRIP if rng.random() < 0.5 else CLASSIC)
    world = World(m.initial(Fixed(CONFIG, panel)), rng, failing)
    try:
        world.take(msg.Start(game))
        world.take(msg.Wired(seats, stuck=rng.random() < 0.05))
        _inputs(world, data, rng, steps, inputs)
        if rng.random() < 0.5:  # switched off: the last frame, after the last try
            world.take(msg.Stop())
    except Exception as error:  # a broken machine's own failure: judged by what came before
        if crashed is None:
            raise
        crashed.append(error)
    return world


def _inputs(world: World, data: st.DataObject, rng: random.Random, steps: int,
            inputs: tuple[str, ...]) -> None:
    for _ in range(steps):
        kind = data.draw(st.sampled_from(inputs), label="input")
        if kind == "a phone":
            kind = data.draw(st.sampled_from(PHONE), label="phone")
        if kind in ROWS:  # the menu, its row, chosen (undo, new: a question, said yes to)
            world.take(msg.Pressed(Press.MENU))
            for _ in range(MENU.index(ROWS[kind])):
                world.take(msg.Pressed(Press.SHORT))
            world.take(msg.Pressed(Press.LONG))
            if kind in ("undo", "new") and data.draw(st.booleans(), label="yes"):
                world.take(msg.Pressed(Press.LONG))
            if kind == "forget" and world.state.mode is Mode.PHONES:  # the phones listed
                for _ in range(data.draw(st.integers(0, 3), label="down the list")):
                    world.take(msg.Pressed(Press.SHORT))
                world.take(msg.Pressed(Press.LONG))  # one forgotten, all, or back
        elif kind == "restart":
            world.restart()
        elif kind in ("short", "long", "menu"):  # a whole press, as the button reports it
            press = Press(kind)
            world.take(msg.Down())
            if press is not Press.SHORT:
                world.take(msg.Held(Press.LONG))
            if press is Press.MENU:
                world.take(msg.Held(Press.MENU))
            world.take(msg.Pressed(press))
        elif kind == "seat":
            seat = rng.randint(1, 6)
            now = set(world.state.seats) ^ {seat}
            world.take(msg.SeatsChanged(seat, seat in now, tuple(sorted(now))))
        elif kind == "timer":
            armed = sorted(world.state.armed, key=lambda k: k.value)
            if armed:
                world.take(msg.TimerFired(rng.choice(armed)))
        elif kind == "down":
            world.take(msg.Down())
        elif kind == "held":
            world.take(msg.Held(rng.choice((Press.LONG, Press.MENU))))
        elif kind == "stray":
            world.take(rng.choice(STRAYS))
        elif kind == "pair":  # the page asks for a code (it says where it is, now and then)
            world.take(msg.PairAsked())
        elif kind == "address":
            world.take(msg.Address(rng.choice((PAGE, ""))))
        elif kind == "paired":  # a phone gives the code on the panel back, or its token
            pairing = world.state.pairing
            proof = rng.choice((pairing.digits, pairing.token)) if pairing else "000000"
            world.take(msg.Paired(proof, f"{rng.getrandbits(256):064x}"))
        elif kind == "guess":  # a phone guesses
            world.take(msg.Paired(f"{rng.randrange(10 ** 6):06d}", f"{rng.getrandbits(256):064x}"))
        elif kind == "repeat":
            world.take(msg.Repeat())
        else:
            world.take(msg.Pressed(rng.choice(tuple(Press))))


# -- the properties: each returns (what was wrong, how many cases it compared) -----------


def _shown(screen: Screen) -> tuple[str, tuple[str, ...]]:
    """A screen without its footer (a held button's hint replaces the footer)."""
    return screen.title, screen.body


def saved_before_shown(world: World) -> tuple[list[str], int]:
    """A result (or the decision it asks) is drawn only once its game went to the disk,
    or, while the disk refuses, with the badge that says it is not saved."""
    wrong, compared, on_disk, moved = [], 0, None, None
    reveals: dict[tuple[int, int], set[tuple[str, tuple[str, ...]]]] = {}

    def reveal(state: TableState, game: Game) -> set[tuple[str, tuple[str, ...]]]:
        """The screens that reveal ``game``'s last action, once per game and prefs (the
        moments hold every state, so an identity is never reused; drawing them at every
        moment was a third of this test's time)."""
        key = (id(game), id(state.prefs))
        if key not in reveals:
            w = words(state)
            reveals[key] = {_shown(screens.result_screen(w, game)),
                            _shown(screens.turn_screen(w, game.state))}
        return reveals[key]

    for moment in world.moments:
        if isinstance(moment.event, msg.Start):
            on_disk = moment.event.game  # what the disk gave
        elif isinstance(moment.event, msg.Brought) and moment.event.game is not None:
            on_disk = moment.event.game  # what the store brought back and put in play
        elif (isinstance(moment.event, msg.Wrote) and not moment.event.ok
              and moved is not None):
            on_disk = moved.game  # the disk refused to put it away: it is still in play
        moved = None
        game = moment.after.game
        for effect in moment.effects:
            if isinstance(effect, msg.Save | msg.BeginGame):
                on_disk = effect.game
            elif isinstance(effect, msg.PutAway):
                on_disk, moved = effect.then, effect
            elif (isinstance(effect, msg.Draw) and game is not None and game.actions
                  and _shown(effect.screen) in reveal(moment.after, game)):
                compared += 1
                unsaved = moment.after.writes.failing is not None and effect.screen.badge == \
                    words(moment.after)("unsaved_badge")
                if on_disk != game and not unsaved:
                    wrong.append(f"{effect.screen.title!r} shown before it was saved")
    return wrong, compared


def saved_means_on_disk(world: World) -> tuple[list[str], int]:
    """Once an input's answers are in, the table waits on no write only when the disk
    holds its game; while one waits, it is tried again on a timer (never once off), and
    the last frame says "saved" only when nothing waits."""
    wrong, compared, moments = [], 0, world.moments
    for i, moment in enumerate(moments):
        if i + 1 < len(moments) and moments[i + 1].cause == moment.cause:
            continue  # an answer is still to come
        after = moment.after
        compared += 1
        if not after.writes.unsaved and moment.disk != after.game:
            wrong.append(f"nothing waits for the disk after {moment.event}, but it holds "
                         f"{moment.disk and len(moment.disk.actions)} actions, not "
                         f"{after.game and len(after.game.actions)}")
        retrying = bool(after.writes.unsaved) and after.mode is not Mode.OFF
        if (msg.TimerKind.RETRY in after.armed) != retrying:
            wrong.append(f"{len(after.writes.unsaved)} writes waiting, the retry "
                         f"{'armed' if msg.TimerKind.RETRY in after.armed else 'not'} "
                         f"in {after.mode} after {moment.event}")
        if after.mode is Mode.OFF:
            saved = view(after).body == screens.message_screen(
                "ROBINSON", words(after)("switched_off")).body
            if saved != (not after.writes.unsaved):
                wrong.append(f"the last frame says {view(after).body} with "
                             f"{len(after.writes.unsaved)} writes waiting")
    return wrong, compared


def saved_games_are_the_engines(world: World) -> tuple[list[str], int]:
    """Every game saved is one the engine played: it replays to itself, and, but while
    the disk refuses (a try again, or the changes meanwhile as one), it is the game
    before it with one or two actions more (a roll after a choice) or one fewer."""
    wrong, compared, before = [], 0, None
    for moment in world.moments:
        if isinstance(moment.event, msg.Start | msg.Brought):
            before = None  # another game in play (a restart, a bring-back)
        for effect in moment.effects:
            if isinstance(effect, msg.PutAway | msg.BeginGame):
                before = None
            if not isinstance(effect, msg.Save):
                continue
            compared += 1
            game = effect.game
            replayed = Game(game.seats, game.first, game.rules)
            for action in game.actions:
                replayed = replayed.play(action)
            if replayed != game:
                wrong.append(f"saved game does not replay: {game.actions[-3:]}")
            if (before is not None and before.seats == game.seats
                    and moment.before.writes.failing is None):  # else a try again, or joined
                more = len(game.actions) - len(before.actions)
                if more not in (-1, 1, 2):
                    wrong.append(f"saved {more:+d} actions at once")
            before = game
    return wrong, compared


def money_seen_before_the_next_action(world: World) -> tuple[list[str], int]:
    """No press moves the game on while a page of its last result holding money or an
    instruction has not been on the panel."""
    wrong, compared, checked = [], 0, set()
    drawn: dict[tuple[str, tuple[str, ...]], set[int]] = {}
    for moment in world.moments:
        game = moment.cause_before.game
        pressed = isinstance(world.moments[moment.cause].event, msg.Pressed)
        for effect in moment.effects:
            if isinstance(effect, msg.Draw):
                drawn.setdefault(_shown(effect.screen), set()).add(effect.page)
            elif (isinstance(effect, msg.Save) and pressed and moment.cause not in checked
                  and game is not None and game.actions
                  and len(effect.game.actions) > len(game.actions)):
                checked.add(moment.cause)  # the press's first save: "roll" on 7 rolls too
                result = screens.result_screen(words(moment.cause_before), game)
                pages, last = moment.cause_before.fixed.measure(result)
                need = set(range(last + 1))
                compared += 1
                seen = {p % pages for p in drawn.get(_shown(result), set())}
                if not need <= seen:
                    wrong.append(f"{result.title!r}: pages {sorted(need - seen)} never shown")
    return wrong, compared


def undo_asked_first(world: World) -> tuple[list[str], int]:
    """An action is taken back only by a long press on the undo question."""
    wrong, compared = [], 0
    for moment in world.moments:
        game = moment.before.game
        for effect in moment.effects:
            if (isinstance(effect, msg.Save) and game is not None
                    and len(effect.game.actions) < len(game.actions)):
                compared += 1
                asked = (moment.before.mode is Mode.UNDO
                         and view(moment.before).title == words(moment.before)("undo_title")
                         and moment.event == msg.Pressed(Press.LONG))
                if not asked:
                    wrong.append(f"undone by {moment.event} in {moment.before.mode} under "
                                 f"{view(moment.before).title!r} {moment.before.panel.flash}")
    return wrong, compared


MODE_TIMERS = {msg.TimerKind.FRAME: {Mode.ANIMATE},
               msg.TimerKind.REVEAL: {Mode.ANIMATE}, msg.TimerKind.BOOT: {Mode.TITLE},
               msg.TimerKind.SAVE_FAILED: set(Mode) - {Mode.ANIMATE}}
"""Timers that belong to a mode: never armed once it has ended (a write's failure is
never said over the tumbling die: it would be painted over, or come back after it)."""


def timers_end_with_their_mode(world: World) -> tuple[list[str], int]:
    """The mode's timers end with it, and a message's timer with the message: a screen
    never outlives its moment."""
    wrong, compared = [], 0
    for moment in world.moments:
        after = moment.after
        for kind, modes in MODE_TIMERS.items():
            if kind in after.armed:
                compared += 1
                if after.mode not in modes:
                    wrong.append(f"{kind} armed in {after.mode} after {moment.event}")
        compared += 1
        if (msg.TimerKind.PAIR in after.armed) != (after.pairing is not None):
            wrong.append(f"the code {after.pairing} and its timer part after {moment.event}")
        compared += 1
        if (msg.TimerKind.FLASH in after.armed) != (after.panel.flash is not None):
            wrong.append(f"the message {after.panel.flash} and its timer part after {moment.event}")
    return wrong, compared


def answers_only_when_asked(world: World) -> tuple[list[str], int]:
    """An answer (the die's, the store's) is taken only when the table asked for it, and
    once every answer to an input is in, the table waits for none."""
    wrong, compared = [], 0
    moments = world.moments
    for i, moment in enumerate(moments):
        if moment.cause == i and isinstance(moment.event, STRAYS_KINDS):  # nobody asked
            compared += 1
            if moment.effects or moment.after != moment.before:
                wrong.append(f"{moment.event} taken unasked in {moment.before.mode}")
        if i + 1 == len(moments) or moments[i + 1].cause != moment.cause:  # all answers in
            compared += 1
            if moment.after.waiting is not None:
                wrong.append(f"still waiting for {moment.after.waiting} after {moment.event}")
    return wrong, compared


def phones_only_by_the_code(world: World) -> tuple[list[str], int]:
    """A phone is paired only by the code (or its token) on the panel then, each code
    once; nothing else adds one."""
    wrong, compared = [], 0
    ever: set[str] = set()  # a restart brings back only phones paired before it
    for moment in world.moments:
        added = set(moment.after.prefs.digests) - set(moment.before.prefs.digests)
        if isinstance(moment.event, msg.Start):
            compared += bool(added)
            wrong += [f"a restart brought {phone}, never paired" for phone in added - ever]
        elif isinstance(moment.event, msg.Paired):
            compared += 1
            pairing = moment.before.pairing
            given = pairing is not None and moment.event.proof in (pairing.digits,
                                                                   pairing.token)
            if added and not given:
                wrong.append(f"{moment.event.proof} paired a phone; the panel showed {pairing}")
            if given and moment.after.pairing is not None:
                wrong.append(f"the code {pairing} stayed once used")
        elif added:
            compared += 1
            wrong.append(f"{moment.event} paired a phone")
        ever |= added
    return wrong, compared


def throws(world: World) -> tuple[list[str], int, int]:
    """An undo never buys a new throw: once a roll is taken back, the next roll from that
    very position (its game, or one begun alike, whatever came between: a new game, a
    put-away, a bring-back, a restart) shows the same face. Also how many of those
    rolls came after another game had been in play, or the table restarted."""
    wrong, compared, across, switches = [], 0, 0, 0
    owed: dict[tuple[object, ...], tuple[int, int]] = {}  # a position -> its face, when
    for moment in world.moments:
        before, after = moment.before.game, moment.after.game
        came_back = isinstance(moment.event, msg.Start | msg.Brought)
        if came_back or (
                before is not None and after is not None and before.seats != after.seats):
            switches += 1
        if came_back:
            continue  # a game comes back: nothing rolled or taken back (a game put away
            # with a first roll alike the one in play was once read as an undo of the rest)
        if (before is None or after is None
                or (before.seats, before.first, before.rules)
                != (after.seats, after.first, after.rules)):
            continue  # no game, or another game: nothing rolled or taken back here
        setup, was, now = (after.seats, after.first, after.rules), before.actions, after.actions
        if len(now) < len(was) and was[:len(now)] == now:  # taken back
            for i in range(len(now), len(was)):
                if isinstance(undone := was[i], Roll):
                    owed[(*setup, was[:i])] = (undone.face, switches)
        elif len(now) > len(was) and now[:len(was)] == was:  # moved on
            for i in range(len(was), len(now)):
                if isinstance(roll := now[i], Roll) and (at := (*setup, now[:i])) in owed:
                    (face, then), compared = owed.pop(at), compared + 1
                    across += switches > then
                    if roll.face != face:
                        wrong.append(f"a {face} taken back at action {i} came again as a "
                                     f"{roll.face} after {moment.event}")
    return wrong, compared, across


def no_throw_bought(world: World) -> tuple[list[str], int]:
    wrong, compared, _ = throws(world)
    return wrong, compared


def no_throw_bought_across(world: World) -> tuple[list[str], int]:
    """The same rolls, counted where another game or a restart came between (their
    wrongs are no_throw_bought's)."""
    return [], throws(world)[2]


PROPERTIES: dict[str, Callable[[World], tuple[list[str], int]]] = {
    "saved before shown": saved_before_shown,
    "saved means on disk": saved_means_on_disk,
    "saved games are the engine's": saved_games_are_the_engines,
    "money seen before the next action": money_seen_before_the_next_action,
    "undo asked first": undo_asked_first,
    "timers end with their mode": timers_end_with_their_mode,
    "answers only when asked": answers_only_when_asked,
    "no throw bought": no_throw_bought,
    "no throw bought, another game or a restart between": no_throw_bought_across,
    "phones only by the code": phones_only_by_the_code,
}
COUNTS: dict[str, int] = dict.fromkeys(PROPERTIES, 0)


# A mutation run (tools/mutate_machine.py) needs a find, not its smallest form: shrinking
# a broken machine's failure took minutes a mutant.
HUNT = 600
"""Random plays a broken machine is hunted over (each hunt stops at its first find): the
put-away that forgets the owed faces needs an undo, a new game, a bring-back and a roll
in one play, found at play 300-odd once the phones' inputs joined."""
FIND_ONLY = [Phase.generate] if os.environ.get("ROBINSON_MUTANT") else list(Phase)


@settings(max_examples=400, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck), phases=FIND_ONLY)
@given(st.data())
def test_the_table_keeps_its_promises_over_random_play(data: st.DataObject) -> None:
    world = play(data, failing=data.draw(st.booleans(), label="failing disk"))
    for name, check in PROPERTIES.items():
        wrong, compared = check(world)
        COUNTS[name] += compared
        assert wrong == [], name


class Drawn:
    """A play's draws given in order (``play`` takes them as from Hypothesis)."""

    def __init__(self, *values: object) -> None:
        self.values = list(values)

    def draw(self, strategy: object, label: str | None = None) -> Any:
        return self.values.pop(0)


def test_a_game_brought_back_is_no_undo_of_the_one_it_replaces() -> None:
    """A CI run's random play: a game of 90 actions put away, a new one at the same seats
    whose first roll was the same 6, and that one brought back over the other. The
    properties read the 89 actions gone as taken back, and the next roll (a 2 where
    the put-away game had a 4) as a throw bought. A game coming back is not an undo."""
    data = Drawn(False, 73419867, "short", "pressed", *["short"] * 5, "long", "timer",
                 "short", "long", "long", "long", "seat", "held", *["short"] * 60,
                 "restart", "bring back", "bring back", "short", "short")
    world = play(cast(st.DataObject, data), failing=bool(data.draw(None)))
    assert data.values == []
    swapped = [moment for moment in world.moments if isinstance(moment.event, msg.Brought)
               and moment.before.game is not None and moment.after.game is not None
               and len(moment.before.game.actions) == 90
               and moment.after.game.actions == moment.before.game.actions[:1]]
    assert len(swapped) == 1  # the case itself
    rolled = [moment for moment in world.moments[world.moments.index(swapped[0]):]
              if isinstance(moment.event, msg.Face)]
    assert [moment.event for moment in rolled] == [msg.Face(2)]  # the roll after it
    assert no_throw_bought(world) == ([], 0)


def test_the_properties_compared_thousands_of_cases() -> None:
    """Runs after the random play above (file order): each property met real cases."""
    if not any(COUNTS.values()):
        pytest.skip("run with the property test before it")
    print(COUNTS)
    # The play is derandomized: the same 250 sequences each run (613, 390, 147, 31 and
    # 25,546 cases compared when this was written; with issue 22's pages, a result
    # has fewer pages and fewer quick presses meet one: 478-496, 388-393, 145-156, 23-24).
    assert COUNTS["saved before shown"] >= 400, COUNTS
    assert COUNTS["saved games are the engine's"] >= 300, COUNTS
    assert COUNTS["money seen before the next action"] >= 120, COUNTS
    assert COUNTS["undo asked first"] >= 18, COUNTS
    assert COUNTS["timers end with their mode"] >= 20000, COUNTS
    assert COUNTS["answers only when asked"] >= 10000, COUNTS
    assert COUNTS["no throw bought"] >= 100, COUNTS
    assert COUNTS["no throw bought, another game or a restart between"] >= 10, COUNTS
    assert COUNTS["phones only by the code"] >= 100, COUNTS


# -- self-checks: a broken machine is caught -------------------------------------------


ROOMS: tuple[Any, ...] = (Step, m, play_room, menus, phones)
"""Where a step's part lives: the moment's own methods, then each room's functions."""


@contextmanager
def broken(name: str, replacement: Callable[..., Any]) -> Iterator[None]:
    home = next(room for room in ROOMS if hasattr(room, name))
    original = getattr(home, name)
    setattr(home, name, replacement)
    try:
        yield
    finally:
        setattr(home, name, original)


def _show_then_save(self: Step, game: Game) -> None:
    self.set(game=game)
    play_room.show_result(self)
    self.draw_now()
    self.do(msg.Save(game))


def _undo_without_asking(self: Step) -> None:
    game = self.state.game
    if game is not None and game.actions:
        play_room.commit(self, game.undo())
    play_room.resume(self)


def _reveal_keeping_the_tumble(self: Step) -> None:
    self.set(armed=self.state.armed | {msg.TimerKind.REVEAL})
    BROKEN_REVEAL(self)


def _unflash_leaving_its_timer(self: Step) -> None:
    self.on(panel.unflashed(self.state.panel)[0])
    self.paging = True


def _wrote_saying_it_at_once(self: Step, ok: bool, reason: Fault | None) -> None:
    if not ok:  # as before issue 37: the note went out over the tumbling die
        self.set(writes=dataclasses.replace(self.state.writes, unsaid=reason))
        self.after(msg.TimerKind.SAVE_FAILED, 0.0)


BROKEN_REVEAL = play_room.reveal
BROKEN_ABANDON = play_room.abandon


def _abandon_forgetting_the_owed(self: Step) -> None:
    """As before issue 38: a game put away took the faces owed to it along."""
    self.set(prefs=self.state.prefs.but(owed=Owed()))
    BROKEN_ABANDON(self)


def _paired_by_any_code(self: Step, proof: str, phone: str, kind: str = "",
                        day: int = 0) -> None:
    """Any six digits pair a phone (the code on the panel not compared)."""
    if self.state.pairing is not None:
        self.set(pairing=msg.Code(proof, proof))
    BROKEN_PAIRED(self, proof, phone, kind, day)


BROKEN_PAIRED = phones.paired


PHONE_HUNTS = {"paired", "unpair"}
"""Machines broken where phones pair are hunted with phones drawn seven times as often: one
draw in twenty would find them only by luck within HUNT examples."""


def _unpair_leaving_its_timer(self: Step) -> None:
    self.set(pairing=None)
    self.on(panel.first_page(self.state.panel))


@pytest.mark.parametrize("prop,name,replacement", [
    ("saved before shown", "commit", _show_then_save),
    ("money seen before the next action", "unread", lambda self: False),
    ("undo asked first", "ask_undo", _undo_without_asking),
    ("timers end with their mode", "reveal", _reveal_keeping_the_tumble),
    ("timers end with their mode", "unflash", _unflash_leaving_its_timer),
    ("timers end with their mode", "wrote", _wrote_saying_it_at_once),
    ("answers only when asked", "answered", lambda self, waiting: True),
    ("answers only when asked", "answered", lambda self, waiting: self.state.waiting is waiting),
    ("no throw bought", "abandon", _abandon_forgetting_the_owed),
    ("phones only by the code", "paired", _paired_by_any_code),
    ("timers end with their mode", "unpair", _unpair_leaving_its_timer),
    ("saved games are the engine's", "commit",
     lambda self, game: (self.do(msg.Save(game.undo() if len(game.actions) > 2 else game)),
                         self.set(game=game))),
])
def test_each_property_catches_a_broken_machine(prop: str, name: str,
                                                replacement: Callable[..., Any]) -> None:
    found: list[str] = []

    @settings(max_examples=HUNT, deadline=None, database=None, phases=[Phase.generate],
              derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def hunt(data: st.DataObject) -> None:
        inputs = INPUTS + ("a phone",) * 6 if name in PHONE_HUNTS else INPUTS
        wrong, _ = PROPERTIES[prop](play(data, failing=True, crashed=[], inputs=inputs))
        found.extend(wrong)
        assert not wrong

    with broken(name, replacement), pytest.raises(AssertionError):
        hunt()
    assert found, prop
