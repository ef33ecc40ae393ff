"""The table's rules of interaction as one pure step: ``step(state, input) -> (state, effects)``.

What a press means in each mode, when the game is saved, which page shows, what a
timer does when it fires: all decided here, from values, with no device, disk,
clock or die. The shell (``firmware.table.table``) turns gpiozero's callbacks
into inputs, runs the effects in order and feeds the answers back (the die's
face, whether a write reached the disk, the finished games for Recall).

>>> from firmware.config import Config
>>> state = initial(Fixed(Config(), measure=lambda screen: (1, 0)))
>>> state, effects = step(state, Start(game=None, seats=(1, 2)))
>>> state.mode, [type(e).__name__ for e in effects][-3:]
(<Mode.TITLE: 'title'>, ['Draw', 'Cancel', 'After'])
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from firmware.config import Config
from firmware.display import screens
from firmware.display.screen import Screen
from firmware.display.words import Words
from firmware.runtime.tunes import Tune
from firmware.speech import said
from firmware.table.menu import MENU, Row, labels
from firmware.table.names import PREF as NAMES_PREF
from firmware.table.names import from_pref as kept_names
from robinson_core import (
    CHOICES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEATS,
    Choice,
    Game,
    Pending,
    Roll,
    Status,
)
from robinson_core import events as ev
from robinson_core.game import MAX_ACTIONS
from robinson_core.numbers import whole_number
from robinson_core.texts import LANGUAGES

BRIGHTNESS = (255, 128, 48, 8)
FRAME = 0.08  # seconds per animation frame
TUMBLE = (3, 5, 2, 6, 1, 4)  # faces the tumbling die shows: looks only, not the roll
ROLLING_CHOICES = (Choice.ROLL, Choice.AGAIN)  # decisions whose answer is to roll
AUDIT_AFTER = 0.05  # after the result is out, not on its way


class Press(enum.Enum):
    """What a press of the ROLL button was, by how long it was held."""

    SHORT = "short"  # roll, confirm, the default choice
    LONG = "long"  # the other choice (>= long_press seconds)
    MENU = "menu"  # the menu (>= menu_press seconds)


class Mode(enum.Enum):
    """What a press means now."""

    STUCK = "stuck"  # the button was down at start: waiting for it to be let go
    TITLE = "title"
    SETUP = "setup"
    PLAY = "play"
    ANIMATE = "animate"
    MENU = "menu"
    UNDO = "undo"  # asking whether to undo
    ABANDON = "abandon"  # asking whether to put a game in progress away
    INFO = "info"  # standings, recall, about: any press goes back


class TimerKind(enum.Enum):
    """The table's timers: arming one again replaces it."""

    BOOT = "boot"  # the title goes on to setup by itself
    PAGE = "page"  # the next page of a long screen
    FLASH = "flash"  # a message's time is up: the screen under it again
    SAVE_FAILED = "save_failed"  # say a write failed, once the moment's screen is out
    FRAME = "frame"  # the tumbling die's next frame
    REVEAL = "reveal"  # the roll's result
    AUDIT = "audit"  # the books checked, once the result is out
    DIM = "dim"
    BLANK = "blank"
    SHIFT = "shift"  # burn-in: the panel moves a pixel
    NOTE = "note"  # the buzzer's next note (the outputs' own)


class Saver(enum.Enum):
    """The screen saver: a press that wakes the panel does nothing else."""

    AWAKE = "awake"
    DIM = "dim"
    BLANK = "blank"


NOTHING = Screen()
Measure = Callable[[Screen], tuple[int, int]]
"""A screen's page count and its last page with an essential line, on this panel."""


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


