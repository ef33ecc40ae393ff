"""The table's end of the seam: a Unix socket in its state folder, served by a thread of
its own; everything it hears is taken on the loop's thread, as a press is.

The socket is the table's user's alone (mode 0600), and a connection from another
user (root aside) is closed unread. A client is sent the view at once and again
whenever it changes (only the newest: a slow reader skips views, never falls behind),
and an answer to each intent once the machine has taken it. A line too long, or more
than ``CLIENTS_MOST`` clients, closes the connection; nothing a client sends can stop
the table, and a seam that cannot open (a file in the way) is said once in the journal
while the table plays on without it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import socket
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from firmware.runtime.loop import Loop
from firmware.seam.intents import wanted
from firmware.seam.shown import Pages, published, reads
from firmware.seam.wire import (
    CLIENTS_MOST,
    INTENT_MOST,
    VIEW_MOST,
    Message,
    address,
    decode,
    encode,
    peer_is_ours,
    socket_path,
)
from firmware.table.messages import Address, Input, Paired
from firmware.table.state import TableState

log = logging.getLogger("robinson.seam")


class Served(Protocol):
    """What the seam serves: the table's state, and its inputs (``Table``)."""

    @property
    def state(self) -> TableState: ...

    def take(self, event: Input) -> None: ...


History = Callable[[], list[Message]]
"""The games put away, newest first, each as the page is told it (``firmware.app``)."""


@dataclass(eq=False)
class _Client:
    sock: socket.socket
    inbox: bytearray = field(default_factory=bytearray)
    out: bytearray = field(default_factory=bytearray)  # on its way
    answers: list[bytes] = field(default_factory=list)
    view: bytes = b""  # the newest view, not yet on its way
    told_address: bool = False  # the page's address came from this client


