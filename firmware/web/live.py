"""The table as the page sees it: a connection to the seam, kept up by itself.

``Live.view`` is the newest view the table published (None: the table is stopped,
or starting); every change bumps ``Live.version`` and wakes whoever waits in
``changed``. ``ask`` sends an intent and waits for the table's answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import itertools
import logging
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from firmware.seam.wire import (
    VIEW_MOST,
    Message,
    address,
    decode,
    encode,
    peer_is_ours,
    socket_path,
)

log = logging.getLogger("robinson.web")

RETRY = (0.1, 0.25, 0.5, 1.0)  # seconds between tries to reach a stopped table
ANSWER_WITHIN = 5.0


@dataclass(frozen=True)
class PastGame:
    """A game put away, as the table told it over the seam."""

    number: int
    ended: str  # "won", "abandoned"...
    finished_at: datetime.datetime | None
    winner: int | None
    players: tuple[tuple[int, int, int | None, int | None], ...] = ()
    """How each stood at the end: seat, chips, their Friday's seat, square (none told
    of a game put away by an older version)."""
    now: bool = False  # the game in play, just ended (not yet put away)

    @classmethod
    def of(cls, told: object) -> PastGame | None:
        """The game ``told`` says, or None if it is not one."""
        if not isinstance(told, dict):
            return None
        number, ended, when, winner = (told.get(key) for key in
                                       ("number", "ended", "finished_at", "winner"))
        if not isinstance(number, int) or not isinstance(ended, str) or not (
                winner is None or isinstance(winner, int)):
            return None
        try:
            at = datetime.datetime.fromisoformat(when) if isinstance(when, str) else None
        except ValueError:
            at = None
        players = told.get("players")
        return cls(number, ended, at, winner, tuple(
            (p[0], p[1], p[2], p[3]) for p in players if isinstance(p, list) and len(p) == 4
            and all(isinstance(v, int) and not isinstance(v, bool) for v in p[:2])
            and all(v is None or (isinstance(v, int) and not isinstance(v, bool))
                    for v in p[2:])) if isinstance(players, list) else ())

    @classmethod
    def just_ended(cls, game: dict[str, Any]) -> PastGame | None:
        """The game in play as the table shows it (its view's ``game``), if it is over:
        History shows it at once, before the table puts it away."""
        if not game.get("over"):
            return None
        told = cls.of({"number": 0, "ended": "won" if game.get("winner") else "over",
                       "winner": game.get("winner"), "players": [
                           [p.get(key) for key in ("seat", "chips", "friday", "square")]
                           for p in game.get("players") or () if isinstance(p, dict)]})
        return None if told is None else replace(told, now=True)


class Live:
    """The seam's client, for the page: run ``follow`` as a task."""

    def __init__(self, directory: Path, page_address: str = "") -> None:
        self.path = socket_path(directory)
        self.page_address = page_address
        self.view: Message | None = None
        self.connected = False
        self.version = 0
        self._next = asyncio.Event()  # set, and put in a new one's place, at every change
        self._writer: asyncio.StreamWriter | None = None
        self._answers: dict[int, asyncio.Future[Message]] = {}
        self.put_away: list[PastGame] = []  # the games put away, as last told
        self.names: dict[str, str] = {}  # each seat's name, as the table last showed it
        self.last: dict[str, Any] = {}  # the last view's game and time (hh:mm), kept
        # once the table is off: its board and standings stay on Now, marked
        self._ids = itertools.count(1)

    @property
    def status(self) -> str:
        """"playing" (a view is here), "starting" (connected, no view yet), "stopped"."""
        if self.view is not None:
            return "playing"
        return "starting" if self.connected else "stopped"

    def public(self) -> dict[str, Any]:
        """The view as anyone on the page may see it: without what is private; with the
        table off, the game it last showed (``kept``)."""
        view = {key: value for key, value in (self.view or {}).items() if key != "private"}
        kept = {"kept": {**self.last, "names": self.names}} \
            if self.view is None and self.last.get("game") else {}
        return {"status": self.status, "version": self.version, **view, **kept}

    def private(self) -> dict[str, Any]:
        return dict((self.view or {}).get("private") or {})

    async def changed(self, since: int, timeout: float) -> int:
        """Wait until the version passes ``since`` (or ``timeout``); the version now.

        An event, not a condition: on Python 3.11 a condition's wait inside ``wait_for``,
        cancelled as its time runs out (a stop ending the live streams), can give back a
        lock another task holds and leave it held for ever: every stream and the seam's
        reader then wait on it, and the page stops following the table. An event holds
        no lock (one loop, one thread: nothing here needs one).
        """
        if self.version == since:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._next.wait(), timeout)
        return self.version

    def _bump(self) -> None:
        self.version += 1
        self._next.set()
        self._next = asyncio.Event()

    async def ask(self, intent: str, **values: Any) -> str | None:
        """Send an intent; None once the table took it, else why not (one line)."""
        answer = await self._asked({"intent": intent, **values})
        if isinstance(answer, str):
            return answer
        return None if answer.get("ok") else str(answer.get("why") or "refused")

    async def history(self) -> list[PastGame] | None:
        """The games put away, newest first, as the table tells them (None: it is off,
        or did not answer); the last ones told are kept for when it is off."""
        answer = await self._asked({"query": "history"})
        if isinstance(answer, str):
            return None
        told = answer.get("games")
        self.put_away = [game for game in map(PastGame.of, told if isinstance(told, list)
                                               else []) if game is not None]
        return self.put_away

    async def _asked(self, message: Message) -> Message | str:
        """``message`` sent with an id of its own: the table's answer, or why none came."""
        writer = self._writer
        if writer is None:
            return "the table is not running"
        ident = next(self._ids)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._answers[ident] = future
        try:
            writer.write(encode({**message, "id": ident}))
            await writer.drain()
            return await asyncio.wait_for(future, ANSWER_WITHIN)
        except (OSError, TimeoutError):
            return "the table did not answer"
        finally:
            self._answers.pop(ident, None)

    async def follow(self) -> None:
        """Connect, read views until the table goes, and again, for ever."""
        tries = 0
        while True:
            try:
                reader, writer = await self._connect()
            except OSError:
                await asyncio.sleep(RETRY[min(tries, len(RETRY) - 1)])
                tries += 1
                continue
            if not peer_is_ours(writer.get_extra_info("socket")):
                log.error("%s is not the table's (another user listens there): not followed",
                          self.path)
                writer.close()
                await asyncio.sleep(RETRY[-1])
                continue
            tries = 0
            self._writer, self.connected = writer, True
            self._bump()
            try:
                if self.page_address:
                    writer.write(encode({"intent": "address", "id": 0,
                                         "value": self.page_address}))
                await self._read(reader)
            except (OSError, asyncio.IncompleteReadError, ValueError) as error:
                log.info("the table's seam closed: %s", error)
            finally:
                self._writer, self.connected, self.view = None, False, None
                for future in self._answers.values():
                    if not future.done():
                        future.set_exception(OSError("the table went away"))
                writer.close()
                self._bump()

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        where, folder = address(self.path)
        try:
            return await asyncio.open_unix_connection(where, limit=VIEW_MOST + 1)
        finally:
            if folder is not None:
                os.close(folder)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while True:
            line = await reader.readline()
            if not line:
                return
            message = decode(line)
            if message is None:
                raise ValueError("the seam sent something that is not a message")
            if message.get("kind") == "answer":
                future = self._answers.get(message.get("id"))  # type: ignore[arg-type]
                if future is not None and not future.done():
                    future.set_result(message)
            elif message.get("kind") == "view":
                self.view = message
                if isinstance(told := message.get("names"), dict):
                    self.names = {str(seat): str(name) for seat, name in told.items()}
                self.last = {"game": message.get("game"), "time": time.strftime("%H:%M")}
                self._bump()