@dataclass(frozen=True)
class TableState:
    """Everything a press is read against."""

    fixed: Fixed
    mode: Mode = Mode.TITLE
    game: Game | None = None
    lang: str = "en"
    contrast: int = 255
    seats: tuple[int, ...] = ()  # switched on, as settled
    first: int | None = None  # the starting seat chosen in setup
    screen: Screen = NOTHING
    page: int = 0
    seen: int = 0  # the furthest page of this screen that has been on the panel
    hint: str | None = None  # the footer while the button is held
    ask_next: bool = False  # a press shows the decision screen of the next player
    row: int = 0  # the menu's cursor
    audit: str | None = None  # what the last audit found wrong
    notes: tuple[str, ...] = ()  # problems to tell the table once, on the title
    swallow: bool = False  # the press that woke the panel: it does nothing else
    down_in_animation: bool = False  # a press begun while the die tumbled: never a roll
    saver: Saver = Saver.AWAKE
    armed: frozenset[TimerKind] = frozenset()
    roller: int = 0  # whose die is tumbling
    frame: int = 0  # the tumbling die's frame to draw next, and how many
    frames: int = 0
    under: Screen = NOTHING  # the screen a message covers
    failed: str = ""  # why the last write failed, to be said
    wants_face: bool = False  # a roll waits for the die
    wants_recall: bool = False
    wants_back: bool = False  # the store is bringing a game back
    owed: tuple[int, ...] = ()  # faces of rolls taken back: the next rolls show them, last first
    names: tuple[tuple[int, str], ...] = ()  # set with robinson names: before the config's
    asked_from: Mode = Mode.TITLE  # where "no" to abandoning goes back to
    voice: bool = False  # the banker speaks
    story: bool = False  # and reads each square's story


# -- inputs --------------------------------------------------------------------------


HALT_CONTRAST = 1  # the panel's, on the frame left after a stop


@dataclass(frozen=True)
class Start:
    """The table switched on: the saved game, the seats, the saved preferences."""

    game: Game | None
    seats: tuple[int, ...] = ()
    problem: str = ""  # what was wrong with the saved games
    stuck: bool = False  # the button is down already
    prefs: tuple[tuple[str, str], ...] = ()
    contrast: int = 255  # the panel's, before any preference
    fault: str = ""  # why nothing can be saved (a full disk...): the game goes on unsaved
    volatile: str = ""  # the file system the saves are on, if a reboot empties it (tmpfs)


@dataclass(frozen=True)
class Down:
    """The button went down (settled)."""


@dataclass(frozen=True)
class Held:
    """The button, still down, passed a threshold: letting go now would be ``kind``."""

    kind: Press


@dataclass(frozen=True)
class Unstuck:
    """A button that was down at start was let go."""


@dataclass(frozen=True)
class Pressed:
    """The button was let go: a press of ``kind``."""

    kind: Press


@dataclass(frozen=True)
class SeatsChanged:
    """A seat switch settled ``on`` or off."""

    seat: int
    on: bool
    seats: tuple[int, ...]  # every seat switched on now


@dataclass(frozen=True)
class TimerFired:
    """A timer the machine armed is due."""

    kind: TimerKind


@dataclass(frozen=True)
class Face:
    """The die's answer to ``NeedFace``."""

    face: int


@dataclass(frozen=True)
class Wrote:
    """The disk's answer to ``Save``, ``Begin`` or ``PutAway``."""

    ok: bool
    reason: str = ""


@dataclass(frozen=True)
class Recalled:
    """The store's answer to ``NeedRecall``: the newest finished games first."""

    finished: tuple[screens.PutAway, ...]


@dataclass(frozen=True)
class Brought:
    """The store's answer to ``BringBack``: the game now in play, or None (with why, if
    the disk refused)."""

    game: Game | None
    reason: str = ""


@dataclass(frozen=True)
class Begin:
    """A game handed to the table (a test, the bench): it is saved and played."""

    game: Game


@dataclass(frozen=True)
class Stop:
    """The table is switched off (the game is already on disk)."""


Input = (Start | Down | Held | Unstuck | Pressed | SeatsChanged | TimerFired | Face | Wrote
         | Recalled | Brought | Begin | Stop)


# -- effects -------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Put page ``page`` of ``screen`` on the panel."""

    screen: Screen
    page: int = 0


@dataclass(frozen=True)
class Save:
    """The game as it now stands, on disk (answered by ``Wrote``)."""

    game: Game


@dataclass(frozen=True)
class BeginGame:
    """A new game on disk, whatever was in play put away (answered by ``Wrote``)."""

    game: Game


@dataclass(frozen=True)
class PutAway:
    """``game`` among the finished ones and ``then`` in play, in one change (``Wrote``)."""

    game: Game
    then: Game | None = None


@dataclass(frozen=True)
class NeedFace:
    """Roll the die; answer with ``Face``."""


