"""A game at the table: the title, setup, the turn, the roll and its tumble, the result
and its audit, undo and abandon: what a press does in each, as steps on a ``Moment``.
"""

from __future__ import annotations

import dataclasses

from firmware.display import screens
from firmware.runtime.tunes import Tune
from firmware.table.menu import Row
from firmware.table.messages import (
    BeginGame,
    Chime,
    Hush,
    Log,
    NeedFace,
    Press,
    PutAway,
    Save,
    TimerKind,
)
from firmware.table.moment import FRAME, Moment
from firmware.table.state import (
    Animate,
    Asking,
    Info,
    Mode,
    Notice,
    Play,
    Question,
    Setup,
    Showing,
    Title,
    Waiting,
)
from robinson_core import CHOICES, MAX_PLAYERS, MIN_PLAYERS, Choice, Game, Pending, Roll, Status
from robinson_core import events as ev
from robinson_core.game import MAX_ACTIONS

ROLLING_CHOICES = (Choice.ROLL, Choice.AGAIN)  # decisions whose answer is to roll
AUDIT_AFTER = 0.05  # after the result is out, not on its way


def boot(m: Moment, notes: tuple[Notice, ...] = ()) -> None:
    m.set(now=Title(notes))
    m.fresh()
    game = m.state.game
    if game is None or not game.actions:  # nothing to resume: on to setup by itself
        m.after(TimerKind.BOOT, 2.0 + 2.0 * len(notes))


def title_press(m: Moment, kind: Press) -> None:
    m.cancel(TimerKind.BOOT)
    game = m.state.game
    if kind is Press.SHORT and game is not None and game.actions:
        resume(m)
        m.speak(m.s.resumed(game))
    else:
        new_game(m, Mode.TITLE)


def new_game(m: Moment, asked_from: Mode) -> None:
    """Put the current game away and set up a new one; a game in progress only once
    the table said yes to abandoning it."""
    game = m.state.game
    if game is not None and game.actions and game.state.status is Status.PLAYING:
        m.set(now=Asking(Question.ABANDON, asked_from))
        m.fresh()
        return
    abandon(m)


def asking_press(m: Moment, kind: Press) -> None:
    asking = m.state.now
    assert isinstance(asking, Asking)
    if kind is Press.LONG:
        abandon(m) if asking.question is Question.ABANDON else undo(m)
    elif asking.asked_from is Mode.MENU:
        m.back_to_menu(asking.question.value)
    else:
        boot(m)


def abandon(m: Moment) -> None:
    if m.state.game is not None:  # (a face owed to it stays owed: Owed)
        m.write(PutAway(m.state.game))
    m.set(game=None)
    setup(m)


def setup(m: Moment) -> None:
    m.cancel(TimerKind.BOOT)
    seats, first = m.state.seats, m.state.first
    if first not in seats:
        m.set(first=seats[0] if seats else None)
    m.set(now=Setup())
    m.fresh()
    m.lights(m.state.first)
    ready = MIN_PLAYERS <= len(seats) <= MAX_PLAYERS
    m.speak(m.s.setup(seats, m.state.first, ready))


def setup_press(m: Moment, kind: Press) -> None:
    seats, first = m.state.seats, m.state.first
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS or first is None:
        return
    if kind is Press.SHORT:  # the youngest starts: pick who that is
        m.set(first=seats[(seats.index(first) + 1) % len(seats)])
        setup(m)
    elif kind is Press.LONG:
        begin(m, Game(seats, first, m.state.fixed.config.rules))


def begin(m: Moment, game: Game) -> None:
    m.cancel(TimerKind.BOOT)  # a game begun during the title must not go to setup
    m.set(game=game)
    m.write(BeginGame(game))
    resume(m)
    m.speak(m.s.begun(game))


def resume(m: Moment) -> None:
    """Back to the game as it stands."""
    if m.state.game is None:
        setup(m)
        return
    m.lights(m.game.state.to_move)
    show_result(m)
    audit(m)


def show_result(m: Moment) -> None:
    """The last action's result; if another player must decide next, a press shows
    their decision screen, headed by them (``Showing.ASK_NEXT``)."""
    game = m.game
    who = screens.decider(game.state)
    asks = who is not None and who != screens.mover(game)
    m.set(now=Play(Showing.ASK_NEXT if asks else Showing.RESULT))
    m.fresh()


