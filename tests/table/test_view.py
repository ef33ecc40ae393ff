"""The view is built once for each state it is asked of: ``view`` keeps the last few by
what of the state they were built from (``view.read``). That is only right while
``build`` reads nothing else: held here over every state a long random session reaches."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.config.settings import Config
from firmware.display.fonts import Fonts
from firmware.display.paging import Page, shown
from firmware.display.screen import Screen
from firmware.saves.faults import Fault
from firmware.seam.shown import published, reads
from firmware.table import machine as m
from firmware.table import messages as msg
from firmware.table import state as states
from firmware.table import view as v
from firmware.table.menu import MENU, Row
from firmware.table.messages import Press, TimerKind
from firmware.table.prefs import Prefs
from firmware.table.state import Fixed, Mode, Notice, Panel, TableState
from firmware.table.writes import Writes
from robinson_core import Game, Roll, play_script
from robinson_core.texts import LANGUAGES

from .steps import FRESH, MOVED, Machine, one_page, playing


def watched(state: TableState, seen: set[str]) -> TableState:
    """``state``, as a value that notes each field of it (and of its panel) read."""

    @dataclasses.dataclass(frozen=True)
    class WatchedPanel(Panel):
        def __getattribute__(self, name: str) -> Any:
            if name in {f.name for f in dataclasses.fields(Panel)}:
                seen.add("panel." + name)
            return super().__getattribute__(name)

    @dataclasses.dataclass(frozen=True)
    class Watched(TableState):
        def __getattribute__(self, name: str) -> Any:
            if name in {f.name for f in dataclasses.fields(TableState)}:
                seen.add(name)
            return super().__getattribute__(name)

    fields = {f.name: getattr(state, f.name) for f in dataclasses.fields(TableState)}
    fields["panel"] = WatchedPanel(**{f.name: getattr(state.panel, f.name)
                                      for f in dataclasses.fields(Panel)})
    return Watched(**fields)


def session(steps: int, seed: int) -> list[TableState]:
    """Every state a table reaches under random presses, timers and refused saves."""
    chance = random.Random(seed)
    table = Machine(faces=[chance.randint(1, 6) for _ in range(steps)])
    table(msg.Start(FRESH), msg.Wired(FRESH.seats))
    states = [table.state]
    for _ in range(steps):
        table.disk_ok = chance.random() < 0.8  # a save refused now and then: its message
        armed = sorted(table.state.armed, key=lambda kind: kind.value)
        if armed and chance.random() < 0.5:
            table.fire(chance.choice(armed))
        else:
            table.press(chance.choice((Press.SHORT, Press.SHORT, Press.SHORT, Press.LONG,
                                       Press.MENU)))
        states.append(table.state)
    return states


def test_the_view_reads_only_what_its_memory_compares() -> None:
    states = session(600, 6001)
    compared: set[str] = set()
    v.read(watched(states[0], compared))
    seen: set[str] = set()
    modes = set()
    for state in states:
        v.build(watched(state, seen))
        modes.add(state.mode)
    assert seen <= compared, seen - compared
    assert len(states) == 601 and len(modes) >= 5, modes  # the menu, play, the roll...
    assert {"now", "game", "prefs", "panel", "panel.flash"} <= seen  # it was watching
    assert not {"armed", "panel.page", "panel.seen"} & compared  # nor is the memory blind


def test_a_view_kept_is_the_view_built() -> None:
    states = session(600, 6001)
    assert sum(state.panel.flash is not None for state in states) >= 5  # messages come and go
    compared = 0
    for state in states:
        assert v.view(state) == v.build(state)
        compared += 1
    assert compared == 601


def test_a_step_builds_the_view_at_most_twice() -> None:
    """A roll and its tumble: each step compares the view before it with the view after;
    the first of them is the last step's, kept (28 builds in 13 steps before it was)."""
    built: list[int] = []
    real, real_step = v.build, m.step

    def counted(state: TableState) -> Screen:
        built[-1] += 1
        return real(state)

    def step(state: TableState, event: msg.Input) -> tuple[TableState, list[msg.Effect]]:
        built.append(0)
        return real_step(state, event)

    table = playing(MOVED, faces=[3])
    v.build, m.step = counted, step
    try:
        while table.state.mode is Mode.PLAY:  # the result's pages read, then the roll
            table.press()
        assert table.state.mode is Mode.ANIMATE
        while table.state.armed & {TimerKind.FRAME, TimerKind.REVEAL}:
            table.fire(min(table.state.armed & {TimerKind.FRAME, TimerKind.REVEAL},
                           key=lambda kind: kind.value))
    finally:
        v.build, m.step = real, real_step
    assert table.state.game == MOVED.play(Roll(3))
    assert len(built) >= 8 and max(built) <= 2, built
    print(f"a roll: {len(built)} steps, {sum(built)} views built, at most {max(built)} a step")


