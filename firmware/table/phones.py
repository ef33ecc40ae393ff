"""Phones at the table: a pairing code on the panel, a phone paired, used or
forgotten, and a phone's panel settings tried before they are kept.
"""

from __future__ import annotations

import dataclasses

from firmware.config.settings import Config
from firmware.table import paired as paired_phones
from firmware.table import panel
from firmware.table.messages import (
    KeepHardware,
    Log,
    NeedCode,
    OwnerCodeUsed,
    Restart,
    TimerKind,
    UsePanel,
)
from firmware.table.moment import Moment
from firmware.table.prefs import Phone
from firmware.table.state import (
    TRIAL_FOR,
    Mode,
    Notice,
    Trial,
    Waiting,
)


def rewire(m: Moment, changes: tuple[tuple[str, object], ...], config: Config) -> None:
    """A phone's hardware settings, checked: a new panel goes on trial (a test pattern
    on it; a press or the phone keeps it, else the panel before is back after
    TRIAL_FOR); the pins and the amplifier are kept at once, for a fresh start."""
    if m.state.mode in (Mode.STUCK, Mode.OFF):
        return
    if config.display != m.state.fixed.config.display:
        m.cancel(TimerKind.TRIAL)
        m.set(trial=Trial(changes, config))
        m.do(UsePanel(config.display))
        m.wake()
        m.idle()
        m.after(TimerKind.TRIAL, TRIAL_FOR)
        m.redrawn = True  # a new device holds nothing of ours
        return
    if m.state.trial is not None:  # the panel in force again, the rest kept
        end_trial(m, said=False)
    keep(m, changes, config)


def keep_trial(m: Moment, trial: Trial) -> None:
    m.cancel(TimerKind.TRIAL)
    m.set(trial=None)
    keep(m, trial.changes, trial.config)


def keep(m: Moment, changes: tuple[tuple[str, object], ...], config: Config) -> None:
    """Keep a phone's settings; new pins or the amplifier: start again, to take them."""
    fixed = m.state.fixed
    restart = (config.pins, config.voice) != (fixed.config.pins, fixed.config.voice)
    m.set(fixed=dataclasses.replace(fixed, config=config))
    m.do(KeepHardware(changes))
    if restart:
        m.flash(Notice.of("hardware_restart"))
        m.draw_now()
        m.do(Restart())
    else:
        m.flash(Notice.of("hardware_kept"))


def end_trial(m: Moment, said: bool = True) -> None:
    """The panel on trial was not kept: the one in force before, as it was."""
    m.cancel(TimerKind.TRIAL)
    m.set(trial=None)
    m.on(panel.first_page(m.state.panel))
    m.do(UsePanel(m.state.fixed.config.display))
    m.redrawn = True
    if said:
        m.flash(Notice.of("hardware_back"))


def ask_pairing(m: Moment) -> None:
    """A code on the panel for a phone to pair with (made by the shell: chance), if
    the companion page is there to take it."""
    if m.state.mode in (Mode.STUCK, Mode.OFF) or m.state.waiting is not None:
        return
    if not m.state.address:
        m.flash(Notice.of("no_web"), 4.0)
        return
    m.set(waiting=Waiting.CODE)
    m.do(NeedCode())


def unpair(m: Moment) -> None:
    m.cancel(TimerKind.PAIR)
    m.set(pairing=None)
    m.on(panel.first_page(m.state.panel))


def paired(m: Moment, proof: str, phone: str, kind: str, day: int) -> None:
    """A phone paired with the code (or its QR token) on the panel, or with the first
    boot's owner code while no phone is paired: kept, and the code used up. Anything
    else is not a pairing."""
    prefs, fixed = m.state.prefs, m.state.fixed
    by = paired_phones.proof(proof, phone, m.state.pairing, fixed.owner, prefs.phones)
    if by is None:
        m.do(Log("warning", "a phone offered a pairing code the panel does not show"))
        return
    if by == "owner":
        m.set(fixed=dataclasses.replace(fixed, owner=""))
        m.do(OwnerCodeUsed())
    unpair(m)
    m.set(prefs=prefs.but(phones=paired_phones.joined(prefs.phones, phone, kind, day)))
    m.save_prefs()
    m.flash(Notice.of("phone_paired"), 3.0)


def phone_used(m: Moment, phone: str, day: int) -> None:
    """A paired phone's first use of ``day``: its last use, and those unused for too
    long forgotten (a clock behind forgets none, and never makes a use older)."""
    keep_phones(m, paired_phones.used(m.state.prefs.phones, phone, day))


def forget_phone(m: Moment, phone: str) -> None:
    """One phone forgotten (from the page's list): its session ends."""
    keep_phones(m, paired_phones.forgotten(m.state.prefs.phones, phone))


def keep_phones(m: Moment, phones: tuple[Phone, ...]) -> None:
    """``phones`` the paired ones, and saved, if that changes them."""
    if phones != m.state.prefs.phones:
        m.set(prefs=m.state.prefs.but(phones=phones))
        m.save_prefs()