class Seam:
    """The table's seam at ``directory/table.sock``: ``open``, then ``publish`` from the
    loop's thread after every step; ``close`` at the end."""

    def __init__(self, directory: Path, loop: Loop, table: Served, pages: Pages,
                 history: History = lambda: []) -> None:
        self.path = socket_path(directory)
        self.loop, self.table, self.pages = loop, table, pages
        self.history = history
        self._listener: socket.socket | None = None
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._lock = threading.Lock()
        self._clients: dict[socket.socket, _Client] = {}
        self._last: tuple[object, ...] | None = None
        self._sent = b""
        self._thread: threading.Thread | None = None
        self._closing = False

    # -- the loop's thread ------------------------------------------------------------

    def open(self) -> bool:
        """Listen (False, said once in the journal, if the path is not ours to take)."""
        if (why := self._in_the_way()) is not None:
            log.error("no seam for the companion page: %s", why)
            return False
        temporary = self.path.with_name(self.path.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISSOCK(os.lstat(temporary).st_mode):
                os.unlink(temporary)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        try:
            where, folder = address(temporary)
            try:
                listener.bind(where)
            finally:
                if folder is not None:
                    os.close(folder)
            os.chmod(temporary, 0o600)
            listener.listen(CLIENTS_MOST)
            os.replace(temporary, self.path)
        except OSError as error:
            listener.close()
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            log.error("no seam for the companion page: cannot listen at %s (%s)", self.path,
                      error.strerror or error)
            return False
        listener.setblocking(False)
        self._listener = listener
        self._selector.register(listener, selectors.EVENT_READ)
        self._selector.register(self._wake_r, selectors.EVENT_READ)
        self._thread = threading.Thread(target=self._serve, name="seam", daemon=True)
        self._thread.start()
        return True

    def _in_the_way(self) -> str | None:
        """Why the socket's path cannot be ours, or None (a socket of ours left by a table
        that was killed is taken away: the store's lock says no other table runs)."""
        try:
            found = os.lstat(self.path)
        except FileNotFoundError:
            return None
        except OSError as error:
            return f"cannot look at {self.path} ({error.strerror})"
        if not stat.S_ISSOCK(found.st_mode):
            return f"{self.path} is in the way and is not the table's socket: move it away"
        if found.st_uid != os.geteuid():
            return f"{self.path} belongs to another user: remove it"
        try:
            os.unlink(self.path)
        except OSError as error:
            return f"cannot remove the old {self.path} ({error.strerror})"
        return None

    def publish(self, state: TableState) -> None:
        """The view of ``state`` to every client, if it changed (loop's thread)."""
        with self._lock:
            if not self._clients:
                self._last = None
                return
        key = reads(state)
        if key == self._last:
            return
        self._last = key
        message = encode(published(state, self.pages))
        if message == self._sent:
            return
        self._sent = message
        with self._lock:
            for client in self._clients.values():
                client.view = message
        self._wake()

    def close(self) -> None:
        self._closing = True
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self._listener is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)  # a client that finds no socket knows the table is off
            self._listener.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _intend(self, client: _Client, message: Message) -> None:
        """An intent, on the loop's thread: the input it asks for, taken; its answer."""
        ident = message.get("id")
        state = self.table.state
        got = wanted(message, state.prefs, state.fixed.config)
        if isinstance(got, str):
            self._answer(client, ident, got)
            return
        if isinstance(got, Address):
            client.told_address = bool(got.url)
        self.table.take(got)
        why = None
        if isinstance(got, Paired) and got.phone not in self.table.state.prefs.digests:
            why = "that is not the code on the panel (or its time is up)"
        self._last = None  # a client that asked sees the state after, even if unchanged,
        self.publish(self.table.state)  # before its answer (_flush keeps the order): a
        self._answer(client, ident, why)  # page told "paired" already knows the phone

    def _answer(self, client: _Client, ident: object, why: str | None) -> None:
        answer: Message = {"kind": "answer", "id": ident if isinstance(ident, int) else None,
                           "ok": why is None}
        if why is not None:
            answer["why"] = why
        with self._lock:
            client.answers.append(encode(answer))
        self._wake()

    def _history(self, client: _Client, ident: object) -> None:
        """The games put away, newest first, for the client that asked (seam's thread:
        ``history`` reads them read-only, beside the table)."""
        answer: Message = {"kind": "answer", "id": ident if isinstance(ident, int) else None,
                           "ok": True, "games": self.history()}
        with self._lock:
            client.answers.append(encode(answer))

    def _gone(self, client: _Client) -> None:
        """A client left (loop's thread): the page's address goes with the page."""
        if client.told_address:
            self.table.take(Address(""))

    # -- the seam's thread ------------------------------------------------------------

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _serve(self) -> None:
        while not self._closing:
            for key, events in self._selector.select():
                if key.fileobj is self._listener:
                    self._accept()
                elif key.fileobj == self._wake_r:
                    with contextlib.suppress(OSError):
                        os.read(self._wake_r, 4096)
                else:
                    client = self._clients.get(key.fileobj)  # type: ignore[call-overload]
                    if client is None:
                        continue
                    if events & selectors.EVENT_READ:
                        self._read(client)
            self._flush()
        for client in list(self._clients.values()):
            self._drop(client, quietly=True)

    def _accept(self) -> None:
        assert self._listener is not None
        try:
            sock, _ = self._listener.accept()
        except OSError:
            return
        if len(self._clients) >= CLIENTS_MOST or not peer_is_ours(sock):
            sock.close()
            return
        sock.setblocking(False)
        client = _Client(sock)
        with self._lock:
            self._clients[sock] = client
        self._selector.register(sock, selectors.EVENT_READ)
        self.loop.post(self._welcome)

    def _welcome(self) -> None:
        """A new client: the view now (loop's thread)."""
        self._last, self._sent = None, b""
        self.publish(self.table.state)

    def _read(self, client: _Client) -> None:
        try:
            data = client.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._drop(client)
            return
        client.inbox += data
        while (end := client.inbox.find(b"\n")) >= 0:
            line = bytes(client.inbox[:end])
            del client.inbox[:end + 1]
            message = decode(line)
            if message is None:
                self._drop(client)  # not the seam's language: nothing more is read from it
                return
            if message.get("query") == "history":  # read here: the table's loop goes on
                self._history(client, message.get("id"))
                continue
            self.loop.post(_bound(self._intend, client, message))
        if len(client.inbox) > INTENT_MOST:
            self._drop(client)

    def _flush(self) -> None:
        with self._lock:
            clients = list(self._clients.values())
        for client in clients:
            with self._lock:
                if client.view and not client.out:
                    client.out += client.view
                    client.view = b""
                if client.answers and not client.view:  # behind the view before them
                    client.out += b"".join(client.answers)
                    client.answers.clear()
            if not client.out:
                self._selector.modify(client.sock, selectors.EVENT_READ)
                continue
            try:
                sent = client.sock.send(client.out)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                self._drop(client)
                continue
            del client.out[:sent]
            if len(client.out) > 2 * VIEW_MOST:
                self._drop(client)
                continue
            self._selector.modify(client.sock, selectors.EVENT_READ | (
                selectors.EVENT_WRITE if client.out or client.view or client.answers else 0))

    def _drop(self, client: _Client, quietly: bool = False) -> None:
        with self._lock:
            if self._clients.pop(client.sock, None) is None:
                return
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(client.sock)
        client.sock.close()
        if not quietly:
            self.loop.post(_bound(self._gone, client))


def _bound(function: Callable[..., None], *args: object) -> Callable[[], None]:
    return lambda: function(*args)

