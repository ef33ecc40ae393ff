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
  once, so one machine cannot use up the server's.

A live stream (``/events``) is a request delivered: it stays as long as its phone
reads it, among its address's ``CLIENT_MOST``.

Why our own subclass: uvicorn has no setting for any of these (its h11 protocol is the
one the page runs: httptools is not installed), and the hooks it calls on every
connection are where they belong.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_WITHIN = 10.0  # seconds for a request's head and body, from its first byte
FIRST_WITHIN = 60.0  # seconds for a new connection's first byte
CLIENT_MOST = 16  # connections at once from one address


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request and a cap per address."""

    _deadline: asyncio.TimerHandle | None = None
    _asked = False  # a request's first byte has come, and its answer not yet gone

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        same = sum(1 for other in self.connections
                   if isinstance(other, H11Protocol) and other.client
                   and other.client[0] == host)
        if host is not None and same > CLIENT_MOST:
            self.transport.close()  # (connection_lost takes it out of the count)
            return
        self._arm(FIRST_WITHIN)

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