def test_the_seam_publishes_anew_only_when_what_it_reads_changed() -> None:
    """The seam's change key is ``shown.reads``: ``published`` reads nothing else, and two
    states alike in it publish the same (a tumbling die's frames among them)."""
    fonts = Fonts()

    def pages(screen: Screen) -> list[Page]:
        return shown(screen, fonts)

    states = session(300, 6003)
    compared: set[str] = set()
    reads(watched(states[0], compared))
    seen: set[str] = set()
    alike = 0
    for before, after in itertools.pairwise(states):
        published(watched(after, seen), pages)
        if reads(before) == reads(after):
            assert published(before, pages) == published(after, pages)
            alike += 1
    assert seen <= compared, seen - compared
    assert {"now", "game", "prefs", "panel.page"} <= seen
    assert alike >= 30 and any(state.mode is Mode.ANIMATE for state in states), alike


NOTICES = (Notice.of("undone", what="a 3"), Notice.of("phone_paired"),
           Notice.of("save_failed", reason=Fault.DISK_FULL), Notice.of("audit_failed",
                                                                       detail="x"))
"""Messages as the machine words them (each key's values are the machine's)."""
WON = play_script(Game((1, 2)), "6 2 5 3 3 1 6 again 3 jump 6 1 6 3 6 1 5")
ASKED = play_script(Game((1, 2)), "6 2 5 3 3 1")  # a decision pending: roll again or stay
GAMES = (None, FRESH, MOVED, ASKED, WON)
DRAWN: list[Mode] = []


@settings(max_examples=500, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.data())
def _drawn(data: st.DataObject) -> None:
    seat = st.integers(1, 8)
    game = data.draw(st.sampled_from(GAMES))
    now = data.draw(st.one_of(
        st.builds(states.Stuck, notes=st.lists(st.sampled_from(NOTICES), max_size=2).map(tuple)),
        st.builds(states.Title, notes=st.lists(st.sampled_from(NOTICES), max_size=2).map(tuple)),
        st.just(states.Setup()), st.just(states.Off()),
        st.builds(states.Play, showing=st.sampled_from(states.Showing)),
        st.builds(states.Animate, roller=seat, frame=st.integers(0, 40), frames=st.integers(1, 40)),
        st.builds(states.Menu, row=st.integers(0, len(MENU) - 1)),
        st.builds(states.Phones, row=st.integers(0, 12)),
        st.builds(states.Asking, question=st.sampled_from(states.Question),
                  asked_from=st.sampled_from(Mode)),
        st.builds(states.Info, row=st.sampled_from(Row), last=st.sampled_from(GAMES),
                  from_play=st.booleans())))
    prefs = Prefs(language=data.draw(st.sampled_from(LANGUAGES)), odds=data.draw(st.booleans()),
                  names=data.draw(st.sampled_from(((), ((1, "Čedo"), (2, "Ana"))))))
    state = TableState(
        Fixed(Config(), one_page, badge=data.draw(st.sampled_from(("", "DEMO")))),
        now=now, game=game, prefs=prefs,
        seats=tuple(sorted(data.draw(st.sets(seat, max_size=8)))),
        first=data.draw(st.none() | seat),
        panel=Panel(page=data.draw(st.integers(0, 3)), seen=data.draw(st.integers(-1, 3)),
                    hint=data.draw(st.none() | st.sampled_from(Press)),
                    flash=data.draw(st.none() | st.sampled_from(NOTICES))),
        writes=Writes(failing=data.draw(st.none() | st.sampled_from(Fault)),
                      unsaved=data.draw(st.sampled_from(((), (msg.Save(MOVED),))))),
        odds=(game, (60, 40)) if game is not None and data.draw(st.booleans()) else None,
        pairing=data.draw(st.none() | st.just(msg.Code("123456", "token"))),
        address=data.draw(st.sampled_from(("", "http://robinson.local:8080"))))
    screen = v.build(state)
    assert screen.title or screen.body, state
    DRAWN.append(state.mode)


def test_every_state_the_types_allow_is_drawn() -> None:
    """view() is total: any state written down from the types is drawn (a mode about a
    game with no game, which the machine never makes, shows the title)."""
    DRAWN.clear()
    _drawn()
    assert len(DRAWN) == 500 and set(DRAWN) == set(Mode), set(Mode) - set(DRAWN)