@dataclass(frozen=True)
class NeedRecall:
    """Read the finished games; answer with ``Recalled``."""


@dataclass(frozen=True)
class BringBack:
    """The newest game put away unfinished back in play, the one in play (if begun) put
    away in its place, in one change; answer with ``Brought``."""


@dataclass(frozen=True)
class Chime:
    """Play a tune on the buzzer (if there is one)."""

    tune: Tune


@dataclass(frozen=True)
class Say:
    """Say ``text`` aloud in ``lang``, cutting short whatever is being said."""

    text: str
    lang: str


@dataclass(frozen=True)
class Hush:
    """Stop saying anything."""


@dataclass(frozen=True)
class Light:
    """Light ``seat``'s LED (if it plays in ``seats``) and no other."""

    seat: int | None
    seats: tuple[int, ...]


@dataclass(frozen=True)
class After:
    """Arm the timer ``kind`` (again): it fires in ``seconds``."""

    kind: TimerKind
    seconds: float


@dataclass(frozen=True)
class Cancel:
    """Disarm the timer ``kind``."""

    kind: TimerKind


@dataclass(frozen=True)
class CancelAll:
    """Disarm every timer (the table stops)."""


@dataclass(frozen=True)
class Dim:
    """Turn the panel down (the screen saver's first step)."""


@dataclass(frozen=True)
class Blank:
    """Blank the panel (burn-in): the next press only wakes it."""


@dataclass(frozen=True)
class Wake:
    """The panel at its contrast again."""


@dataclass(frozen=True)
class Shift:
    """Move the picture a pixel (burn-in)."""


@dataclass(frozen=True)
class Contrast:
    """The panel's contrast (the menu's brightness)."""

    level: int


@dataclass(frozen=True)
class SavePrefs:
    """Keep the language, brightness, voice and storyteller for the next start."""

    prefs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Log:
    """A line for the journal."""

    level: str  # "info", "warning", "error"
    text: str


Effect = (Draw | Save | BeginGame | PutAway | NeedFace | NeedRecall | BringBack | Chime | Say
          | Hush | Light | After | Cancel | CancelAll | Dim | Blank | Wake | Shift | Contrast
          | SavePrefs | Log)
WRITES = (Save, BeginGame, PutAway)


def initial(fixed: Fixed) -> TableState:
    """The table before ``Start``."""
    return TableState(fixed=fixed, lang=fixed.lang or fixed.config.language)


def step(state: TableState, event: Input) -> tuple[TableState, list[Effect]]:
    """What ``event`` does to the table: the new state and the effects, in order."""
    moment = _Moment(state)
    moment.take(event)
    return moment.state, moment.effects


@functools.lru_cache(maxsize=16)
def _words(lang: str, names: tuple[tuple[int, str], ...]) -> Words:
    return Words(lang, dict(names))


def words(state: TableState) -> Words:
    """The table's language and the seats' names (kept ones first, then the config's)."""
    config, kept = state.fixed.config, dict(state.names)
    names = tuple((seat, n) for seat in SEATS if (n := kept.get(seat) or config.seat_name(seat)))
    return _words(state.lang, names)


def brightness_step(contrast: int) -> int:
    """Which of the BRIGHTNESS steps ``contrast`` is nearest to (0 = brightest)."""
    return min(range(len(BRIGHTNESS)), key=lambda i: abs(BRIGHTNESS[i] - contrast))


def menu_labels(state: TableState) -> list[str]:
    level = f"{len(BRIGHTNESS) - brightness_step(state.contrast)}/{len(BRIGHTNESS)}"
    return labels(words(state), language=state.lang, level=level, voice=state.voice,
                  story=state.story)


SWITCHED = {"on": True, "off": False}  # a switch as the prefs keep it


