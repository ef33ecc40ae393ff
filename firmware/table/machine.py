"""The table's rules of interaction as one pure step: ``step(state, input) -> (state, effects)``.

What a press means in each mode, when the game is saved, which page shows, what a
timer does when it fires: all decided here, from values, with no device, disk,
clock or die. The state says which screen and its data; ``firmware.table.view``
draws it, and a step ends with one ``Draw`` when the view changed (after any
``Save``). The shell (``firmware.shell.table``) turns gpiozero's callbacks into
inputs, runs the effects in order and feeds the answers back (the die's face,
whether a write reached the disk, the finished games for Recall).

Here is the root of a step: which input goes where, the button, the timers, the disk's
answers. A step in the making is a ``Moment`` (``moment.py``: the state as it changes,
the effects, the panel's paging); what a press does lives in the room of its idea:
``play.py`` (title, setup, the turn, undo), ``menus.py`` (the menu and the phones' list),
``phones.py`` (pairing, a phone's panel on trial), ``writes.py`` (the queue for the disk).

>>> from firmware.config.settings import Config
>>> state = initial(Fixed(Config(), measure=lambda screen: (1, 0)))
>>> state, effects = step(state, Start(game=None))
>>> state.mode, [type(e).__name__ for e in effects][-2:]
(<Mode.TITLE: 'title'>, ['After', 'Draw'])
>>> state, effects = step(state, Wired(seats=(1, 2)))
>>> state.seats, effects
((1, 2), [])
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable, Iterator

from firmware.saves.faults import Fault
from firmware.table import menus, panel, phones, play
from firmware.table.messages import (
    Address,
    Begin,
    Brought,
    CancelAll,
    Code,
    Contrast,
    Down,
    Effect,
    Face,
    ForgetPhone,
    Held,
    Hush,
    Input,
    KeepAsked,
    Log,
    Odds,
    PairAsked,
    Paired,
    PhoneUsed,
    Prefer,
    Press,
    Pressed,
    Recalled,
    Repeat,
    Rewire,
    SeatsChanged,
    Shift,
    Start,
    Stop,
    TimerFired,
    TimerKind,
    Unstuck,
    UsePanel,
    Voicing,
    Wake,
    Wired,
    Wrote,
)
from firmware.table.moment import Moment
from firmware.table.prefs import (
    Prefs,
    in_force,
)
from firmware.table.state import (
    Fixed,
    Info,
    Mode,
    Notice,
    Off,
    Stuck,
    TableState,
    Title,
    Waiting,
)
from firmware.table.writes import taken
from robinson_core import Status

RETRY_EVERY = 3.0  # seconds between tries of a write the disk refused
HALT_CONTRAST = 1  # the panel's, on the frame left after a stop
PAIR_FOR = 120.0  # seconds a pairing code stands on the panel (and can be used)
MENUS = (Mode.MENU, Mode.PHONES)  # a list with a cursor: a press in it only moves or chooses
PHONE_NOTICES = frozenset({"phone_paired", "no_web", "hardware_kept", "hardware_back"})
"""Messages a phone brings over any screen: a press ends them and does nothing else (the
players never saw what a press would do under them)."""
QUESTIONS = frozenset({Mode.UNDO, Mode.ABANDON, Mode.PHONES})
"""Questions a long press answers for good (the phones list's: forget this one): a message
over one (a save refused, met by the retry's timer; a phone forgotten) is ended by a
press, which answers nothing (the question is seen again first)."""


def initial(fixed: Fixed) -> TableState:
    """The table before ``Start``."""
    prefs = Prefs.defaults(fixed.config)
    return TableState(fixed=fixed, prefs=prefs.but(language=fixed.lang or prefs.language))


def step(state: TableState, event: Input) -> tuple[TableState, list[Effect]]:
    """What ``event`` does to the table: the new state and the effects, in order."""
    moment = Moment(state)
    take(moment, event)
    moment.settle()
    return moment.state, moment.effects


Step = tuple[Input, TableState, list[Effect]]
"""One step as it ran: the input, the state after it, its effects."""


def run(state: TableState, event: Input,
        answer: Callable[[Effect], Input | None]) -> Iterator[Step]:
    """``event``, then every answer its effects bring, each stepped in turn: ``answer``
    runs one effect (the shell: the disk, the die, the panel) and says the input it
    answers with, if any; answers are taken once the effects before them are out. Each
    step is given before its effects run, so the shell holds the state they belong to;
    the last one's state is the table's."""
    queue = collections.deque([event])
    while queue:
        current = queue.popleft()
        state, effects = step(state, current)
        yield current, state, effects
        for effect in effects:
            if (reply := answer(effect)) is not None:
                queue.append(reply)


def take(m: Moment, event: Input) -> None:
    match event:
        case Start():
            start(m, event)
        case Wired(seats, stuck):
            wired(m, seats, stuck)
        case Down():
            down(m)
        case Held(kind):
            held(m, kind)
        case Unstuck():
            if isinstance(m.state.now, Stuck):
                play.boot(m, m.state.now.notes)
        case Pressed(kind):
            pressed(m, kind)
        case SeatsChanged(seat, _, seats):
            seat_changed(m, seat, seats)
        case TimerFired(kind):
            if kind in m.state.armed:
                m.set(armed=m.state.armed - {kind})
                fired(m, kind)
        case Face(face):
            if answered(m, Waiting.FACE):
                play.rolled(m, face)
        case Wrote(ok, fault):
            wrote(m, ok, fault)
        case Recalled(finished, last):
            if answered(m, Waiting.RECALL):
                menus.recalled(m, finished, last)
        case Brought(game, fault):
            if answered(m, Waiting.BACK):
                menus.brought(m, game, fault)
        case Begin(game):
            play.begin(m, game)
        case Stop():
            stop(m)
        case Prefer(prefs):
            prefer(m, prefs)
        case Repeat():
            if m.state.mode in (Mode.PLAY, Mode.MENU, Mode.INFO):
                menus.repeat(m)
        case PairAsked():
            phones.ask_pairing(m)
        case Code():
            if answered(m, Waiting.CODE):
                m.set(pairing=event)
                m.after(TimerKind.PAIR, PAIR_FOR)
        case Paired(proof, phone, kind, day):
            phones.paired(m, proof, phone, kind, day)
        case PhoneUsed(phone, day):
            phones.phone_used(m, phone, day)
        case ForgetPhone(phone):
            phones.forget_phone(m, phone)
        case Address(url):
            m.set(address=url)
        case Rewire(changes, config):
            phones.rewire(m, changes, config)
        case KeepAsked():
            if m.state.trial is not None:
                phones.keep_trial(m, m.state.trial)
        case Odds(game, win):
            if game == m.state.game and m.state.prefs.odds:
                m.set(odds=(game, win))
                if m.weighed():
                    m.speak(m.s.odds(game.state, win), after=True)


def answered(m: Moment, waiting: Waiting) -> bool:
    """Whether this answer was waited for (it is no longer)."""
    if m.state.waiting is not waiting:
        return False
    m.set(waiting=None)
    return True


def start(m: Moment, start: Start) -> None:
    fixed, game = m.state.fixed, start.game
    prefs, wrong = in_force(dict(start.prefs), fixed.config, lang=fixed.lang,
                            voice=fixed.voice, contrast=start.contrast)
    m.set(game=game, writes=dataclasses.replace(m.state.writes, disk=game), prefs=prefs)
    for why in wrong:
        m.do(Log("warning", f"kept names: {why}"))
    if prefs.contrast != start.contrast:
        m.do(Contrast(prefs.contrast))
    voice = fixed.config.voice
    if (prefs.volume, prefs.speed) != (voice.volume, voice.speed):  # the menu's, kept
        m.do(Voicing(prefs.volume, prefs.speed))
    notes = []
    if start.problem:
        m.do(Log("warning", f"saved game: {start.problem}"))
        notes.append(Notice.of("saves_problem", problem=start.problem))
    if start.fault:  # the badge stands until a write gets through
        notes.append(Notice.of("save_failed", reason=start.fault))
        m.set(writes=dataclasses.replace(m.state.writes, failing=start.fault))
    if start.volatile:
        notes.append(Notice.of("saves_vanish", kind=start.volatile))
    if start.settings is not None:
        notes.append(Notice.of("settings_line", number=start.settings) if start.settings
                     else Notice.of("settings_file"))
    if fixed.fonts_missing:
        notes.append(Notice.of("about_fonts", packages=fixed.fonts_missing))
    if fixed.seeded:
        notes.append(Notice.of("seeded_note"))
    m.idle()
    m.after(TimerKind.SHIFT, fixed.config.timings.shift_every)
    m.redrawn = True  # the panel has shown nothing of ours yet
    play.boot(m, tuple(notes))


def wired(m: Moment, seats: tuple[int, ...], stuck: bool) -> None:
    """The pins, opened once the title is on the panel: who sits; a button already down
    (held at switch-on, or stuck) is a press for nobody until it is let go."""
    m.set(seats=seats)
    title = m.state.now
    if stuck and isinstance(title, Title):
        m.cancel(TimerKind.BOOT)
        m.set(now=Stuck(title.notes))
        m.fresh()


def stop(m: Moment) -> None:
    if m.state.trial is not None:  # the last frame on the panel the next start drives
        m.do(UsePanel(m.state.fixed.config.display))
    m.set(armed=frozenset(), now=Off(), pairing=None, trial=None)
    m.on(panel.halted(m.state.panel))
    m.do(CancelAll())
    if m.state.writes.unsaved:  # refused until now: once more, and the last frame says
        m.do(m.state.writes.unsaved[0])  # whether it got through
    if m.state.prefs.voice:
        m.do(Hush())
    m.do(Wake())
    m.draw_now()
    # A Pi that halts without cutting power (Pi 3, Zero 2, a Pi 4/5 with
    # POWER_OFF_ON_HALT=0) leaves this frame lit for days: at the least contrast,
    # it reads up close and burns in least. The next start sets it back.
    m.do(Contrast(HALT_CONTRAST))
    m.lights(None)
    m.paging = False  # no timer outlives the table


def down(m: Moment) -> None:
    m.on(panel.down(m.state.panel, rolling=m.state.mode is Mode.ANIMATE))
    m.idle()


def held(m: Moment, kind: Press) -> None:
    state = m.state
    if state.panel.void or state.mode in (Mode.ANIMATE, Mode.STUCK, Mode.OFF):
        return
    if kind is Press.MENU:
        m.on(panel.held(m.state.panel, Press.MENU))
    elif (state.mode is Mode.PLAY and state.game and not state.ask_next
          and state.game.state.status is Status.PLAYING):
        m.on(panel.held(m.state.panel, Press.LONG))  # a decision's other choice, or
        # the standings


def pressed(m: Moment, kind: Press) -> None:
    released, counts = panel.let_go(m.state.panel)
    m.on(released)
    if not counts:
        return
    if m.state.trial is not None:  # a press keeps the panel on trial, and only that
        phones.keep_trial(m, m.state.trial)
        return
    mode = m.state.mode
    if mode in (Mode.ANIMATE, Mode.OFF):
        return  # never queued into a second roll
    if m.state.panel.flash is not None:  # a press ends a message: the screen under it
        hidden = m.state.panel.flash.key in PHONE_NOTICES or mode in QUESTIONS
        m.unflash()
        if hidden:  # what the press would do was not on the panel: only that
            return
    if m.state.pairing is not None:  # a press takes the code away; asked for by a
        phones.unpair(m)  # phone (anyone on the network may), it also does what it would
        if mode in MENUS:  # have done: no phone holds up a game. In the menu the
            return  # panel's own Phone row asked for it: there, only that
    if kind is Press.MENU and mode is not Mode.STUCK:
        play.resume(m) if mode in MENUS else m.open_menu()
        return
    match mode:
        case Mode.TITLE:
            play.title_press(m, kind)
        case Mode.SETUP:
            play.setup_press(m, kind)
        case Mode.PLAY:
            play.play_press(m, kind)
        case Mode.MENU:
            menus.menu_press(m, kind)
        case Mode.PHONES:
            menus.phones_press(m, kind)
        case Mode.UNDO | Mode.ABANDON:
            play.asking_press(m, kind)
        case Mode.INFO:
            assert isinstance(m.state.now, Info)
            if m.state.now.from_play:
                play.resume(m)
            else:
                m.back_to_menu(m.state.now.row)


def seat_changed(m: Moment, seat: int, seats: tuple[int, ...]) -> None:
    m.set(seats=seats)
    m.idle()
    m.wake()
    if m.state.mode is Mode.SETUP:
        play.setup(m)
    elif m.state.mode is Mode.PLAY:
        m.flash(Notice.of("seats_locked", seat=seat))


def fired(m: Moment, kind: TimerKind) -> None:
    match kind:
        case TimerKind.BOOT:
            play.setup(m)
        case TimerKind.PAGE:
            m.on(panel.turned(m.state.panel))
            m.paging = True
        case TimerKind.FLASH:
            m.unflash()
        case TimerKind.SAVE_FAILED:
            m.flash(Notice.of("save_failed", reason=m.state.writes.unsaid), 6.0)
            m.set(writes=dataclasses.replace(m.state.writes, unsaid=None))
        case TimerKind.RETRY:
            if m.state.writes.unsaved:
                m.do(m.state.writes.unsaved[0])
        case TimerKind.FRAME:
            play.frame(m)
        case TimerKind.REVEAL:
            play.reveal(m)
        case TimerKind.AUDIT:
            play.audit(m)
        case TimerKind.DIM:
            m.on(panel.dimmed(m.state.panel))
        case TimerKind.BLANK:
            m.on(panel.blanked(m.state.panel))
        case TimerKind.PAIR:
            m.set(pairing=None)
        case TimerKind.TRIAL:
            phones.end_trial(m)
        case TimerKind.SHIFT:
            m.do(Shift())
            m.after(TimerKind.SHIFT, m.state.fixed.config.timings.shift_every)


def prefer(m: Moment, prefs: Prefs) -> None:
    """Settings from outside: in force now (the faces owed and the phones paired stay
    the table's own)."""
    m.prefer(prefs.but(owed=m.state.prefs.owed, phones=m.state.prefs.phones))


def wrote(m: Moment, ok: bool, fault: Fault | None) -> None:
    writes = m.state.writes
    if not writes.unsaved:
        return  # an answer to no write
    if ok:
        writes, then = taken(writes)
        if then is not None:
            m.do(then)
        elif writes.failing is not None:
            writes = dataclasses.replace(writes, failing=None)
            m.cancel(TimerKind.RETRY)
            m.do(Log("info", "saving again: the game is on disk"))
        m.set(writes=writes)
        return
    fault = fault or Fault.IO_ERROR
    if m.state.mode is Mode.OFF:
        m.do(Log("error", f"switched off, shown actions not on disk: "
                             f"{writes.behind} (cannot save the game: {fault})"))
        m.set(writes=dataclasses.replace(writes, failing=fault))
        return
    m.after(TimerKind.RETRY, RETRY_EVERY)
    if fault is writes.failing:
        return  # said when it began; the panel's badge says it still is
    m.do(Log("error", f"cannot save the game: {fault}"))
    m.set(writes=dataclasses.replace(writes, failing=fault, unsaid=fault))
    if m.state.mode is not Mode.ANIMATE:  # else once the result is out
        m.after(TimerKind.SAVE_FAILED, 0.0)
