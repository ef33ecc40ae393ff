"""Who may change the table from a phone: a browser paired through the panel.

The table is the key: the panel shows a six-digit code (and a QR code with a one-time
token) for two minutes; a browser that gives it back gets a session, a random secret
in an HttpOnly, SameSite=Strict cookie. The table keeps only each session's SHA-256
digest (its ``phones``), so forgetting a phone on the panel or the page ends it, and a page
restarted knows them still. Every change also carries a CSRF token, derived from the
session. Wrong codes are counted for everyone together: five a minute, then HTTP 429.
A paired phone's changes are paced (``Pace``): ten at once, then five a second, so no
phone, however it is made to send, keeps the table from its presses. Nothing is
trusted for where a request comes from or what a header claims.
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

COOKIE = "robinson_session"
CSRF_HEADER = "x-csrf-token"
TRIES_MOST = 5  # wrong codes a minute, from everyone together
TRIES_WINDOW = 60.0
CHANGES_AT_ONCE = 10  # a paired phone's changes sent together
CHANGES_EVERY = 0.2  # seconds, then: five a second
SESSION_BYTES = 32  # a session's secret: 256 bits, 43 characters in its cookie
SESSION_MOST = 100  # characters of a cookie's session read at most (none is hashed past)


def digest(session: str) -> str:
    """A session as the table keeps it."""
    return hashlib.sha256(session.encode()).hexdigest()


def csrf_token(session: str) -> str:
    """The token a paired page sends with each change: only the session's holder has it."""
    return hashlib.sha256(f"csrf {session}".encode()).hexdigest()[:32]


def paired(session: str | None, phones: Iterable[str]) -> bool:
    """Whether the cookie's session is one the table keeps."""
    if not session or len(session) > SESSION_MOST:
        return False
    mine = digest(session)
    return any(hmac.compare_digest(mine, phone) for phone in phones)


def csrf_ok(session: str, given: str | None) -> bool:
    return given is not None and hmac.compare_digest(csrf_token(session), given)


def new_session() -> str:
    """A new session's secret, for its cookie: SESSION_BYTES random bytes, URL-safe."""
    return secrets.token_urlsafe(SESSION_BYTES)


class Tries:
    """Wrong pairing codes, counted over the last minute, and the codes used up.

    >>> tries = Tries(clock=lambda: 0.0)
    >>> [tries.allowed() for _ in range(1)], [tries.wrong() for _ in range(5)][-1]
    ([True], None)
    >>> tries.allowed()
    False
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._wrong: collections.deque[float] = collections.deque()
        self.used: set[str] = set()

    def _forget_old(self) -> None:
        now = self.clock()
        while self._wrong and now - self._wrong[0] >= TRIES_WINDOW:
            self._wrong.popleft()

    def allowed(self) -> bool:
        """Whether a code may be tried now."""
        self._forget_old()
        return len(self._wrong) < TRIES_MOST

    def wrong(self) -> None:
        self._wrong.append(self.clock())

    def retry_after(self) -> int:
        """Seconds until the next try is allowed."""
        self._forget_old()
        if len(self._wrong) < TRIES_MOST:
            return 0
        return max(1, int(TRIES_WINDOW - (self.clock() - self._wrong[0])) + 1)

    def matches(self, given: str, private: dict[str, Any]) -> str | None:
        """The proof ``given`` is (the panel's code or its token, or the first boot's
        owner code while no phone is paired), if it is one and not used yet; else None."""
        pairing = private.get("pairing") or {}
        if not given or given in self.used:
            return None
        for proof in (pairing.get("code", ""), pairing.get("token", ""),
                      private.get("owner") or ""):
            if proof and hmac.compare_digest(proof.encode(), given.encode()):
                return proof
        return None


class Pace:
    """Each paired phone's changes, as a bucket of CHANGES_AT_ONCE that fills again by
    one every CHANGES_EVERY seconds; a phone is known by its session's digest (only
    paired phones are asked about: as many as the table keeps).

    >>> now = [0.0]
    >>> pace = Pace(clock=lambda: now[0])
    >>> [pace.wait("a") for _ in range(11)][-2:], pace.wait("b")
    ([0.0, 0.2], 0.0)
    >>> now[0] = 0.2
    >>> pace.wait("a"), pace.wait("a")
    (0.0, 0.2)
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._left: dict[str, tuple[float, float]] = {}  # phone: (changes left, when)

    def wait(self, phone: str) -> float:
        """0.0, taking one of ``phone``'s changes; else the seconds until it has one."""
        now = self.clock()
        left, then = self._left.get(phone, (float(CHANGES_AT_ONCE), now))
        left = min(float(CHANGES_AT_ONCE), left + (now - then) / CHANGES_EVERY)
        if left < 1.0:
            self._left[phone] = (left, now)
            return round((1.0 - left) * CHANGES_EVERY, 3)
        self._left[phone] = (left - 1.0, now)
        return 0.0


_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("CrOS", "ChromeOS"),
            ("Windows", "Windows"), ("Mac OS X", "Mac"), ("Linux", "Linux"))
_BROWSERS = (("Edg", "Edge"), ("OPR", "Opera"), ("SamsungBrowser", "Samsung"),
             ("Firefox", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
             ("Chrome", "Chrome"), ("Safari", "Safari"))


def phone_kind(user_agent: str) -> str:
    """What a phone is, for the family to tell their phones apart in the list: its browser
    and system as its User-Agent names them (``Chrome/Android``), from a short list.

    >>> phone_kind("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, "
    ...            "like Gecko) Chrome/131.0 Mobile Safari/537.36")
    'Chrome/Android'
    >>> phone_kind("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1"
    ...            " (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
    'Safari/iPhone'
    >>> phone_kind("curl/8.5")
    'Other/Other'
    """
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "Other")
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "Other")
    return f"{browser}/{system}"
