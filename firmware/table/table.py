"""The table: presses and seat switches in; rolls, the banker's books and screens out.

Everything runs in the loop's thread. The game is saved before its result is
shown: a roll is committed to disk after the first animation frame and
revealed only after that.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import logging
import threading
from collections.abc import Callable, Sequence

from gpiozero import Button, DigitalInputDevice
from PIL import Image

from firmware import __version__
from firmware.config import Config
from firmware.display import screens
from firmware.display.fonts import Fonts
from firmware.display.layout import Layout
from firmware.display.panel import Panel
from firmware.display.render import Screen, essential_page, page_count, render
from firmware.display.words import Words
from firmware.table.buttons import Press, RollButton, SeatSwitches
from firmware.table.die import Die
from firmware.table.loop import Loop, Timers
from firmware.table.menu import Menu, Row
from firmware.table.outputs import Outputs
from firmware.table.store import Store
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
from robinson_core.numbers import whole_number
from robinson_core.texts import LANGUAGES, language_name

log = logging.getLogger("robinson.table")

BRIGHTNESS = (255, 128, 48, 8)
FRAME = 0.08  # seconds per animation frame
TUMBLE = (3, 5, 2, 6, 1, 4)  # faces the tumbling die shows: looks only, not the roll
ROLLING_CHOICES = (Choice.ROLL, Choice.AGAIN)  # decisions whose answer is to roll


@functools.lru_cache(maxsize=64)
def _render(screen: Screen, fonts: Fonts, page: int, layout: Layout) -> Image.Image:
    """Screens repeat (the tumbling die, paging): draw each once. Images are never changed."""
    return render(screen, fonts, page, layout)


class Mode(enum.Enum):
    """What a press means now."""

    STUCK = "stuck"  # the button was down at start: waiting for it to be let go
    TITLE = "title"
    SETUP = "setup"
    PLAY = "play"
    ANIMATE = "animate"
    MENU = "menu"
    UNDO = "undo"  # asking whether to undo
    INFO = "info"  # standings, recall, about: any press goes back


class Table:
    """The banker at the table: presses and seat switches in; rolls, books and screens out.

    A mode machine (``Mode``) in the loop's thread: each press is read as the
    mode it comes in, the game moves by ``robinson_core``, every action is on
    disk before its result is shown, and the panel shows the screen of the moment.
    """

    def __init__(self, *, config: Config, loop: Loop, store: Store, panel: Panel,
                 button: Button, seats: Sequence[DigitalInputDevice],
                 die: Die | None = None,
                 fonts: Fonts | None = None, outputs: Outputs | None = None,
                 lang: str | None = None, animate: bool = True, badge: str = "") -> None:
        self.config = config
        self.loop = loop
        self.store = store
        self.panel = panel
        self.die = die or Die()
        self.fonts = fonts or Fonts()
        self.layout = config.display.layout  # the panel's size class
        self.outputs = outputs or Outputs()
        self.animate = animate and config.timings.animation > 0
        self.badge = badge
        prefs = store.prefs()
        saved = prefs.get("language", "")
        self.lang: str = lang or (saved if saved in LANGUAGES else config.language)
        contrast = whole_number(prefs.get("contrast", ""))
        if contrast is not None and 1 <= contrast <= 255:
            panel.set_contrast(contrast)
        self.words = self._words()
        t = config.timings
        self.button = RollButton(button, loop, debounce=t.debounce, long_press=t.long_press,
                                 menu_press=t.menu_press, on_press=self._pressed,
                                 on_hold=self._holding, on_down=self._down)
        self.seats = SeatSwitches(seats, loop, t.debounce, self._seat_changed)
        self.game: Game | None = None
        self.mode = Mode.TITLE
        self.screen = Screen()
        self.page = 0
        self.seen = 0  # the furthest page of this screen that has been on the panel
        self.hint: str | None = None  # the footer while the button is held
        self.ask_next = False  # a press shows the decision screen of the next player
        self.first: int | None = None  # the starting seat chosen in setup
        self.menu = Menu([
            Row("menu_back", self.resume),
            Row("menu_undo", self._ask_undo),
            Row("menu_standings", self._show_standings),
            Row("menu_recall", self._show_recall),
            Row("menu_new", self.new_game),
            Row("menu_language", self._next_language,
                lambda: {"language": language_name(self.lang)}),
            Row("menu_brightness", self._next_brightness,
                lambda: {"level": f"{len(BRIGHTNESS) - self._brightness_step()}"
                                  f"/{len(BRIGHTNESS)}"}),
            Row("menu_about", self._show_about),
        ])
        self.audit_problem: str | None = None
        self.notes: list[str] = []  # problems to tell the table once
        self.ready = threading.Event()  # set whenever a press would be taken (emulator pacing)
        self._swallow = False
        self._down_in_animation = False
        self.timers = Timers(loop)

    # -- start and stop -----------------------------------------------------------

    def start(self) -> None:
        loaded = self.store.load()
        self.game = loaded.game
        if loaded.problem:
            log.warning("saved game: %s", loaded.problem)
            self.notes.append(self.words("save_damaged", problem=loaded.problem))
        if self.fonts.missing:
            self.notes.append(self.words("about_fonts", packages=self.fonts.missing))
        if self.die.seeded:
            self.notes.append(self.words("seeded_note"))
        self._idle()
        self.timers.every("shift", self.config.timings.shift_every, self.panel.next_shift)
        if self.button.stuck:
            self.mode = Mode.STUCK
            self.show(screens.message_screen("ROBINSON",
                                           self.words("release_button")))
            return
        self._boot()

    def _boot(self) -> None:
        self.mode = Mode.TITLE
        resume = self.game is not None and bool(self.game.actions)
        self.show(screens.title_screen(self.words, resume, self.notes, self.badge))
        if not resume:  # nothing to resume: on to setup by itself
            self.timers.after("boot", 2.0 + 2.0 * len(self.notes), self.setup)
        self.notes = []

    def stop(self) -> None:
        """Leave the panel showing 'switched off' (the game is already on disk)."""
        self.timers.cancel_all()
        self.panel.wake()
        self.show(screens.message_screen("ROBINSON", self.words("switched_off")))
        self._lights(None)

    # -- screens ------------------------------------------------------------------

    def show(self, screen: Screen) -> None:
        self.screen, self.page, self.seen = screen, 0, 0
        self._draw()
        self.timers.cancel("page")
        if page_count(screen, self.fonts, self.layout) > 1:
            self.timers.every("page", self.config.timings.page, self._next_page)
        if self.mode is not Mode.ANIMATE:
            self.ready.set()

    def _draw(self) -> None:
        screen = self.screen
        if self.hint is not None:  # while the button is held: what letting go will do
            screen = dataclasses.replace(screen, footer=self.hint)
        self._put(_render(screen, self.fonts, self.page, self.layout))

    def _put(self, image: Image.Image) -> None:
        """Onto the panel (which keeps trying by itself while it does not answer)."""
        self.panel.show(image)

    def _next_page(self) -> None:
        self.page += 1
        self.seen = max(self.seen, self.page)
        self._draw()

    def _unread(self) -> bool:
        """Show the next page of the result's money and instructions if a press would
        otherwise skip it (a quick roll); False when there is nothing left unread."""
        last = essential_page(self.screen, self.fonts, self.layout)
        if self.seen >= last:
            return False
        self.page = self.seen = self.seen + 1
        self._draw()
        self.timers.every("page", self.config.timings.page, self._next_page)
        return True

    def flash(self, text: str, seconds: float = 4.0) -> None:
        """Show a message for a while, then what was there."""
        screen = self.screen
        self.timers.cancel("page")  # the screen underneath must not page over the message
        self._put(render(screens.message_screen("!", text), self.fonts, 0, self.layout))
        self.timers.after("flash", seconds, lambda: self.show(screen))

    def _words(self) -> Words:
        names = {seat: n for seat in SEATS if (n := self.config.seat_name(seat))}
        return Words(self.lang, names)

    # -- inputs -------------------------------------------------------------------

    def _down(self) -> None:
        self._down_in_animation = self.mode is Mode.ANIMATE
        if self.panel.dimmed or self.panel.blank:
            self._swallow = True  # a waking press does nothing else
            self.panel.wake()
        self._idle()

    def _holding(self, kind: Press | None) -> None:
        if kind is None:  # a button stuck at start was let go
            if self.mode is Mode.STUCK:
                self._boot()
            return
        if self._swallow or self.mode in (Mode.ANIMATE, Mode.STUCK):
            return
        if kind is Press.MENU:
            self.hint = self.words("let_go_menu")
            self._draw()
        elif (self.mode is Mode.PLAY and self.game and self.game.state.pending in CHOICES
              and not self.ask_next):
            pending = self.game.state.pending
            other = self.words.option(pending, CHOICES[pending][1])
            self.hint = self.words("let_go_long", action=other)
            self._draw()

    def _pressed(self, kind: Press) -> None:
        if self.hint is not None:  # let go: the hint has said its piece
            self.hint = None
            self._draw()
        if self._swallow:
            self._swallow = False
            self._draw()
            return
        if self.mode is Mode.ANIMATE or self._down_in_animation:
            self._down_in_animation = False
            return  # never queued into a second roll
        self.timers.cancel("flash")
        if kind is Press.MENU and self.mode is not Mode.STUCK:
            if self.mode is Mode.MENU:
                self.resume()
            else:
                self.open_menu()
            return
        handler = {Mode.TITLE: self._title_press, Mode.SETUP: self._setup_press,
                   Mode.PLAY: self._play_press, Mode.MENU: self._menu_press,
                   Mode.UNDO: self._undo_press, Mode.INFO: self._info_press}.get(self.mode)
        if handler is not None:
            handler(kind)

    def _seat_changed(self, seat: int, on: bool) -> None:
        self._idle()
        if self.panel.blank or self.panel.dimmed:
            self.panel.wake()
        if self.mode is Mode.SETUP:
            self.setup()
        elif self.mode is Mode.PLAY:
            self.flash(self.words("seats_locked", seat=seat))

    # -- title and setup ------------------------------------------------------------

    def _title_press(self, kind: Press) -> None:
        self.timers.cancel("boot")
        if kind is Press.SHORT and self.game is not None and self.game.actions:
            self.resume()
        else:
            self.new_game()

    def new_game(self) -> None:
        """Put the current game away and set up a new one."""
        if self.game is not None:
            self._put_away(self.game)
        self.game = None
        self.setup()

    def setup(self) -> None:
        self.timers.cancel("boot")
        self.mode = Mode.SETUP
        seats = self.seats.occupied()
        if self.first not in seats:
            self.first = seats[0] if seats else None
        self._lights(self.first)
        self.show(screens.setup_screen(self.words, seats, self.first, self.config.rules,
                                       self.badge, wired=len(self.config.pins.seats)))

    def _setup_press(self, kind: Press) -> None:
        seats = self.seats.occupied()
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS or self.first is None:
            return
        if kind is Press.SHORT:  # the youngest starts: pick who that is
            self.first = seats[(seats.index(self.first) + 1) % len(seats)]
            self.setup()
        elif kind is Press.LONG:
            self.begin(Game(seats, self.first, self.config.rules))

    def begin(self, game: Game) -> None:
        self.timers.cancel("boot")  # a game begun during the title must not be sent to setup
        self.game = game
        self._write(self.store.begin, game)
        self.resume()

    # -- play -----------------------------------------------------------------------

    def resume(self) -> None:
        """Back to the game as it stands."""
        if self.game is None:
            self.setup()
            return
        self.mode = Mode.PLAY
        state = self.game.state
        self._lights(state.to_move)
        self._show_result()
        self._audit()

    def _show_result(self) -> None:
        """The last action's result; if another player must decide next, a press shows
        their decision screen, headed by them (``ask_next``)."""
        assert self.game is not None
        screen = screens.result_screen(self.words, self.game, self.badge)
        who = screens.decider(self.game.state)
        self.ask_next = who is not None and who != screens.mover(self.game)
        self.show(screen)

    def _ask(self) -> None:
        """The decision screen of the player who decides, before their choice is taken."""
        assert self.game is not None
        self.ask_next = False
        self.show(screens.turn_screen(self.words, self.game.state, self.badge))

    def _play_press(self, kind: Press) -> None:
        assert self.game is not None
        state = self.game.state
        if self._unread():  # a quick press: the money and instructions first, never skipped
            return
        if self.ask_next:  # another player decides: their screen first, then their choice
            self._ask()
            return
        if state.status is not Status.PLAYING:
            if kind is Press.LONG:  # again, with the same seats: one transaction
                finished, again = self.game, self.game.restart()
                if self._put_away(finished, again):  # else the won game stays, and says why
                    self.game = again
                    self.resume()
            return
        if "audit" in self.timers:
            self.timers.cancel("audit")
            self._audit()
        if self.audit_problem is not None:
            self.flash(self.words("audit_failed", detail=self.audit_problem))
            return
        if state.pending is Pending.ROLL:
            if kind is Press.SHORT:
                self.roll()
            return
        short, long = CHOICES[state.pending]
        choice = short if kind is Press.SHORT else long
        self.commit(self.game.play(choice))
        if choice in ROLLING_CHOICES:  # "roll" on 7, "again" on 20: one press, one roll
            self.roll()
        else:
            self.reveal()

    def roll(self) -> None:
        """Roll the die: first frame out, then the roll on disk, then the result."""
        assert self.game is not None and self.game.state.to_move is not None
        seat = self.game.state.to_move
        face = self.die.roll()
        self.mode = Mode.ANIMATE
        self.ready.clear()
        frames = max(1, round(self.config.timings.animation / FRAME)) if self.animate else 0
        if frames:
            self._frame(seat, 0)
        self.outputs.chime("roll", self.timers)
        self.commit(self.game.play(Roll(face)))
        if not frames:
            self.reveal()
            return
        for n in range(1, frames):
            self.timers.after(f"frame{n}", n * FRAME, functools.partial(self._frame, seat, n))
        self.timers.after("reveal", frames * FRAME, self.reveal)

    def _frame(self, seat: int, n: int) -> None:
        # The die stays put and only its pips change: a frame costs the bus little.
        screen = screens.rolling_screen(self.words, seat, TUMBLE[n % len(TUMBLE)], 0, self.badge)
        self.screen, self.page, self.seen = screen, 0, 0
        self._draw()

    def commit(self, game: Game) -> None:
        """The game moves on: on disk first (if the disk lets us), then in memory."""
        self._save(game)
        self.game = game

    def reveal(self) -> None:
        assert self.game is not None
        self.mode = Mode.PLAY
        self._lights(self.game.state.to_move)
        self._show_result()
        for event in self.game.events:
            if isinstance(event, ev.Parrot):
                self.outputs.chime("parrot", self.timers)
            elif isinstance(event, ev.Eliminated):
                self.outputs.chime("death", self.timers)
            elif isinstance(event, ev.Won):
                self.outputs.chime("win", self.timers)
        # After the result is out, not on its way: a roll that comes sooner runs it first.
        self.timers.after("audit", 0.05, self._audit)

    def _audit(self) -> None:
        """The books must balance and the state must be its own replay, before any roll."""
        if self.game is None:
            return
        problem = self.game.audit()
        if problem and problem != self.audit_problem:
            log.error("audit failed: %s", problem)
            self.flash(self.words("audit_failed", detail=problem), 10.0)
        self.audit_problem = problem

    def _save(self, game: Game) -> None:
        self._write(self.store.save, game)

    def _put_away(self, game: Game, then: Game | None = None) -> bool:
        """Among the finished games, and ``then`` in play: both or neither on disk."""
        return self._write(self.store.put_away, game, then)

    def _write(self, change: Callable[..., None], *games: Game | None) -> bool:
        """A change to the saved games; if the disk refuses it, the game goes on, and
        the table is told (the next change that gets through catches up)."""
        try:
            change(*games)
            return True
        except OSError as error:
            reason = error.strerror or str(error)
            log.error("cannot save the game: %s", reason)
            self.timers.after("savefail", 0.0,
                              lambda: self.flash(self.words("save_failed", reason=reason), 6.0))
            return False

    # -- menu -----------------------------------------------------------------------

    def menu_items(self) -> list[str]:
        return self.menu.labels(self.words)

    def _brightness_step(self) -> int:
        """Which of the BRIGHTNESS steps the panel is nearest to (0 = brightest)."""
        return min(range(len(BRIGHTNESS)),
                   key=lambda i: abs(BRIGHTNESS[i] - self.panel.contrast))

    def open_menu(self) -> None:
        self.mode = Mode.MENU
        self.menu.index = 0
        self._show_menu()

    def _show_menu(self) -> None:
        self.show(screens.menu_screen(self.words, self.menu_items(), self.menu.index))

    def _menu_press(self, kind: Press) -> None:
        if kind is Press.SHORT:
            self.menu.move()
            self._show_menu()
        else:
            self.menu.choose()

    def _show_standings(self) -> None:
        if self.game is not None:
            self.mode = Mode.INFO
            self.show(screens.standings_screen(self.words, self.game.state))

    def _show_recall(self) -> None:
        self.mode = Mode.INFO
        self.show(screens.recall_screen(self.words, self._recall_game(), self.store.finished(10)))

    def _next_language(self) -> None:
        self.lang = LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)]
        self.words = self._words()
        self._prefs()
        self._show_menu()

    def _next_brightness(self) -> None:
        step = self._brightness_step()
        self.panel.set_contrast(BRIGHTNESS[(step + 1) % len(BRIGHTNESS)])
        self._prefs()
        self._show_menu()

    def _show_about(self) -> None:
        self.mode = Mode.INFO
        body = [self.words("about_version", version=__version__),
                self.words("about_saves", path=str(self.store.directory)),
                f"{self.config.display.display} {self.config.display.interface}"]
        if self.fonts.missing:
            body.append(self.words("about_fonts", packages=self.fonts.missing))
        self.show(Screen(title=self.words("menu_about"), body=tuple(body),
                         footer=self.words("keys_back")))

    def _recall_game(self) -> Game | None:
        if self.game is not None and self.game.actions:
            return self.game
        finished = self.store.finished(1)
        return finished[0].game if finished else None

    def _ask_undo(self) -> None:
        if self.game is None or not self.game.actions:
            self.mode = Mode.MENU
            self.flash(self.words("nothing_to_undo"), 2.0)
            return
        self.mode = Mode.UNDO
        what = screens.action_said(self.words, self.game.events)  # no turn number
        self.show(Screen(title=self.words("undo_title"), body=(self.words("undo_what",
                                                                          what=what),),
                         footer=self.words("keys_yes_no")))

    def _undo_press(self, kind: Press) -> None:
        if kind is Press.LONG and self.game is not None and self.game.actions:
            what = screens.action_said(self.words, self.game.events)  # no turn number
            self.commit(self.game.undo())
            log.info("undone: %s", what)
            self.resume()
            self.flash(self.words("undone", what=what), 3.0)
        else:
            self.mode = Mode.MENU
            self._show_menu()

    def _info_press(self, kind: Press) -> None:
        self.mode = Mode.MENU
        self._show_menu()

    def _prefs(self) -> None:
        try:
            self.store.save_prefs({"language": self.lang, "contrast": str(self.panel.contrast)})
        except OSError as error:
            log.error("cannot save preferences: %s", error)

    # -- outputs, idle, timers ----------------------------------------------------------

    def _lights(self, seat: int | None) -> None:
        seats = self.game.seats if self.game is not None else self.seats.occupied()
        self.outputs.light(seat, seats)

    def _idle(self) -> None:
        t = self.config.timings
        self.timers.after("dim", t.dim_after, lambda: self.panel.dim(True))
        self.timers.after("blank", t.blank_after, self.panel.sleep)
