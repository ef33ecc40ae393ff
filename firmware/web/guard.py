"""Who may hold a connection to the page, and for how long: no one turns a visitor away.

uvicorn counts connections for the whole server (``limit_concurrency``: past it every
new request is answered 503) and times a connection out only between two requests
(``timeout_keep_alive``): a connection that sends half a request head, a byte now and
then, or nothing at all, is held for ever. Two hundred of them, from one machine on
the home network, and the page answered no one. So each connection here

- must deliver a request within ``REQUEST_WITHIN`` seconds of its first byte (the
  head, and the body if it has one): it is closed otherwise (a phone's request takes
  milliseconds);
- that has sent nothing is closed ``FIRST_WITHIN`` seconds after it opened (a browser
  opens a connection before it needs one, and Chromium keeps an unused one 10 s: that
  is not a request held); between two requests uvicorn's own keep-alive closes it;
- is one of at most ``CLIENT_MOST`` from its address: the one past that is closed at
  once, so one machine cannot use up the server's;
- when the server is full (uvicorn's ``limit_concurrency``, past which it answers
  503), takes the place of the oldest connection of the address that holds the most:
  many machines together cannot use up the server's either, as long as the newcomer's
  address holds fewer than they do (a phone holds one to six).

A live stream (``/events``) is a request delivered: it stays while its phone reads it,
among its address's ``CLIENT_MOST``, for ``firmware.web.app.STREAM_FOR`` seconds at most
(the browser opens it again by itself).

Why our own subclass: uvicorn has no setting for any of these (its h11 protocol is the
one the page runs: httptools is not installed), and the hooks it calls on every
connection are where they belong.
"""

from __future__ import annotations

import asyncio
import collections

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_WITHIN = 10.0  # seconds for a request's head and body, from its first byte
FIRST_WITHIN = 60.0  # seconds for a new connection's first byte
CLIENT_MOST = 16  # connections at once from one address


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request and a cap per address."""

    _deadline: asyncio.TimerHandle | None = None
    _asked = False  # a request's first byte has come, and its answer not yet gone
    _opened = 0.0  # when, on the loop's clock

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._opened = self.loop.time()
        host = _address(self)
        held = collections.Counter(_address(other) for other in self.connections)
        self._arm(FIRST_WITHIN)  # (whatever its address: one not known is timed as well)
        if host is None:
            return
        if held[host] > CLIENT_MOST:
            self._shut()
            return
        if self.limit_concurrency is not None and len(self.connections) >= self.limit_concurrency:
            self._make_room(host, held)

    def _make_room(self, host: str, held: collections.Counter[str | None]) -> None:
        """The server is full: the oldest connection of the address that holds the most
        closed for this one, or this one if its own address holds as many."""
        most = max(count for address, count in held.items() if address is not None)
        if held[host] >= most:
            self._shut()
            return
        busiest = [other for other in self.connections if isinstance(other, GuardedH11)
                   and held[_address(other)] == most]
        min(busiest, key=lambda other: other._opened)._shut()

    def _shut(self) -> None:
        """Closed, and out of the server's count at once: its connection_lost comes on a
        later turn of the loop, after requests it would have made 503 meanwhile."""
        self.connections.discard(self)
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if not self._asked and self.conn.their_state is h11.IDLE:  # a request begins
            self._asked = True
            self._arm(REQUEST_WITHIN)
        super().data_received(data)

    def on_response_complete(self) -> None:
        self._asked = False  # the next request's time starts at its first byte (until
        if self._deadline is not None:  # then, uvicorn's keep-alive closes an idle one)
            self._deadline.cancel()
            self._deadline = None
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def _arm(self, seconds: float) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(seconds, self._late)

    def _late(self) -> None:
        """The deadline passed: closed if its request has not all arrived (its head still
        coming, or none: IDLE to h11; or its body: SEND_BODY)."""
        self._deadline = None
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) \
                and not self.transport.is_closing():
            self.transport.close()


def _address(connection: object) -> str | None:
    """A connection's client address (None: not known, a Unix socket)."""
    client = getattr(connection, "client", None)
    return str(client[0]) if client else None
