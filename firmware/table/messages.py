"""What goes into the table's machine and what comes out: its inputs and its effects,
each a small frozen value (``firmware.table.machine.step`` takes one input and says the
effects in order; the shell runs them and answers with inputs)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from firmware.config.settings import Config, Display
from firmware.display.screen import Screen
from firmware.display.screens import PastGame
from firmware.runtime.tunes import Tune
from firmware.saves.faults import Fault
from firmware.table.prefs import Prefs
from robinson_core import Game


class Press(enum.Enum):
    """What a press of the ROLL button was, by how long it was held."""

    SHORT = "short"  # roll, confirm, the default choice
    LONG = "long"  # the other choice (>= long_press seconds)
    MENU = "menu"  # the menu (>= menu_press seconds)


class TimerKind(enum.Enum):
    """The table's timers: arming one again replaces it."""

    BOOT = "boot"  # the title goes on to setup by itself
    PAGE = "page"  # the next page of a long screen
    FLASH = "flash"  # a message's time is up: the screen under it again
    SAVE_FAILED = "save_failed"  # say a write failed, once the moment's screen is out
    RETRY = "retry"  # the write the disk refused, tried again
    FRAME = "frame"  # the tumbling die's next frame
    REVEAL = "reveal"  # the roll's result
    AUDIT = "audit"  # the books checked, once the result is out
    DIM = "dim"
    BLANK = "blank"
    SHIFT = "shift"  # burn-in: the panel moves a pixel
    PAIR = "pair"  # a pairing code's time is up
    TRIAL = "trial"  # a phone's new panel was not kept: the panel before it again