class _Moment:
    """One step in the making: the state as it changes and the effects said so far."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.effects: list[Effect] = []

    # -- bookkeeping ------------------------------------------------------------------

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
                if self.state.mode is Mode.STUCK:
                    self.boot()
            case Pressed(kind):
                self.pressed(kind)
            case SeatsChanged(seat, _, seats):
                self.seat_changed(seat, seats)
            case TimerFired(kind):
                if kind in self.state.armed:
                    self.set(armed=self.state.armed - {kind})
                    self.fired(kind)
            case Face(face):
                if self.state.wants_face:
                    self.set(wants_face=False)
                    self.rolled(face)
            case Wrote(ok, reason):
                self.wrote(ok, reason)
            case Recalled(finished):
                if self.state.wants_recall:
                    self.set(wants_recall=False)
                    self.recalled(finished)
            case Brought(game, reason):
                if self.state.wants_back:
                    self.set(wants_back=False)
                    self.brought(game, reason)
            case Begin(game):
                self.begin(game)
            case Stop():
                self.stop()

    def start(self, start: Start) -> None:
        fixed, prefs = self.state.fixed, dict(start.prefs)
        saved = prefs.get("language", "")
        lang = fixed.lang or (saved if saved in LANGUAGES else fixed.config.language)
        names, wrong = kept_names(prefs.get(NAMES_PREF, ""))
        voice = fixed.config.voice
        self.set(game=start.game, seats=start.seats, lang=lang, contrast=start.contrast,
                 owed=owed_faces(prefs.get("owed", ""), start.game), names=names,
                 voice=fixed.voice if fixed.voice is not None
                 else SWITCHED.get(prefs.get("voice", ""), voice.enabled),
                 story=SWITCHED.get(prefs.get("story", ""), voice.storyteller))
        for why in wrong:
            self.do(Log("warning", f"kept names: {why}"))
        contrast = whole_number(prefs.get("contrast", ""))
        if contrast is not None and 1 <= contrast <= 255:
            self.set(contrast=contrast)
            self.do(Contrast(contrast))
        notes = []
        if start.problem:
            self.do(Log("warning", f"saved game: {start.problem}"))
            notes.append(self.w("save_damaged", problem=start.problem))
        if start.fault:  # said at every action too, as any failed save is
            self.set(failed=start.fault)
            notes.append(self.w("save_failed", reason=start.fault))
        if start.volatile:
            notes.append(self.w("saves_vanish", kind=start.volatile))
        if fixed.fonts_missing:
            notes.append(self.w("about_fonts", packages=fixed.fonts_missing))
        if fixed.seeded:
            notes.append(self.w("seeded_note"))
        self.set(notes=tuple(notes))
        self.idle()
        self.after(TimerKind.SHIFT, fixed.config.timings.shift_every)
        if start.stuck:
            self.set(mode=Mode.STUCK)
            self.show(screens.message_screen("ROBINSON", self.w("release_button")))
            return
        self.boot()

    def boot(self) -> None:
        self.set(mode=Mode.TITLE)
        game = self.state.game
        resume = game is not None and bool(game.actions)
        self.show(screens.title_screen(self.w, resume, self.state.notes, self.state.fixed.badge))
        if not resume:  # nothing to resume: on to setup by itself
            self.after(TimerKind.BOOT, 2.0 + 2.0 * len(self.state.notes))
        self.set(notes=())

    def stop(self) -> None:
        self.set(armed=frozenset())
        self.do(CancelAll())
        if self.state.voice:
            self.do(Hush())
        self.do(Wake())
        self.set(saver=Saver.AWAKE)
        self.show(screens.message_screen("ROBINSON", self.w("switched_off")))
        # A Pi that halts without cutting power (Pi 3, Zero 2, a Pi 4/5 with
        # POWER_OFF_ON_HALT=0) leaves this frame lit for days: at the least contrast,
        # it reads up close and burns in least. The next start sets it back.
        self.do(Contrast(HALT_CONTRAST))
        self.lights(None)

    def down(self) -> None:
        self.set(down_in_animation=self.state.mode is Mode.ANIMATE)
        if self.state.saver is not Saver.AWAKE:
            self.set(swallow=True, saver=Saver.AWAKE)  # a waking press does nothing else
            self.do(Wake())
        self.idle()

    def held(self, kind: Press) -> None:
        state = self.state
        if state.swallow or state.mode in (Mode.ANIMATE, Mode.STUCK):
            return
        if kind is Press.MENU:
            self.set(hint=self.w("let_go_menu"))
            self.draw()
        elif (state.mode is Mode.PLAY and state.game
              and state.game.state.pending in CHOICES and not state.ask_next):
            pending = state.game.state.pending
            other = self.w.option(pending, CHOICES[pending][1])
            self.set(hint=self.w("let_go_long", action=other))
            self.draw()

    def pressed(self, kind: Press) -> None:
        if self.state.hint is not None:  # let go: the hint has said its piece
            self.set(hint=None)
            self.draw()
        if self.state.swallow:
            self.set(swallow=False)
            self.draw()
            return
        if self.state.mode is Mode.ANIMATE or self.state.down_in_animation:
            self.set(down_in_animation=False)
            return  # never queued into a second roll
        self.cancel(TimerKind.FLASH)
        mode = self.state.mode
        if kind is Press.MENU and mode is not Mode.STUCK:
            self.resume() if mode is Mode.MENU else self.open_menu()
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
            case Mode.UNDO:
                self.undo_press(kind)
            case Mode.ABANDON:
                self.abandon_press(kind)
            case Mode.INFO:
                self.back_to_menu()

    def seat_changed(self, seat: int, seats: tuple[int, ...]) -> None:
        self.set(seats=seats)
        self.idle()
        if self.state.saver is not Saver.AWAKE:
            self.set(saver=Saver.AWAKE)
            self.do(Wake())
        if self.state.mode is Mode.SETUP:
            self.setup()
        elif self.state.mode is Mode.PLAY:
            self.flash(self.w("seats_locked", seat=seat))

    def fired(self, kind: TimerKind) -> None:
        match kind:
            case TimerKind.BOOT:
                self.setup()
            case TimerKind.PAGE:
                self.set(page=self.state.page + 1, seen=max(self.state.seen, self.state.page + 1))
                self.draw()
                self.after(TimerKind.PAGE, self.state.fixed.config.timings.page)
            case TimerKind.FLASH:
                self.show(self.state.under)
            case TimerKind.SAVE_FAILED:
                self.flash(self.w("save_failed", reason=self.state.failed), 6.0)
            case TimerKind.FRAME:
                self.frame()
            case TimerKind.REVEAL:
                self.reveal()
            case TimerKind.AUDIT:
                self.audit()
            case TimerKind.DIM:
                self.set(saver=Saver.DIM)
                self.do(Dim())
            case TimerKind.BLANK:
                self.set(saver=Saver.BLANK)
                self.do(Blank())
            case TimerKind.SHIFT:
                self.do(Shift())
                self.after(TimerKind.SHIFT, self.state.fixed.config.timings.shift_every)

    # -- screens ----------------------------------------------------------------------

    def show(self, screen: Screen) -> None:
        self.set(screen=screen, page=0, seen=0)
        self.draw()
        self.cancel(TimerKind.PAGE)
        pages, _ = self.state.fixed.measure(screen)
        if pages > 1:
            self.after(TimerKind.PAGE, self.state.fixed.config.timings.page)

    def draw(self) -> None:
        screen = self.state.screen
        if self.state.hint is not None:  # while the button is held: what letting go will do
            screen = dataclasses.replace(screen, footer=self.state.hint)
        self.do(Draw(screen, self.state.page))

    def unread(self) -> bool:
        """Show the next page of the result's money and instructions if a press would
        otherwise skip it (a quick roll); False when there is nothing left unread."""
        _, last = self.state.fixed.measure(self.state.screen)
        if self.state.seen >= last:
            return False
        self.set(page=self.state.seen + 1, seen=self.state.seen + 1)
        self.draw()
        self.after(TimerKind.PAGE, self.state.fixed.config.timings.page)
        return True

    def flash(self, text: str, seconds: float = 4.0) -> None:
        """Show a message for a while, then what was there."""
        self.cancel(TimerKind.PAGE)  # the screen underneath must not page over the message
        self.set(under=self.state.screen)
        self.do(Draw(screens.message_screen(self.w("notice"), text)))
        self.after(TimerKind.FLASH, seconds)

    def lights(self, seat: int | None) -> None:
        game = self.state.game
        self.do(Light(seat, game.seats if game is not None else self.state.seats))

    def idle(self) -> None:
        timings = self.state.fixed.config.timings
        self.after(TimerKind.DIM, timings.dim_after)
        self.after(TimerKind.BLANK, timings.blank_after)

    # -- title and setup --------------------------------------------------------------

    def title_press(self, kind: Press) -> None:
        self.cancel(TimerKind.BOOT)
        game = self.state.game
        if kind is Press.SHORT and game is not None and game.actions:
            self.resume()
            self.speak(said.resumed(game, self.state.lang, self.w.given))
        else:
            self.new_game(Mode.TITLE)

    def new_game(self, asked_from: Mode) -> None:
        """Put the current game away and set up a new one; a game in progress only once
        the table said yes to abandoning it."""
        game = self.state.game
        if game is not None and game.actions and game.state.status is Status.PLAYING:
            self.set(mode=Mode.ABANDON, asked_from=asked_from)
            self.show(Screen(title=self.w("abandon_title"), body=(self.w("abandon_what"),),
                             footer=self.w("keys_yes_no")))
            return
        self.abandon()

    def abandon_press(self, kind: Press) -> None:
        if kind is Press.LONG:
            self.abandon()
        elif self.state.asked_from is Mode.MENU:
            self.back_to_menu()
        else:
            self.boot()

    def abandon(self) -> None:
        if self.state.game is not None:
            self.do(PutAway(self.state.game))
        self.set(game=None, owed=())
        self.prefs()
        self.setup()

    def setup(self) -> None:
        self.cancel(TimerKind.BOOT)
        self.set(mode=Mode.SETUP)
        seats, first = self.state.seats, self.state.first
        if first not in seats:
            self.set(first=seats[0] if seats else None)
        self.lights(self.state.first)
        config = self.state.fixed.config
        self.show(screens.setup_screen(self.w, seats, self.state.first, config.rules,
                                       self.state.fixed.badge, wired=len(config.pins.seats)))
        ready = MIN_PLAYERS <= len(seats) <= MAX_PLAYERS
        self.speak(said.setup(seats, self.state.first, self.state.lang, self.w.given, ready))

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
        self.do(BeginGame(game))
        self.resume()
        self.speak(said.begun(game, self.state.lang, self.w.given))

    # -- play -------------------------------------------------------------------------

    def resume(self) -> None:
        """Back to the game as it stands."""
        if self.state.game is None:
            self.setup()
            return
        self.set(mode=Mode.PLAY)
        self.lights(self.game.state.to_move)
        self.show_result()
        self.audit()

    def show_result(self) -> None:
        """The last action's result; if another player must decide next, a press shows
        their decision screen, headed by them (``ask_next``)."""
        game = self.game
        who = screens.decider(game.state)
        self.set(ask_next=who is not None and who != screens.mover(game))
        self.show(screens.result_screen(self.w, game, self.state.fixed.badge))

    def play_press(self, kind: Press) -> None:
        game = self.game
        state = game.state
        if self.unread():  # a quick press: the money and instructions first, never skipped
            return
        if self.state.ask_next:  # another player decides: their screen, then their choice
            self.set(ask_next=False)
            self.show(screens.turn_screen(self.w, state, self.state.fixed.badge))
            return
        if state.status is not Status.PLAYING:
            if kind is Press.LONG:  # a new game, through setup: the seats as switched now
                self.abandon()
            return
        if TimerKind.AUDIT in self.state.armed:
            self.cancel(TimerKind.AUDIT)
            self.audit()
        if self.state.audit is not None:
            self.flash(self.w("audit_failed", detail=self.state.audit))
            return
        if len(game.actions) >= MAX_ACTIONS:  # one more would make a save no table reads
            self.flash(self.w("too_long", limit=f"{MAX_ACTIONS:,}"))
            return
        if state.pending is Pending.ROLL:
            if kind is Press.SHORT:
                self.roll()
            return
        short, long = CHOICES[state.pending]
        choice = short if kind is Press.SHORT else long
        self.commit(game.play(choice))
        if choice in ROLLING_CHOICES:  # "roll" on 7, "again" on 20: one press, one roll
            self.roll()
        else:
            self.reveal()

    def roll(self) -> None:
        """Ask the die (the face comes back as ``Face``), unless a roll taken back is
        owed: the die's face stands, an undo never buys a new throw."""
        if self.state.owed:
            face, owed = self.state.owed[-1], self.state.owed[:-1]
            self.set(owed=owed)
            self.rolled(face)  # its commit says the faces still owed, if any
            if not owed:
                self.prefs()  # none left: say so once
            return
        self.set(wants_face=True)
        self.do(NeedFace())

    def rolled(self, face: int) -> None:
        """First frame out, then the roll on disk, then (after the tumble) the result."""
        config = self.state.fixed.config
        frames = (max(1, round(config.timings.animation / FRAME))
                  if self.state.fixed.animate and config.timings.animation > 0 else 0)
        self.set(mode=Mode.ANIMATE, roller=self.game.state.to_move or 0, frame=0, frames=frames)
        if frames:
            self.tumble()
        if self.state.voice:  # what was being said is over: the die is rolling
            self.do(Hush())
        self.do(Chime(Tune.ROLL))
        self.commit(self.game.play(Roll(face)))
        if frames:
            self.after(TimerKind.FRAME if frames > 1 else TimerKind.REVEAL, FRAME)
        else:
            self.reveal()

    def frame(self) -> None:
        self.tumble()
        more = self.state.frame < self.state.frames
        self.after(TimerKind.FRAME if more else TimerKind.REVEAL, FRAME)

    def tumble(self) -> None:
        # The die stays put and only its pips change: a frame costs the bus little.
        n = self.state.frame
        screen = screens.rolling_screen(self.w, self.state.roller, TUMBLE[n % len(TUMBLE)], 0,
                                        self.state.fixed.badge)
        self.set(screen=screen, page=0, seen=0, frame=n + 1)
        self.draw()

    def commit(self, game: Game) -> None:
        """The game moves on: on disk first (if the disk lets us), then in memory."""
        self.do(Save(game))
        self.set(game=game)
        if self.state.owed:  # kept by the game's length: say it anew as the game grows
            self.prefs()

    def reveal(self) -> None:
        game = self.game
        self.set(mode=Mode.PLAY)
        self.lights(game.state.to_move)
        self.show_result()
        self.speak(said.result(game, self.state.lang, self.w.given, self.state.story))
        for event in game.events:
            if isinstance(event, ev.Parrot):
                self.do(Chime(Tune.PARROT))
            elif isinstance(event, ev.Eliminated):
                self.do(Chime(Tune.DEATH))
            elif isinstance(event, ev.Won):
                self.do(Chime(Tune.WIN))
        self.after(TimerKind.AUDIT, AUDIT_AFTER)  # a roll that comes sooner runs it first

    def audit(self) -> None:
        """The books must balance and the state must be its own replay, before any roll."""
        if self.state.game is None:
            return
        problem = self.state.game.audit()
        if problem and problem != self.state.audit:
            self.do(Log("error", f"audit failed: {problem}"))
            self.flash(self.w("audit_failed", detail=problem), 10.0)
        self.set(audit=problem)

    def wrote(self, ok: bool, reason: str) -> None:
        if not ok:  # the game goes on; the next change that gets through catches up
            self.do(Log("error", f"cannot save the game: {reason}"))
            self.set(failed=reason)
            self.after(TimerKind.SAVE_FAILED, 0.0)

    # -- menu -------------------------------------------------------------------------

    def open_menu(self) -> None:
        self.cancel(TimerKind.BOOT)  # the title's way to setup ends with the title
        self.set(row=0)
        self.back_to_menu()

    def back_to_menu(self) -> None:
        self.set(mode=Mode.MENU)
        self.show_menu()

    def show_menu(self) -> None:
        self.show(screens.menu_screen(self.w, menu_labels(self.state), self.state.row))

    def menu_press(self, kind: Press) -> None:
        if kind is Press.SHORT:
            self.set(row=(self.state.row + 1) % len(MENU))
            self.show_menu()
            return
        match MENU[self.state.row]:
            case Row.BACK:
                self.resume()
            case Row.UNDO:
                self.ask_undo()
            case Row.STANDINGS:
                if self.state.game is not None:
                    self.set(mode=Mode.INFO)
                    self.show(screens.standings_screen(self.w, self.state.game.state))
            case Row.RECALL:
                self.set(mode=Mode.INFO, wants_recall=True)
                self.do(NeedRecall())
            case Row.NEW:
                self.new_game(Mode.MENU)
            case Row.BRING_BACK:
                self.set(wants_back=True)
                self.do(BringBack())
            case Row.LANGUAGE:
                self.set(lang=LANGUAGES[(LANGUAGES.index(self.state.lang) + 1) % len(LANGUAGES)])
                self.prefs()
                self.show_menu()
            case Row.BRIGHTNESS:
                level = BRIGHTNESS[(brightness_step(self.state.contrast) + 1) % len(BRIGHTNESS)]
                self.set(contrast=level)
                self.do(Contrast(level))
                self.prefs()
                self.show_menu()
            case Row.VOICE:
                self.set(voice=not self.state.voice)
                if self.state.voice:
                    self.speak(said.switched(self.state.lang, "voice_on"))
                else:
                    self.do(Hush())
                self.prefs()
                self.show_menu()
            case Row.STORY:
                self.set(story=not self.state.story)
                self.speak(said.switched(self.state.lang,
                                         "story_on" if self.state.story else "story_off"))
                self.prefs()
                self.show_menu()
            case Row.ABOUT:
                self.about()

    def brought(self, game: Game | None, reason: str) -> None:
        if game is None:
            self.flash(self.w("save_failed", reason=reason) if reason
                       else self.w("nothing_to_bring_back"), 3.0)
            return
        self.set(game=game, owed=())
        self.prefs()
        self.resume()
        self.speak(said.resumed(game, self.state.lang, self.w.given))
        self.flash(self.w("brought_back"), 3.0)

    def recalled(self, finished: Sequence[screens.PutAway]) -> None:
        game = self.state.game
        if game is None or not game.actions:
            game = finished[0].game if finished else None
        self.show(screens.recall_screen(self.w, game, finished))

    def about(self) -> None:
        fixed, w = self.state.fixed, self.w
        self.set(mode=Mode.INFO)
        body = [w("about_version", version=fixed.version),
                w("about_saves", path=fixed.saves),
                f"{fixed.config.display.display} {fixed.config.display.interface}"]
        if fixed.fonts_missing:
            body.append(w("about_fonts", packages=fixed.fonts_missing))
        self.show(Screen(title=w("menu_about"), body=tuple(body), footer=w("keys_back")))

    def ask_undo(self) -> None:
        game = self.state.game
        if game is None or not game.actions:
            self.set(mode=Mode.MENU)
            self.flash(self.w("nothing_to_undo"), 2.0)
            return
        self.set(mode=Mode.UNDO)
        what = screens.action_said(self.w, game.events)  # no turn number
        self.show(Screen(title=self.w("undo_title"), body=(self.w("undo_what", what=what),),
                         footer=self.w("keys_yes_no")))

    def undo_press(self, kind: Press) -> None:
        game = self.state.game
        if kind is Press.LONG and game is not None and game.actions:
            what = screens.action_said(self.w, game.events)  # no turn number
            last = game.actions[-1]
            self.commit(game.undo())
            if isinstance(last, Roll):  # its face comes again at the next roll
                self.set(owed=(*self.state.owed, last.face))
                self.prefs()
            self.do(Log("info", f"undone: {what}"))
            self.resume()
            self.speak(said.turn(self.game.state, self.state.lang,
                                 said.voice_names(self.state.lang, self.w.given)))
            self.flash(self.w("undone", what=what), 3.0)
        else:
            self.back_to_menu()

    def prefs(self) -> None:
        game = self.state.game
        owed = (f"{len(game.actions)}:{' '.join(map(str, self.state.owed))}"
                if game is not None and self.state.owed else "")
        self.do(SavePrefs((("language", self.state.lang), ("contrast", str(self.state.contrast)),
                           ("voice", "on" if self.state.voice else "off"),
                           ("story", "on" if self.state.story else "off"), ("owed", owed))))

    def speak(self, text: str) -> None:
        """Say ``text`` if the voice is on (a text about nothing is not said)."""
        if self.state.voice and text:
            self.do(Say(text, self.state.lang))


def owed_faces(saved: str, game: Game | None) -> tuple[int, ...]:
    """The faces owed to ``game`` as kept in the prefs (``"12:5 3"``: after 12 actions,
    5 then 3 were taken back); none if the game in play is not the one they were owed to."""
    count, _, faces = saved.partition(":")
    words = faces.split()
    if (game is None or whole_number(count) != len(game.actions)
            or not all(w in ("1", "2", "3", "4", "5", "6") for w in words)):
        return ()
    return tuple(int(w) for w in words)