def play_press(m: Moment, kind: Press) -> None:
    game = m.game
    state = game.state
    if m.unread():  # a quick press: the money and instructions first, never skipped
        return
    if m.state.ask_next:  # another player decides: their screen, then their choice
        m.set(now=Play(Showing.TURN))
        m.fresh()
        m.speak(m.s.turn(game.state))  # their options, which the result only named them for
        return
    if state.status is not Status.PLAYING:
        if kind is Press.LONG:  # a new game, through setup: the seats as switched now
            abandon(m)
        return
    if TimerKind.AUDIT in m.state.armed:
        m.cancel(TimerKind.AUDIT)
        audit(m)
    if m.state.audit is not None:
        m.flash(Notice.of("audit_failed", detail=m.state.audit))
        return
    if len(game.actions) >= MAX_ACTIONS:  # one more would make a save no table reads
        m.flash(Notice.of("too_long", limit=f"{MAX_ACTIONS:,}"))
        return
    if state.pending is Pending.ROLL:
        if kind is Press.SHORT:
            roll(m)
        else:  # everyone's square and chips, one press from the game
            m.set(now=Info(Row.STANDINGS, from_play=True))
            m.fresh()
        return
    short, long = CHOICES[state.pending]
    choice = short if kind is Press.SHORT else long
    commit(m, game.play(choice))
    if choice in ROLLING_CHOICES:  # "roll" on 7, "again" on 20: one press, one roll
        roll(m)
    else:
        reveal(m)


def roll(m: Moment) -> None:
    """Ask the die (the face comes back as ``Face``), unless a roll taken back from
    this very position is owed: the die's face stands, an undo never buys a new
    throw."""
    prefs, game = m.state.prefs, m.game
    face = prefs.owed.face(game)
    if face is not None:
        m.set(prefs=prefs.but(owed=prefs.owed.paid(game)))
        rolled(m, face)
        m.save_prefs()
        return
    m.set(waiting=Waiting.FACE)
    m.do(NeedFace())


def rolled(m: Moment, face: int) -> None:
    """First frame out, then the roll on disk, then (after the tumble) the result."""
    config = m.state.fixed.config
    frames = (max(1, round(config.timings.animation / FRAME))
              if m.state.fixed.animate and config.timings.animation > 0 else 0)
    m.set(now=Animate(m.game.state.to_move or 0, 0, frames))
    m.cancel(TimerKind.SAVE_FAILED)  # not over the die: once its result is out
    if frames:
        tumble(m)
        m.draw_now()  # the die tumbles at once; its frames show nothing of the roll
    if m.state.prefs.voice:  # what was being said is over: the die is rolling
        m.do(Hush())
    m.do(Chime(Tune.ROLL))
    commit(m, m.game.play(Roll(face)))
    if frames:
        m.after(TimerKind.FRAME if frames > 1 else TimerKind.REVEAL, FRAME)
    else:
        reveal(m)


def frame(m: Moment) -> None:
    tumble(m)
    animate = m.state.now
    assert isinstance(animate, Animate)
    more = animate.frame < animate.frames
    m.after(TimerKind.FRAME if more else TimerKind.REVEAL, FRAME)


def tumble(m: Moment) -> None:
    # The die stays put and only its pips change: a frame costs the bus little.
    animate = m.state.now
    assert isinstance(animate, Animate)
    m.set(now=dataclasses.replace(animate, frame=animate.frame + 1))
    m.fresh()


def commit(m: Moment, game: Game) -> None:
    """The game moves on: on disk first (if the disk lets us), then in memory."""
    m.write(Save(game))
    m.set(game=game)


def reveal(m: Moment) -> None:
    game = m.game
    m.lights(game.state.to_move)
    show_result(m)
    m.speak(m.s.result(game, m.state.prefs.story))
    for event in game.events:
        if isinstance(event, ev.Parrot):
            m.do(Chime(Tune.PARROT))
        elif isinstance(event, ev.Eliminated):
            m.do(Chime(Tune.DEATH))
        elif isinstance(event, ev.Won):
            m.do(Chime(Tune.WIN))
    m.after(TimerKind.AUDIT, AUDIT_AFTER)  # a roll that comes sooner runs it first
    if m.state.writes.unsaid:  # a write failed while the die tumbled: now it is said
        m.after(TimerKind.SAVE_FAILED, 0.0)


def audit(m: Moment) -> None:
    """The books must balance and the state must be its own replay, before any roll."""
    if m.state.game is None:
        return
    problem = m.state.game.audit()
    if problem and problem != m.state.audit:
        m.do(Log("error", f"audit failed: {problem}"))
        m.flash(Notice.of("audit_failed", detail=problem), 10.0)
    m.set(audit=problem)


def ask_undo(m: Moment) -> None:
    game = m.state.game
    if game is None or not game.actions:
        m.flash(Notice.of("nothing_to_undo"), 2.0)
        return
    m.set(now=Asking(Question.UNDO))
    m.fresh()


def undo(m: Moment) -> None:
    game = m.state.game
    if game is None or not game.actions:
        m.back_to_menu(Row.UNDO)
        return
    what = screens.action_said(m.w, game.events)  # no turn number
    last = game.actions[-1]
    commit(m, game.undo())
    if isinstance(last, Roll):  # its face comes again at the next roll from here
        prefs = m.state.prefs
        m.set(prefs=prefs.but(owed=prefs.owed.owe(m.game, last.face)))
        m.save_prefs()
    m.do(Log("info", f"undone: {what}"))
    resume(m)
    m.speak(m.s.turn(m.game.state))
    m.flash(Notice.of("undone", what=what), 3.0)
