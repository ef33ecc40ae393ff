"""The table's rules of interaction as one pure step: ``step(state, input) -> (state, effects)``.

What a press means in each mode, when the game is saved, which page shows, what a
timer does when it fires: all decided here, from values, with no device, disk,
clock or die. The state says which screen and its data; ``firmware.table.view``
draws it, and a step ends with one ``Draw`` when the view changed (after any
``Save``). The shell (``firmware.table.table``) turns gpiozero's callbacks into
inputs, runs the effects in order and feeds the answers back (the die's face,
whether a write reached the disk, the finished games for Recall).

>>> from firmware.config import Config
>>> state = initial(Fixed(Config(), measure=lambda screen: (1, 0)))
>>> state, effects = step(state, Start(game=None, seats=(1, 2)))
>>> state.mode, [type(e).__name__ for e in effects][-2:]
(<Mode.TITLE: 'title'>, ['After', 'Draw'])
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable, Iterator, Sequence

from firmware.config import Config
from firmware.display import screens
from firmware.display.screen import Screen
from firmware.display.words import Words
from firmware.runtime.tunes import Tune
from firmware.saves.faults import Fault
from firmware.speech.said import Spoken
from firmware.table.menu import MENU, PhoneRow, Row, phone_cursor
from firmware.table.messages import (
    Address,
    After,
    Begin,
    BeginGame,
    Blank,
    BringBack,
    Brought,
    Cancel,
    CancelAll,
    Chime,
    Code,
    Contrast,
    Dim,
    Down,
    Draw,
    Effect,
    Face,
    ForgetPhone,
    Held,
    Hush,
    Input,
    KeepAsked,
    KeepHardware,
    Light,
    Log,
    NeedCode,
    NeedFace,
    NeedOdds,
    NeedRecall,
    Odds,
    OwnerCodeUsed,
    PairAsked,
    Paired,
    PhoneUsed,
    Prefer,
    Press,
    Pressed,
    PutAway,
    Recalled,
    Repeat,
    Restart,
    Rewire,
    Save,
    SavePrefs,
    Say,
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
    Write,
    Wrote,
)
from firmware.table.prefs import (
    PHONES_MOST,
    SPEEDS,
    VOLUMES,
    Phone,
    Prefs,
    in_force,
    is_phone,
    next_step,
)
from firmware.table.state import (
    TRIAL_FOR,
    Animate,
    Asking,
    Fixed,
    Info,
    Menu,
    Mode,
    Notice,
    Off,
    Phones,
    Play,
    Question,
    Saver,
    Setup,
    Showing,
    Stuck,
    TableState,
    Title,
    Trial,
    Waiting,
)
from firmware.table.view import next_brightness, view, words
from firmware.table.writes import queued, taken
from robinson_core import CHOICES, MAX_PLAYERS, MIN_PLAYERS, Choice, Game, Pending, Roll, Status
from robinson_core import events as ev
from robinson_core.game import MAX_ACTIONS
from robinson_core.texts import LANGUAGES

FRAME = 0.08  # seconds per animation frame
ROLLING_CHOICES = (Choice.ROLL, Choice.AGAIN)  # decisions whose answer is to roll
AUDIT_AFTER = 0.05  # after the result is out, not on its way
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
    moment = _Moment(state)
    moment.take(event)
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


class _Moment:
    """One step in the making: the state as it changes and the effects said so far."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.effects: list[Effect] = []
        self.before = state
        self.drawn: tuple[Screen, int] | None = None  # None: what the state before showed
        self.redrawn = False  # draw at the end even if the view is what was there
        self.paging = False  # the page turned or a new screen came: the page timer anew
        self.said: list[Say] = []  # spoken once the view is out: the ear never leads the eye

    # -- bookkeeping ------------------------------------------------------------------

    def on_panel(self, **changes: object) -> None:
        """The panel's own state changed (``Panel``)."""
        self.set(panel=dataclasses.replace(self.state.panel, **changes))  # type: ignore[arg-type]

    def set(self, **changes: object) -> None:
        self.state = dataclasses.replace(self.state, **changes)  # type: ignore[arg-type]

    def do(self, *effects: Effect) -> None:
        self.effects.extend(effects)

    def after(self, kind: TimerKind, seconds: float) -> None:
        self.set(armed=self.state.armed | {kind})
        self.do(After(kind, seconds))

    def cancel(self, kind: TimerKind) -> None:
        if kind in self.state.armed:
            self.set(armed=self.state.armed - {kind})
            self.do(Cancel(kind))

    @property
    def w(self) -> Words:
        return words(self.state)

    @property
    def s(self) -> Spoken:
        """The voice's words: the same language and names as the panel's."""
        return Spoken(self.state.prefs.language, self.w.given)

    @property
    def game(self) -> Game:
        game = self.state.game
        assert game is not None
        return game

    # -- inputs -----------------------------------------------------------------------

    def take(self, event: Input) -> None:
        match event:
            case Start():
                self.start(event)
            case Down():
                self.down()
            case Held(kind):
                self.held(kind)
            case Unstuck():
                if isinstance(self.state.now, Stuck):
                    self.boot(self.state.now.notes)
            case Pressed(kind):
                self.pressed(kind)
            case SeatsChanged(seat, _, seats):
                self.seat_changed(seat, seats)
            case TimerFired(kind):
                if kind in self.state.armed:
                    self.set(armed=self.state.armed - {kind})
                    self.fired(kind)
            case Face(face):
                if self.answered(Waiting.FACE):
                    self.rolled(face)
            case Wrote(ok, fault):
                self.wrote(ok, fault)
            case Recalled(finished, last):
                if self.answered(Waiting.RECALL):
                    self.recalled(finished, last)
            case Brought(game, fault):
                if self.answered(Waiting.BACK):
                    self.brought(game, fault)
            case Begin(game):
                self.begin(game)
            case Stop():
                self.stop()
            case Prefer(prefs):
                self.prefer(prefs)
            case Repeat():
                if self.state.mode in (Mode.PLAY, Mode.MENU, Mode.INFO):
                    self.repeat()
            case PairAsked():
                self.ask_pairing()
            case Code():
                if self.answered(Waiting.CODE):
                    self.set(pairing=event)
                    self.after(TimerKind.PAIR, PAIR_FOR)
            case Paired(proof, phone, kind, day):
                self.paired(proof, phone, kind, day)
            case PhoneUsed(phone, day):
                self.phone_used(phone, day)
            case ForgetPhone(phone):
                self.forget_phone(phone)
            case Address(url):
                self.set(address=url)
            case Rewire(changes, config):
                self.rewire(changes, config)
            case KeepAsked():
                if self.state.trial is not None:
                    self.keep_trial(self.state.trial)
            case Odds(game, win):
                if game == self.state.game and self.state.prefs.odds:
                    self.set(odds=(game, win))
                    if self.weighed():
                        self.speak(self.s.odds(game.state, win), after=True)

    def answered(self, waiting: Waiting) -> bool:
        """Whether this answer was waited for (it is no longer)."""
        if self.state.waiting is not waiting:
            return False
        self.set(waiting=None)
        return True

    def start(self, start: Start) -> None:
        fixed, game = self.state.fixed, start.game
        prefs, wrong = in_force(dict(start.prefs), fixed.config, lang=fixed.lang,
                                voice=fixed.voice, contrast=start.contrast)
        self.set(game=game, writes=dataclasses.replace(self.state.writes, disk=game),
                 seats=start.seats, prefs=prefs)
        for why in wrong:
            self.do(Log("warning", f"kept names: {why}"))
        if prefs.contrast != start.contrast:
            self.do(Contrast(prefs.contrast))
        voice = fixed.config.voice
        if (prefs.volume, prefs.speed) != (voice.volume, voice.speed):  # the menu's, kept
            self.do(Voicing(prefs.volume, prefs.speed))
        notes = []
        if start.problem:
            self.do(Log("warning", f"saved game: {start.problem}"))
            notes.append(Notice.of("saves_problem", problem=start.problem))
        if start.fault:  # the badge stands until a write gets through
            notes.append(Notice.of("save_failed", reason=start.fault))
            self.set(writes=dataclasses.replace(self.state.writes, failing=start.fault))
        if start.volatile:
            notes.append(Notice.of("saves_vanish", kind=start.volatile))
        if start.settings is not None:
            notes.append(Notice.of("settings_line", number=start.settings) if start.settings
                         else Notice.of("settings_file"))
        if fixed.fonts_missing:
            notes.append(Notice.of("about_fonts", packages=fixed.fonts_missing))
        if fixed.seeded:
            notes.append(Notice.of("seeded_note"))
        self.idle()
        self.after(TimerKind.SHIFT, fixed.config.timings.shift_every)
        self.redrawn = True  # the panel has shown nothing of ours yet
        if start.stuck:  # the state is fresh: nothing was on the panel before
            self.set(now=Stuck(tuple(notes)))
            return
        self.boot(tuple(notes))

    def boot(self, notes: tuple[Notice, ...] = ()) -> None:
        self.set(now=Title(notes))
        self.fresh()
        game = self.state.game
        if game is None or not game.actions:  # nothing to resume: on to setup by itself
            self.after(TimerKind.BOOT, 2.0 + 2.0 * len(notes))

    def stop(self) -> None:
        if self.state.trial is not None:  # the last frame on the panel the next start drives
            self.do(UsePanel(self.state.fixed.config.display))
        self.set(armed=frozenset(), now=Off(), pairing=None, trial=None)
        self.on_panel(flash=None, hint=None, saver=Saver.AWAKE)
        self.do(CancelAll())
        if self.state.writes.unsaved:  # refused until now: once more, and the last frame says
            self.do(self.state.writes.unsaved[0])  # whether it got through
        if self.state.prefs.voice:
            self.do(Hush())
        self.do(Wake())
        self.fresh()
        self.draw_now()
        # A Pi that halts without cutting power (Pi 3, Zero 2, a Pi 4/5 with
        # POWER_OFF_ON_HALT=0) leaves this frame lit for days: at the least contrast,
        # it reads up close and burns in least. The next start sets it back.
        self.do(Contrast(HALT_CONTRAST))
        self.lights(None)
        self.paging = False  # no timer outlives the table

    def down(self) -> None:
        void = self.state.mode is Mode.ANIMATE  # a press begun mid-roll: never a roll
        if self.state.panel.saver is not Saver.AWAKE:
            void = True  # a waking press does nothing else
            self.on_panel(saver=Saver.AWAKE)
            self.do(Wake())
        self.on_panel(void=void)
        self.idle()

    def held(self, kind: Press) -> None:
        state = self.state
        if state.panel.void or state.mode in (Mode.ANIMATE, Mode.STUCK, Mode.OFF):
            return
        if kind is Press.MENU:
            self.on_panel(hint=Press.MENU)
        elif (state.mode is Mode.PLAY and state.game and not state.ask_next
              and state.game.state.status is Status.PLAYING):
            self.on_panel(hint=Press.LONG)  # a decision's other choice, or the standings

    def pressed(self, kind: Press) -> None:
        self.on_panel(hint=None)  # let go: the hint has said its piece
        if self.state.panel.void:
            self.on_panel(void=False)
            return
        if self.state.trial is not None:  # a press keeps the panel on trial, and only that
            self.keep_trial(self.state.trial)
            return
        mode = self.state.mode
        if mode in (Mode.ANIMATE, Mode.OFF):
            return  # never queued into a second roll
        if self.state.panel.flash is not None:  # a press ends a message: the screen under it
            hidden = self.state.panel.flash.key in PHONE_NOTICES or mode in QUESTIONS
            self.unflash()
            if hidden:  # what the press would do was not on the panel: only that
                return
        if self.state.pairing is not None:  # a press takes the code away; asked for by a
            self.unpair()  # phone (anyone on the network may), it also does what it would
            if mode in MENUS:  # have done: no phone holds up a game. In the menu the
                return  # panel's own Phone row asked for it: there, only that
        if kind is Press.MENU and mode is not Mode.STUCK:
            self.resume() if mode in MENUS else self.open_menu()
            return
        match mode:
            case Mode.TITLE:
                self.title_press(kind)
            case Mode.SETUP:
                self.setup_press(kind)
            case Mode.PLAY:
                self.play_press(kind)
            case Mode.MENU:
                self.menu_press(kind)
            case Mode.PHONES:
                self.phones_press(kind)
            case Mode.UNDO | Mode.ABANDON:
                self.asking_press(kind)
            case Mode.INFO:
                assert isinstance(self.state.now, Info)
                if self.state.now.from_play:
                    self.resume()
                else:
                    self.back_to_menu(self.state.now.row)

    def seat_changed(self, seat: int, seats: tuple[int, ...]) -> None:
        self.set(seats=seats)
        self.idle()
        if self.state.panel.saver is not Saver.AWAKE:
            self.on_panel(saver=Saver.AWAKE)
            self.do(Wake())
        if self.state.mode is Mode.SETUP:
            self.setup()
        elif self.state.mode is Mode.PLAY:
            self.flash(Notice.of("seats_locked", seat=seat))

    def fired(self, kind: TimerKind) -> None:
        match kind:
            case TimerKind.BOOT:
                self.setup()
            case TimerKind.PAGE:
                self.on_panel(page=self.state.panel.page + 1)
                self.paging = True
            case TimerKind.FLASH:
                self.unflash()
            case TimerKind.SAVE_FAILED:
                self.flash(Notice.of("save_failed", reason=self.state.writes.unsaid), 6.0)
                self.set(writes=dataclasses.replace(self.state.writes, unsaid=None))
            case TimerKind.RETRY:
                if self.state.writes.unsaved:
                    self.do(self.state.writes.unsaved[0])
            case TimerKind.FRAME:
                self.frame()
            case TimerKind.REVEAL:
                self.reveal()
            case TimerKind.AUDIT:
                self.audit()
            case TimerKind.DIM:
                self.on_panel(saver=Saver.DIM)
                self.do(Dim())
            case TimerKind.BLANK:
                self.on_panel(saver=Saver.BLANK)
                self.do(Blank())
            case TimerKind.PAIR:
                self.set(pairing=None)
            case TimerKind.TRIAL:
                self.end_trial()
            case TimerKind.SHIFT:
                self.do(Shift())
                self.after(TimerKind.SHIFT, self.state.fixed.config.timings.shift_every)

    def prefer(self, prefs: Prefs) -> None:
        """Settings from outside: in force now (the faces owed and the phones paired stay
        the table's own)."""
        before = self.state.prefs
        prefs = prefs.but(owed=before.owed, phones=before.phones)
        if prefs == before:
            return
        self.set(prefs=prefs)
        if prefs.contrast != before.contrast:
            self.do(Contrast(prefs.contrast))
        if (prefs.volume, prefs.speed) != (before.volume, before.speed):
            self.do(Voicing(prefs.volume, prefs.speed))
        if before.voice and not prefs.voice:
            self.do(Hush())
        self.save_prefs()

    # -- a phone's hardware settings ----------------------------------------------------

    def rewire(self, changes: tuple[tuple[str, object], ...], config: Config) -> None:
        """A phone's hardware settings, checked: a new panel goes on trial (a test pattern
        on it; a press or the phone keeps it, else the panel before is back after
        TRIAL_FOR); the pins and the amplifier are kept at once, for a fresh start."""
        if self.state.mode in (Mode.STUCK, Mode.OFF):
            return
        if config.display != self.state.fixed.config.display:
            self.cancel(TimerKind.TRIAL)
            self.set(trial=Trial(changes, config))
            self.do(UsePanel(config.display))
            if self.state.panel.saver is not Saver.AWAKE:
                self.on_panel(saver=Saver.AWAKE)
                self.do(Wake())
            self.idle()
            self.after(TimerKind.TRIAL, TRIAL_FOR)
            self.redrawn = True  # a new device holds nothing of ours
            return
        if self.state.trial is not None:  # the panel in force again, the rest kept
            self.end_trial(said=False)
        self.keep(changes, config)

    def keep_trial(self, trial: Trial) -> None:
        self.cancel(TimerKind.TRIAL)
        self.set(trial=None)
        self.keep(trial.changes, trial.config)

    def keep(self, changes: tuple[tuple[str, object], ...], config: Config) -> None:
        """Keep a phone's settings; new pins or the amplifier: start again, to take them."""
        fixed = self.state.fixed
        restart = (config.pins, config.voice) != (fixed.config.pins, fixed.config.voice)
        self.set(fixed=dataclasses.replace(fixed, config=config))
        self.do(KeepHardware(changes))
        if restart:
            self.flash(Notice.of("hardware_restart"))
            self.draw_now()
            self.do(Restart())
        else:
            self.flash(Notice.of("hardware_kept"))

    def end_trial(self, said: bool = True) -> None:
        """The panel on trial was not kept: the one in force before, as it was."""
        self.cancel(TimerKind.TRIAL)
        self.set(trial=None)
        self.on_panel(page=0)
        self.do(UsePanel(self.state.fixed.config.display))
        self.redrawn = True
        if said:
            self.flash(Notice.of("hardware_back"))

    # -- title and setup --------------------------------------------------------------

    def title_press(self, kind: Press) -> None:
        self.cancel(TimerKind.BOOT)
        game = self.state.game
        if kind is Press.SHORT and game is not None and game.actions:
            self.resume()
            self.speak(self.s.resumed(game))
        else:
            self.new_game(Mode.TITLE)

    def new_game(self, asked_from: Mode) -> None:
        """Put the current game away and set up a new one; a game in progress only once
        the table said yes to abandoning it."""
        game = self.state.game
        if game is not None and game.actions and game.state.status is Status.PLAYING:
            self.set(now=Asking(Question.ABANDON, asked_from))
            self.fresh()
            return
        self.abandon()

    def asking_press(self, kind: Press) -> None:
        asking = self.state.now
        assert isinstance(asking, Asking)
        if kind is Press.LONG:
            self.abandon() if asking.question is Question.ABANDON else self.undo()
        elif asking.asked_from is Mode.MENU:
            self.back_to_menu(asking.question.value)
        else:
            self.boot()

    def abandon(self) -> None:
        if self.state.game is not None:  # (a face owed to it stays owed: Owed)
            self.write(PutAway(self.state.game))
        self.set(game=None)
        self.setup()

    def setup(self) -> None:
        self.cancel(TimerKind.BOOT)
        seats, first = self.state.seats, self.state.first
        if first not in seats:
            self.set(first=seats[0] if seats else None)
        self.set(now=Setup())
        self.fresh()
        self.lights(self.state.first)
        ready = MIN_PLAYERS <= len(seats) <= MAX_PLAYERS
        self.speak(self.s.setup(seats, self.state.first, ready))

    def setup_press(self, kind: Press) -> None:
        seats, first = self.state.seats, self.state.first
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS or first is None:
            return
        if kind is Press.SHORT:  # the youngest starts: pick who that is
            self.set(first=seats[(seats.index(first) + 1) % len(seats)])
            self.setup()
        elif kind is Press.LONG:
            self.begin(Game(seats, first, self.state.fixed.config.rules))

    def begin(self, game: Game) -> None:
        self.cancel(TimerKind.BOOT)  # a game begun during the title must not go to setup
        self.set(game=game)
        self.write(BeginGame(game))
        self.resume()
        self.speak(self.s.begun(game))

    # -- play -------------------------------------------------------------------------

    def resume(self) -> None:
        """Back to the game as it stands."""
        if self.state.game is None:
            self.setup()
            return
        self.lights(self.game.state.to_move)
        self.show_result()
        self.audit()

    def show_result(self) -> None:
        """The last action's result; if another player must decide next, a press shows
        their decision screen, headed by them (``Showing.ASK_NEXT``)."""
        game = self.game
        who = screens.decider(game.state)
        asks = who is not None and who != screens.mover(game)
        self.set(now=Play(Showing.ASK_NEXT if asks else Showing.RESULT))
        self.fresh()

    def play_press(self, kind: Press) -> None:
        game = self.game
        state = game.state
        if self.unread():  # a quick press: the money and instructions first, never skipped
            return
        if self.state.ask_next:  # another player decides: their screen, then their choice
            self.set(now=Play(Showing.TURN))
            self.fresh()
            return
        if state.status is not Status.PLAYING:
            if kind is Press.LONG:  # a new game, through setup: the seats as switched now
                self.abandon()
            return
        if TimerKind.AUDIT in self.state.armed:
            self.cancel(TimerKind.AUDIT)
            self.audit()
        if self.state.audit is not None:
            self.flash(Notice.of("audit_failed", detail=self.state.audit))
            return
        if len(game.actions) >= MAX_ACTIONS:  # one more would make a save no table reads
            self.flash(Notice.of("too_long", limit=f"{MAX_ACTIONS:,}"))
            return
        if state.pending is Pending.ROLL:
            if kind is Press.SHORT:
                self.roll()
            else:  # everyone's square and chips, one press from the game
                self.set(now=Info(Row.STANDINGS, from_play=True))
                self.fresh()
            return
        short, long = CHOICES[state.pending]
        choice = short if kind is Press.SHORT else long
        self.commit(game.play(choice))
        if choice in ROLLING_CHOICES:  # "roll" on 7, "again" on 20: one press, one roll
            self.roll()
        else:
            self.reveal()

    def roll(self) -> None:
        """Ask the die (the face comes back as ``Face``), unless a roll taken back from
        this very position is owed: the die's face stands, an undo never buys a new
        throw."""
        prefs, game = self.state.prefs, self.game
        face = prefs.owed.face(game)
        if face is not None:
            self.set(prefs=prefs.but(owed=prefs.owed.paid(game)))
            self.rolled(face)
            self.save_prefs()
            return
        self.set(waiting=Waiting.FACE)
        self.do(NeedFace())

    def rolled(self, face: int) -> None:
        """First frame out, then the roll on disk, then (after the tumble) the result."""
        config = self.state.fixed.config
        frames = (max(1, round(config.timings.animation / FRAME))
                  if self.state.fixed.animate and config.timings.animation > 0 else 0)
        self.set(now=Animate(self.game.state.to_move or 0, 0, frames))
        self.cancel(TimerKind.SAVE_FAILED)  # not over the die: once its result is out
        if frames:
            self.tumble()
            self.draw_now()  # the die tumbles at once; its frames show nothing of the roll
        if self.state.prefs.voice:  # what was being said is over: the die is rolling
            self.do(Hush())
        self.do(Chime(Tune.ROLL))
        self.commit(self.game.play(Roll(face)))
        if frames:
            self.after(TimerKind.FRAME if frames > 1 else TimerKind.REVEAL, FRAME)
        else:
            self.reveal()

    def frame(self) -> None:
        self.tumble()
        animate = self.state.now
        assert isinstance(animate, Animate)
        more = animate.frame < animate.frames
        self.after(TimerKind.FRAME if more else TimerKind.REVEAL, FRAME)

    def tumble(self) -> None:
        # The die stays put and only its pips change: a frame costs the bus little.
        animate = self.state.now
        assert isinstance(animate, Animate)
        self.set(now=dataclasses.replace(animate, frame=animate.frame + 1))
        self.fresh()

    def commit(self, game: Game) -> None:
        """The game moves on: on disk first (if the disk lets us), then in memory."""
        self.write(Save(game))
        self.set(game=game)

    def reveal(self) -> None:
        game = self.game
        self.lights(game.state.to_move)
        self.show_result()
        self.speak(self.s.result(game, self.state.prefs.story))
        for event in game.events:
            if isinstance(event, ev.Parrot):
                self.do(Chime(Tune.PARROT))
            elif isinstance(event, ev.Eliminated):
                self.do(Chime(Tune.DEATH))
            elif isinstance(event, ev.Won):
                self.do(Chime(Tune.WIN))
        self.after(TimerKind.AUDIT, AUDIT_AFTER)  # a roll that comes sooner runs it first
        if self.state.writes.unsaid:  # a write failed while the die tumbled: now it is said
            self.after(TimerKind.SAVE_FAILED, 0.0)

    def audit(self) -> None:
        """The books must balance and the state must be its own replay, before any roll."""
        if self.state.game is None:
            return
        problem = self.state.game.audit()
        if problem and problem != self.state.audit:
            self.do(Log("error", f"audit failed: {problem}"))
            self.flash(Notice.of("audit_failed", detail=problem), 10.0)
        self.set(audit=problem)

    def write(self, write: Write) -> None:
        """A change for the disk: out now, or, while the disk is behind, after the changes
        before it, one at a time (``writes.queued``)."""
        writes, now = queued(self.state.writes, write)
        self.set(writes=writes)
        if now is not None:
            self.do(now)

    def wrote(self, ok: bool, fault: Fault | None) -> None:
        writes = self.state.writes
        if not writes.unsaved:
            return  # an answer to no write
        if ok:
            writes, then = taken(writes)
            if then is not None:
                self.do(then)
            elif writes.failing is not None:
                writes = dataclasses.replace(writes, failing=None)
                self.cancel(TimerKind.RETRY)
                self.do(Log("info", "saving again: the game is on disk"))
            self.set(writes=writes)
            return
        fault = fault or Fault.IO_ERROR
        if self.state.mode is Mode.OFF:
            self.do(Log("error", f"switched off, shown actions not on disk: "
                                 f"{writes.behind} (cannot save the game: {fault})"))
            self.set(writes=dataclasses.replace(writes, failing=fault))
            return
        self.after(TimerKind.RETRY, RETRY_EVERY)
        if fault is writes.failing:
            return  # said when it began; the panel's badge says it still is
        self.do(Log("error", f"cannot save the game: {fault}"))
        self.set(writes=dataclasses.replace(writes, failing=fault, unsaid=fault))
        if self.state.mode is not Mode.ANIMATE:  # else once the result is out
            self.after(TimerKind.SAVE_FAILED, 0.0)

    # -- menu -------------------------------------------------------------------------

    def open_menu(self) -> None:
        self.cancel(TimerKind.BOOT)  # the title's way to setup ends with the title
        self.back_to_menu(MENU[0])

    def back_to_menu(self, row: Row) -> None:
        self.set(now=Menu(MENU.index(row)))
        self.fresh()

    def menu_press(self, kind: Press) -> None:
        menu = self.state.now
        assert isinstance(menu, Menu)
        if kind is Press.SHORT:
            self.set(now=Menu((menu.row + 1) % len(MENU)))
            return
        prefs = self.state.prefs
        match row := MENU[menu.row]:
            case Row.BACK:
                self.resume()
            case Row.REPEAT:
                self.repeat()
            case Row.UNDO:
                self.ask_undo()
            case Row.STANDINGS | Row.ABOUT:
                if row is Row.ABOUT or self.state.game is not None:
                    self.set(now=Info(row))
                    self.fresh()
            case Row.RECALL:
                self.set(waiting=Waiting.RECALL)
                game = self.state.game  # none in play: the last turns of the newest put away
                self.do(NeedRecall(last=game is None or not game.actions))
            case Row.NEW:
                self.new_game(Mode.MENU)
            case Row.BRING_BACK:
                if self.state.writes.unsaved:  # the store would put away the game as on disk
                    self.flash(Notice.of("save_failed", reason=self.state.writes.failing), 3.0)
                    return
                self.set(waiting=Waiting.BACK)
                self.do(BringBack())
            case Row.LANGUAGE:
                language = LANGUAGES[(LANGUAGES.index(prefs.language) + 1) % len(LANGUAGES)]
                self.set(prefs=prefs.but(language=language))
                self.save_prefs()
            case Row.BRIGHTNESS:
                level = next_brightness(prefs.contrast)
                self.set(prefs=prefs.but(contrast=level))
                self.do(Contrast(level))
                self.save_prefs()
            case Row.VOICE:
                self.set(prefs=prefs.but(voice=not prefs.voice))
                if self.state.prefs.voice:
                    self.speak(self.s.switched("voice_on"))
                else:
                    self.do(Hush())
                self.save_prefs()
            case Row.VOLUME | Row.SPEED:
                prefs = (prefs.but(volume=next_step(prefs.volume, VOLUMES)) if row is Row.VOLUME
                         else prefs.but(speed=next_step(prefs.speed, SPEEDS)))
                self.set(prefs=prefs)
                self.do(Voicing(prefs.volume, prefs.speed))
                self.speak(self.s.switched("voice_on"))  # heard as it now sounds
                self.save_prefs()
            case Row.STORY:
                self.set(prefs=prefs.but(story=not prefs.story))
                self.speak(self.s.switched("story_on" if self.state.prefs.story else "story_off"))
                self.save_prefs()
            case Row.ODDS:
                self.set(prefs=prefs.but(odds=not prefs.odds), odds=None, weighing=None)
                self.speak(self.s.switched("odds_on" if self.state.prefs.odds else "odds_off"))
                self.save_prefs()
            case Row.PHONE:
                self.ask_pairing()
            case Row.PHONES:
                if not prefs.phones:
                    self.flash(Notice.of("phones_none"), 3.0)
                    return
                self.set(now=Phones())
                self.fresh()

    def phones_press(self, kind: Press) -> None:
        """The phones list: a short press the next row, a long one forgets the phone under
        the cursor (the list stays, the rest to forget), or every phone, or goes back."""
        listed, phones = self.state.now, self.state.prefs.phones
        assert isinstance(listed, Phones)
        row = phone_cursor(listed.row, len(phones))
        if kind is Press.SHORT:
            self.set(now=Phones((row + 1) % (len(phones) + len(PhoneRow))))
            return
        if row < len(phones):  # listed newest first
            self.keep_phones(tuple(p for p in phones if p != phones[-1 - row]))
            self.flash(Notice.of("phone_forgotten"), 3.0)
            if self.state.prefs.phones:
                self.set(now=Phones(min(row, len(self.state.prefs.phones) - 1)))
                return
        elif PhoneRow.FORGET_ALL is list(PhoneRow)[row - len(phones)]:
            self.keep_phones(())
            self.flash(Notice.of("phones_forgotten"), 3.0)
        self.back_to_menu(Row.PHONES)

    def repeat(self) -> None:
        """The last result from page 1, and said again (voice on)."""
        game = self.state.game
        if game is not None and game.actions:
            self.resume()
            self.speak(self.s.result(game, self.state.prefs.story))

    # -- phones -----------------------------------------------------------------------

    def ask_pairing(self) -> None:
        """A code on the panel for a phone to pair with (made by the shell: chance), if
        the companion page is there to take it."""
        if self.state.mode in (Mode.STUCK, Mode.OFF) or self.state.waiting is not None:
            return
        if not self.state.address:
            self.flash(Notice.of("no_web"), 4.0)
            return
        self.set(waiting=Waiting.CODE)
        self.do(NeedCode())

    def unpair(self) -> None:
        self.cancel(TimerKind.PAIR)
        self.set(pairing=None)
        self.on_panel(page=0)

    def paired(self, proof: str, phone: str, kind: str = "", day: int = 0) -> None:
        """A phone paired with the code (or its QR token) on the panel, or with the first
        boot's owner code while no phone is paired: kept, and the code used up. Anything
        else is not a pairing."""
        pairing, prefs, fixed = self.state.pairing, self.state.prefs, self.state.fixed
        owner = bool(fixed.owner) and not prefs.phones and proof == fixed.owner
        shown = pairing is not None and proof in (pairing.digits, pairing.token)
        if not (owner or shown) or not is_phone(phone):
            self.do(Log("warning", "a phone offered a pairing code the panel does not show"))
            return
        if owner:
            self.set(fixed=dataclasses.replace(fixed, owner=""))
            self.do(OwnerCodeUsed())
        kept = tuple(p for p in prefs.phones if p.digest != phone and not p.expired(day))
        phones = (*kept, Phone(phone, kind, day, day))[-PHONES_MOST:]
        self.unpair()
        self.set(prefs=prefs.but(phones=phones))
        self.save_prefs()
        self.flash(Notice.of("phone_paired"), 3.0)

    def phone_used(self, phone: str, day: int) -> None:
        """A paired phone's first use of ``day``: its last use, and those unused for too
        long forgotten (a clock behind forgets none, and never makes a use older)."""
        self.keep_phones(tuple(
            dataclasses.replace(p, used=max(p.used, day)) if p.digest == phone else p
            for p in self.state.prefs.phones if p.digest == phone or not p.expired(day)))

    def forget_phone(self, phone: str) -> None:
        """One phone forgotten (from the page's list): its session ends."""
        self.keep_phones(tuple(p for p in self.state.prefs.phones if p.digest != phone))

    def keep_phones(self, phones: tuple[Phone, ...]) -> None:
        """``phones`` the paired ones, and saved, if that changes them."""
        if phones != self.state.prefs.phones:
            self.set(prefs=self.state.prefs.but(phones=phones))
            self.save_prefs()

    def brought(self, game: Game | None, fault: Fault | None) -> None:
        if game is None:
            self.flash(Notice.of("save_failed", reason=fault) if fault
                       else Notice.of("nothing_to_bring_back"), 3.0)
            return
        # (with any face owed to it: Owed)
        self.set(game=game, writes=dataclasses.replace(self.state.writes, disk=game))
        self.resume()
        self.speak(self.s.resumed(game))
        self.flash(Notice.of("brought_back"), 3.0)

    def recalled(self, finished: Sequence[screens.PastGame], last: Game | None) -> None:
        self.set(now=Info(Row.RECALL, tuple(finished), last=last))
        self.fresh()

    def ask_undo(self) -> None:
        game = self.state.game
        if game is None or not game.actions:
            self.flash(Notice.of("nothing_to_undo"), 2.0)
            return
        self.set(now=Asking(Question.UNDO))
        self.fresh()

    def undo(self) -> None:
        game = self.state.game
        if game is None or not game.actions:
            self.back_to_menu(Row.UNDO)
            return
        what = screens.action_said(self.w, game.events)  # no turn number
        last = game.actions[-1]
        self.commit(game.undo())
        if isinstance(last, Roll):  # its face comes again at the next roll from here
            prefs = self.state.prefs
            self.set(prefs=prefs.but(owed=prefs.owed.owe(self.game, last.face)))
            self.save_prefs()
        self.do(Log("info", f"undone: {what}"))
        self.resume()
        self.speak(self.s.turn(self.game.state))
        self.flash(Notice.of("undone", what=what), 3.0)

    def save_prefs(self) -> None:
        self.do(SavePrefs(self.state.prefs))

    def speak(self, text: str, after: bool = False) -> None:
        """Say ``text`` if the voice is on (a text about nothing is not said); ``after``:
        once what is being said is out, not over it."""
        if self.state.prefs.voice and text:
            self.said = [Say(text, self.state.prefs.language, after)]  # the newest cuts

    # -- the panel --------------------------------------------------------------------

    def fresh(self) -> None:
        """A new screen: from its first page, none of it seen yet."""
        self.on_panel(page=0, seen=-1)
        self.paging = True

    def unread(self) -> bool:
        """Show the next page of the result's money and instructions if a press would
        otherwise skip it (a quick roll); False when there is nothing left unread."""
        _, last = self.state.fixed.measure(view(self.state))
        if self.state.panel.seen >= last:
            return False
        self.on_panel(page=self.state.panel.seen + 1)
        self.paging = True
        return True

    def flash(self, notice: Notice, seconds: float = 4.0) -> None:
        """Show a message for a while, then the screen under it again."""
        self.on_panel(flash=notice)
        self.paging = True  # the screen underneath must not page over the message
        self.after(TimerKind.FLASH, seconds)

    def unflash(self) -> None:
        """The message's time is up (or a press ended it): the screen under it, from its
        first page."""
        self.cancel(TimerKind.FLASH)
        self.on_panel(flash=None, page=0)
        self.paging = True

    def draw_now(self) -> None:
        """Put the view on the panel now if it is not there already (not only at the end
        of the step)."""
        shown = (view(self.state), self.state.panel.page)
        there = (self.drawn if self.drawn is not None
                 else (view(self.before), self.before.panel.page))
        if self.redrawn or shown != there:
            self.do(Draw(*shown))
        self.drawn, self.redrawn = shown, False
        over = self.state.panel.flash or self.state.trial or self.state.pairing
        if over is None and self.state.panel.page > self.state.panel.seen:
            self.on_panel(seen=self.state.panel.page)  # on the panel now, not under a message, a
            # phone's panel on trial or a pairing code

    def weighed(self) -> bool:
        """Whether the screen now is one of the game's decision: where odds are shown."""
        game = self.state.game
        return (self.state.prefs.odds and game is not None
                and game.state.pending in CHOICES and isinstance(self.state.now, Play))

    def settle(self) -> None:
        """The step's end: the odds asked for if a decision is on the screen and they are
        on, the view drawn if it changed, what it says said, the page timer set for it."""
        game = self.state.game
        if game is not None and self.weighed() and self.state.weighing != game:
            self.set(weighing=game)
            self.do(NeedOdds(game))
        self.draw_now()
        self.do(*self.said)
        if self.paging:
            assert self.drawn is not None  # draw_now keeps the view it drew: not made again
            pages, _ = self.state.fixed.measure(self.drawn[0])
            if self.state.panel.flash is None and pages > 1:
                self.after(TimerKind.PAGE, self.state.fixed.config.timings.page)
            else:
                self.cancel(TimerKind.PAGE)

    def lights(self, seat: int | None) -> None:
        game = self.state.game
        self.do(Light(seat, game.seats if game is not None else self.state.seats))

    def idle(self) -> None:
        timings = self.state.fixed.config.timings
        self.after(TimerKind.DIM, timings.dim_after)
        self.after(TimerKind.BLANK, timings.blank_after)