# -- inputs --------------------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """The table switched on: the saved game and preferences (its first frame is drawn
    from these; the pins are opened after it, and ``Wired`` says what they found)."""

    game: Game | None
    problem: str = ""  # what was wrong with the saved games
    prefs: tuple[tuple[str, str], ...] = ()
    contrast: int = 255  # the panel's, before any preference
    fault: Fault | None = None  # why nothing can be saved (a full disk...): the game goes on
    volatile: str = ""  # the file system the saves are on, if a reboot empties it (tmpfs)
    settings: int | None = None  # the boot partition's settings file was refused: its wrong
    # line (0: the whole file); the last good settings run


@dataclass(frozen=True)
class Wired:
    """The pins are open, right after the first frame: the seats switched on, and whether
    the button is down already (held at switch-on, or stuck)."""

    seats: tuple[int, ...] = ()
    stuck: bool = False


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
    """The disk's answer to ``Save``, ``Begin`` or ``PutAway``: taken, or refused for
    ``fault``."""

    ok: bool
    fault: Fault | None = None


@dataclass(frozen=True)
class Odds:
    """The answer to ``NeedOdds``: the decider's chance to win, in whole percent, with
    each option of the decision ``game`` waits for (the first option's first)."""

    game: Game
    win: tuple[int, int]


@dataclass(frozen=True)
class Recalled:
    """The store's answer to ``NeedRecall``: the newest games put away first, in brief,
    and the newest of them in full if it was asked for (its last turns are shown)."""

    finished: tuple[PastGame, ...]
    last: Game | None = None


@dataclass(frozen=True)
class Brought:
    """The store's answer to ``BringBack``: the game now in play, or None (with why, if
    the disk refused)."""

    game: Game | None
    fault: Fault | None = None


@dataclass(frozen=True)
class Begin:
    """A game handed to the table (a test, the bench): it is saved and played."""

    game: Game


@dataclass(frozen=True)
class Stop:
    """The table is switched off: a write the disk refused is tried once more, and the
    last frame says whether the game is on disk."""


@dataclass(frozen=True)
class Prefer:
    """The table's settings changed from outside (names, language, voice...): in force at
    once, every mode redrawn in them."""

    prefs: Prefs


@dataclass(frozen=True)
class Repeat:
    """Show the last result again from page 1, and say it (the menu's row, asked from a
    phone)."""


@dataclass(frozen=True)
class PairAsked:
    """A phone asks to be paired (the menu's "Phone" row, or the companion page): the
    panel shows a code for a while."""


@dataclass(frozen=True)
class Code:
    """The answer to ``NeedCode``: the pairing code the panel shows (six digits) and the
    one-time token its QR code carries."""

    digits: str
    token: str


@dataclass(frozen=True)
class Paired:
    """The companion page took ``proof`` (the code shown, or its QR token) from a phone:
    ``phone`` (its session's digest) is paired if the proof is the one on the panel."""

    proof: str
    phone: str
    kind: str = ""  # what it is, as the page read it: Chrome/Android
    day: int = 0  # today, by the Pi's clock (days since 1970)


@dataclass(frozen=True)
class PhoneUsed:
    """A paired phone (``phone``: its digest) used the page on ``day`` (its first use that
    day): kept as its last use; phones unused for PHONE_DAYS are forgotten."""

    phone: str
    day: int


@dataclass(frozen=True)
class ForgetPhone:
    """Forget one paired phone (its digest), from the page's list."""

    phone: str


@dataclass(frozen=True)
class Address:
    """Where the companion page answers (``http://robinson.local/``), as it says itself;
    "" when it went away."""

    url: str


@dataclass(frozen=True)
class Rewire:
    """A paired phone's hardware settings (``changes``: every one the phone made, dotted
    keys of ``firmware.config.PHONE_KEYS``), checked: ``config`` is the table's with them."""

    changes: tuple[tuple[str, object], ...]
    config: Config


@dataclass(frozen=True)
class KeepAsked:
    """The phone keeps the panel on trial (as a press on the table does)."""


Input = (Start | Wired | Down | Held | Unstuck | Pressed | SeatsChanged | TimerFired | Face | Wrote
         | Recalled | Brought | Begin | Stop | Prefer | Odds | Repeat | PairAsked | Code
         | Paired | PhoneUsed | ForgetPhone | Address | Rewire | KeepAsked)


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
class NeedOdds:
    """Weigh the decision ``game`` waits for (its options played out, beside the loop);
    answer with ``Odds``, whenever it is done: nothing waits for it."""

    game: Game


@dataclass(frozen=True)
class NeedCode:
    """Make a pairing code (chance is the shell's); answer with ``Code``."""


@dataclass(frozen=True)
class NeedRecall:
    """Read the games put away (``last``: the newest in full as well, replayed); answer
    with ``Recalled``."""

    last: bool = False


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
    """Say ``text`` aloud in ``lang``, cutting short whatever is being said (``after``:
    once it has been said, instead: a decision's odds never cut its result short)."""

    text: str
    lang: str
    after: bool = False


@dataclass(frozen=True)
class Voicing:
    """The voice's loudness and speed from now on (the menu's, or the config's)."""

    volume: int
    speed: int


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
    """Keep the table's settings (and the faces owed to its game) for the next start."""

    prefs: Prefs


@dataclass(frozen=True)
class OwnerCodeUsed:
    """The first boot's owner code paired the first phone: it pairs no other (the shell
    deletes it from the state folder)."""


@dataclass(frozen=True)
class UsePanel:
    """Drive the panel as ``display`` says from now on (a new luma device, the screens
    laid out for its size): a phone's panel on trial, or the one before it again."""

    display: Display


@dataclass(frozen=True)
class KeepHardware:
    """Keep a phone's hardware settings in the state folder (laid over the config at
    every start: ``firmware.saves.hardware``)."""

    changes: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Restart:
    """Start the table again, with the config read anew (new pins, the amplifier)."""


@dataclass(frozen=True)
class Log:
    """A line for the journal."""

    level: str  # "info", "warning", "error"
    text: str


Effect = (Draw | Save | BeginGame | PutAway | NeedFace | NeedOdds | NeedRecall | NeedCode
          | BringBack
          | Chime | Say | Voicing
          | Hush | Light | After | Cancel | CancelAll | Dim | Blank | Wake | Shift | Contrast
          | SavePrefs | OwnerCodeUsed | UsePanel | KeepHardware | Restart | Log)
WRITES = (Save, BeginGame, PutAway)
Write = Save | BeginGame | PutAway
"""A change for the disk, answered by ``Wrote``."""
