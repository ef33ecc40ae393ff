"""The machine's effects on the saves, run by the shell: each change for the disk, and
what it answers (whether the disk took it, the games for Recall, a game brought back);
the preferences, a phone's hardware settings and the spent owner code kept.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from firmware.saves import hardware
from firmware.saves.faults import kind_of
from firmware.saves.folder import volatile
from firmware.saves.owner import OWNER_CODE
from firmware.saves.store import Loaded, Store
from firmware.table import messages as msg
from robinson_core import Game

log = logging.getLogger("robinson.table")

RECALLED = 10  # games put away that Recall lists


class Disk:
    """What the machine's effects do to ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def open(self, mounts: Callable[[], str | None] | None
             ) -> tuple[Loaded, tuple[tuple[str, str], ...], str]:
        """The saves as the table starts: the game found (StateDirectoryError if nothing
        can be read), the preferences, and the memory-only file system they are on ("":
        a real disk), each trouble said in the journal."""
        loaded = self.store.load()
        if loaded.fault is not None:
            log.error("saved games: %s", loaded.fault)
        prefs = tuple(self.store.prefs().items())
        kind = None
        if mounts is not None and (text := mounts()) is not None:
            kind = volatile(self.store.directory, text)
        if kind:
            log.warning("the saved games in %s are on %s: a reboot empties it (raspi-config's "
                        "overlay file system?); turn the overlay off, or give --state-dir a "
                        "folder on the SD card", self.store.directory, kind)
        return loaded, prefs, kind or ""

    def run(self, effect: msg.Effect) -> msg.Input | None:
        """Run one effect on the saves; the input that answers it, if it has one."""
        match effect:
            case msg.Save(game):
                return self._write(self.store.save, game)
            case msg.BeginGame(game):
                return self._write(self.store.begin, game)
            case msg.PutAway(game, then):
                return self._write(self.store.put_away, game, then)
            case msg.NeedRecall(last):
                return self._recall(last)
            case msg.BringBack():
                try:
                    return msg.Brought(self.store.bring_back())
                except OSError as error:
                    return msg.Brought(None, kind_of(error))
            case msg.SavePrefs(prefs):
                try:
                    self.store.save_prefs(prefs.as_strings())
                except OSError as error:
                    log.error("cannot save preferences: %s", error)
            case msg.KeepHardware(changes):
                try:
                    hardware.keep(self.store.directory, dict(changes))
                    log.info("a phone's hardware settings kept: %s", ", ".join(
                        f"{key} = {value}" for key, value in changes))
                except OSError as error:
                    log.error("cannot keep the phone's hardware settings: %s", error)
            case msg.OwnerCodeUsed():
                (self.store.directory / OWNER_CODE).unlink(missing_ok=True)
                log.info("the first phone paired with the owner code: it pairs no other")
        return None

    def _recall(self, last: bool) -> msg.Recalled:
        """The games put away, from their summaries; the newest replayed only where its
        last turns are to be shown (no game in play)."""
        games = self.store.recent(RECALLED)
        newest = self.store.finished(1) if last and games else []
        whole = newest[0].game if newest and newest[0].number == games[0].number else None
        return msg.Recalled(tuple(games), whole)

    @staticmethod
    def _write(change: Callable[..., None], *games: Game | None) -> msg.Wrote:
        """A change to the saved games; the machine hears whether the disk took it."""
        try:
            change(*games)
        except OSError as error:
            return msg.Wrote(False, kind_of(error))
        return msg.Wrote(True)
