"""The companion page as a Starlette application (served by uvicorn: ``serve``).

Reads: Now (``/``, ``/api/now``, live over ``/events``), History, Rules, Settings.
Changes (``POST /api/…``): each needs a paired session's cookie (401 without), the
CSRF token that goes with it and a JSON body from this page's own origin (403
without), and becomes one intent on the table's seam. Pairing (``POST /api/pair``,
``GET /pair?t=``) is throttled: HTTP 429 after five wrong codes a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import json
import math
import socket
import time
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from firmware.config.settings import Config
from firmware.display.layout import NAME_LETTERS
from firmware.seam.wire import INTENT_MOST, SETTINGS
from firmware.table.names import WIDE_LETTERS, fault
from firmware.table.prefs import PHONE_DAYS, Phone
from firmware.web import icons, pages, reading
from firmware.web.hosts import is_own, own_names
from firmware.web.live import Live, PastGame
from firmware.web.pairing import (
    COOKIE,
    CSRF_HEADER,
    Pace,
    Tries,
    csrf_ok,
    csrf_token,
    digest,
    new_session,
    paired,
    phone_kind,
)
from firmware.web.words import say
from robinson_core import HouseRules

STATIC = Path(__file__).with_name("static")
HEARTBEAT = 15.0  # seconds between SSE comments on a quiet table (proxies, phones asleep)
STREAM_FOR = 600.0
"""Seconds a live stream lasts: then it ends, and the browser opens it again within its
``retry`` (1 s) and is sent the page as it is; a phone asleep or a tab put away does not
hold a connection for ever (``firmware.web.guard``)."""
HEADERS_MOST = 8 * 1024  # bytes of a request's headers (the page's own: a few hundred)
FIRST_VIEW_WITHIN = 3.0  # seconds the page waits for the table's view as it starts
FORM_MOST = 256  # bytes of the language form's body (it sends some 10)
ASK_EVERY = 3.0  # seconds between two codes asked for on the panel
HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self'; connect-src 'self'; manifest-src 'self'; "
                               "form-action 'self'; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # nothing to another site; the page's own forms
    # go with their Origin ("no-referrer" made it "null": the language form refused)
    "x-frame-options": "DENY",
}
CACHE = "no-cache"
"""A page may be kept, and is asked for again before it is shown anew: "no-store" kept
a phone's back button from showing it at once (the browser's back/forward cache)."""
PRIVATE = "no-store"
"""What the API and the pairing answer: not kept anywhere."""
REFUSED = {**HEADERS, "cache-control": PRIVATE}
COMPRESS_FROM = 500  # bytes: a smaller answer goes as it is (gzip's own head is 18)
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class Companion:
    """The page's own state: the table followed, the pairing tries."""

    def __init__(self, directory: Path, config: Config, page_address: str = "") -> None:
        self.directory, self.config = directory, config
        self.live = Live(directory, page_address)
        self.tries = Tries()
        self.pace = Pace()
        self.asked_at = -ASK_EVERY
        self._fragments: dict[str, str] = {}  # Now's live part in each language asked,
        self._fragments_at = -1  # at this version
        self._told: set[tuple[str, int]] = set()  # (phone, day): its use told the table
        self._tasks: set[asyncio.Task[str | None]] = set()

    def table_lang(self) -> str:
        """The table's language: its panel's and its voice's."""
        settings = (self.live.view or {}).get("settings") or {}
        return str(settings.get("language") or self.config.language)

    def reading(self, request: Request) -> reading.Reading:
        """What decides the language this phone reads the page in (``reading``)."""
        return reading.Reading.of(request.cookies.get(reading.COOKIE),
                                  request.headers.get("accept-language", ""), self.table_lang())

    def lang(self, request: Request) -> str:
        """The language this phone reads the page in: its own choice, its browser's, or
        the table's."""
        return self.reading(request).language

    def phone(self, request: Request) -> dict[str, Any] | None:
        """The phone the cookie's session is, if the table keeps it and it was used within
        PHONE_DAYS days; its first use of a day is told to the table (its last use)."""
        session = request.cookies.get(COOKIE)
        phones = [p for p in self.live.private().get("phones") or () if isinstance(p, dict)]
        if not session or not paired(session, [str(p.get("digest")) for p in phones]):
            return None
        mine, today = digest(session), day_now()
        phone = next(p for p in phones if p.get("digest") == mine)
        used = phone.get("used")
        used = used if isinstance(used, int) else 0
        if Phone(mine, used=used).expired(today):  # the table's own rule: refused now,
            return None  # and forgotten by the table at the next phone's use
        if used != today and (mine, today) not in self._told:
            self._told.add((mine, today))
            task = asyncio.get_running_loop().create_task(
                self.live.ask("used", phone=mine, day=today))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return phone

    def session(self, request: Request) -> str | None:
        """The cookie's session, if its phone is paired (``phone``)."""
        return request.cookies.get(COOKIE) if self.phone(request) is not None else None

    def phones(self, request: Request) -> tuple[dict[str, Any], ...]:
        """The paired phones as the settings page lists them (``pages.settings_page``)."""
        me = (self.phone(request) or {}).get("digest")
        return tuple({"id": str(p.get("digest", ""))[:16], "kind": str(p.get("kind") or ""),
                      "paired": _date(p.get("paired")), "used": _date(p.get("used")),
                      "me": me is not None and p.get("digest") == me}
                     for p in self.live.private().get("phones") or () if isinstance(p, dict))

    def fragment(self, lang: str) -> tuple[int, str]:
        """Now's live part at this version in ``lang`` (made once a version and language,
        for every client)."""
        version = self.live.version
        if version != self._fragments_at:
            self._fragments, self._fragments_at = {}, version
        if lang not in self._fragments:
            self._fragments[lang] = pages.now_fragment(self.live.public(), lang)
        return version, self._fragments[lang]


def build(companion: Companion) -> Starlette:
    live = companion.live

    def html(text: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(text, status)

    def csrf(request: Request) -> str:
        session = companion.session(request)
        return csrf_token(session) if session else ""

    def renewed(response: Response, request: Request) -> Response:
        """A paired phone's cookie, renewed for PHONE_DAYS days from its use."""
        if (session := companion.session(request)) is not None:
            _set_cookie(response, session)
        return response

    async def now(request: Request) -> Response:
        return renewed(html(pages.now_page(live.public(), companion.lang(request), csrf(request))),
                       request)

    async def api_now(request: Request) -> Response:
        return JSONResponse(live.public())

    async def events(request: Request) -> Response:
        """Now's live part each time what a phone shows changes, and only then: the panel
        turning a result's pages every 3 s changes the table's view, not the phone's (the
        same 3.5 KB were sent again each time, 6.8 MB an hour). Each is sent with its
        ``id``, which the browser gives back when the stream opens again (every
        STREAM_FOR s): what it has is not sent again."""
        shown = request.headers.get("last-event-id", "")[:32]

        async def stream() -> AsyncIterator[str]:
            nonlocal shown
            yield "retry: 1000\n\n"
            seen, ends = -1, time.monotonic() + STREAM_FOR
            told = time.monotonic()  # when the phone was last sent anything
            mine = companion.reading(request)  # its cookie and browser, read once
            while (now := time.monotonic()) < ends:
                lang = mine._replace(table=companion.table_lang()).language  # (the table's
                # may change meanwhile)
                version, fragment = companion.fragment(lang)
                ident = _ident(lang, live.status, fragment)
                if version != seen and ident != shown:
                    shown, told = ident, now
                    data = json.dumps({"html": fragment, "lang": lang, "version": version,
                                       "status": live.status}, ensure_ascii=False)
                    yield f"event: now\nid: {ident}\ndata: {data}\n\n"
                elif now - told >= HEARTBEAT:  # nothing new for a while: still here
                    told = now
                    yield ": still here\n\n"
                seen = version
                await live.changed(seen, max(0.0, HEARTBEAT - (time.monotonic() - told)))
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    async def history(request: Request) -> Response:
        lang = companion.lang(request)
        games = await live.history()  # the names as the table last told them: its own
        if games is None:
            return html(pages.history_page(live.put_away, live.names, lang, off=True))
        ended = PastGame.just_ended((live.view or {}).get("game") or {})  # at once, not
        return html(pages.history_page([*([ended] if ended else []), *games],  # once put
                                       live.names, lang))  # away with the next game's setup

    async def rules(request: Request) -> Response:
        game = (live.view or {}).get("game") or {}
        rules = companion.config.rules
        with contextlib.suppress(Exception):
            if game.get("rules"):
                rules = HouseRules.from_strings(game["rules"])
        return html(pages.rules_page(companion.lang(request), rules))

    async def settings(request: Request) -> Response:
        return renewed(html(pages.settings_page(live.public(), companion.reading(request),
                                                csrf(request), companion.phones(request))),
                       request)

    async def choose_language(request: Request) -> Response:
        """This phone's own language (``reading``), from Settings' form: kept in its
        cookie, then back to Settings. Anyone may choose it: it changes nothing at the
        table. "" forgets the choice (the browser's, or the table's, again)."""
        if not _same_origin(request):
            return PlainTextResponse("not from this page", 403)
        if request.headers.get("content-type", "").split(";")[0].strip() \
                != "application/x-www-form-urlencoded":
            return PlainTextResponse("send the form", 415)
        body = await _body(request, FORM_MOST)
        if body is None:
            return PlainTextResponse("too long", 413)
        value = urllib.parse.parse_qs(body.decode("latin-1")).get("lang", [""])[0]
        if value and reading.chosen(value) is None:
            return PlainTextResponse("no such language", 400)
        response = RedirectResponse("/settings", 303)
        if value:
            response.set_cookie(reading.COOKIE, value, max_age=reading.KEEP_DAYS * 24 * 3600,
                                httponly=True, samesite="lax", path="/")
        else:
            response.delete_cookie(reading.COOKIE, path="/")
        return response

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        kinds = {"app.js": "text/javascript", "style.css": "text/css"}
        if (drawn := icons.icon(name)) is not None:  # a picture of its own: a day
            return Response(drawn, media_type="image/png",
                            headers={"cache-control": "max-age=86400"})
        if name not in kinds:
            return PlainTextResponse("not found", 404)
        return Response((STATIC / name).read_bytes(), media_type=kinds[name],
                        headers={"cache-control": "max-age=60"})

    async def manifest(request: Request) -> Response:
        return Response(icons.manifest(companion.lang(request)),
                        media_type="application/manifest+json")

    async def favicon(request: Request) -> Response:  # asked for whatever the page says
        return Response(icons.png(icons.FAVICON), media_type="image/png",
                        headers={"cache-control": "max-age=86400"})

    async def change(request: Request) -> Response:
        """A setting from a paired phone: one intent on the seam."""
        lang = companion.lang(request)
        intent = request.path_params["intent"]
        if intent not in SETTINGS:
            return JSONResponse({"said": "not found"}, 404)
        session = request.cookies.get(COOKIE)
        if companion.session(request) is None:
            return JSONResponse({"said": say(lang, "need_pair")}, 401)
        assert session is not None
        if not csrf_ok(session, request.headers.get(CSRF_HEADER)) or not _same_origin(request):
            return JSONResponse({"said": "a change needs this page's token"}, 403)
        if wait := companion.pace.wait(digest(session)):  # no phone floods the table
            return JSONResponse({"said": say(lang, "too_many")}, 429,
                                headers={"retry-after": str(max(1, math.ceil(wait)))})
        body = await _json(request)
        if isinstance(body, Response):
            return body
        if intent == "names" and (wrong := _names_fault(body.get("names"), lang)):
            return JSONResponse({"said": wrong}, 400)  # in the page's words, not the seam's
        if intent == "forget":  # a phone of the list, by its id: the first 16 of its digest
            phone = next((p.get("digest") for p in live.private().get("phones") or ()
                          if isinstance(p, dict) and body.get("value")
                          and str(p.get("digest", ""))[:16] == body.get("value")), None)
            if phone is None:
                return JSONResponse({"said": "no such phone"}, 400)
            body = {"phone": phone}
        values = {"names": body.get("names"), "was": body.get("was")} if intent == "names" \
            else {"phone": body.get("phone")} if intent == "forget" else (
            {"changes": body.get("changes")} if intent == "hardware" else
            {} if intent in ("repeat", "keep") else {"value": body.get("value")})
        why = await live.ask(intent, **values)
        if why is not None:
            return JSONResponse({"said": why}, 503 if not live.connected else 400)
        changes = body.get("changes")
        if intent == "hardware" and isinstance(changes, dict) \
                and any(str(key).startswith("display.") for key in changes):
            return JSONResponse({"ok": True, "said": say(lang, "on_trial"), "trial": True})
        return JSONResponse({"ok": True, "said": say(lang, "saved")})

    async def pair(request: Request) -> Response:
        lang = companion.lang(request)
        if not _same_origin(request):
            return JSONResponse({"said": "not from this page"}, 403)
        body = await _json(request)  # read first: a guess is judged once it is all here
        if isinstance(body, Response):
            return body
        code = body.get("code")
        return await _pair_with(
            companion, code if isinstance(code, str) else "",
            phone_kind(request.headers.get("user-agent", "")),
            ok=lambda: JSONResponse({"ok": True, "said": say(lang, "paired")}),
            refused=lambda why: JSONResponse({"said": why or say(lang, "wrong_code")}, 403),
            too_many=lambda: _too_many(companion, lang))

    async def pair_link(request: Request) -> Response:
        """The panel's QR code: its one-time token in the address."""
        lang = companion.lang(request)
        token = request.query_params.get("t", "")[:64]
        return await _pair_with(
            companion, token, phone_kind(request.headers.get("user-agent", "")),
            ok=lambda: RedirectResponse("/settings", 303),
            refused=lambda why: html(pages.document(lang, "settings", pages.pair_form(
                lang, why or say(lang, "wrong_code"))), 403),
            too_many=lambda: html(pages.document(lang, "settings", pages.pair_form(
                lang, say(lang, "too_many"))), 429))

    async def ask_code(request: Request) -> Response:
        """Ask the table to show a code on its panel (no pairing needed: that is what it
        is for), one every few seconds at most."""
        lang = companion.lang(request)
        if not _same_origin(request):
            return JSONResponse({"said": "not from this page"}, 403)
        loop_now = asyncio.get_running_loop().time()
        if loop_now - companion.asked_at < ASK_EVERY:
            return JSONResponse({"said": say(lang, "too_many")}, 429,
                                headers={"retry-after": str(int(ASK_EVERY))})
        companion.asked_at = loop_now
        why = await live.ask("pair")
        if why is not None:
            return JSONResponse({"said": why}, 503)
        return JSONResponse({"ok": True, "said": say(lang, "pair_code")})

    routes = [
        Route("/", now), Route("/history", history), Route("/rules", rules),
        Route("/settings", settings), Route("/events", events), Route("/api/now", api_now),
        Route("/static/{name}", static), Route("/pair", pair_link),
        Route("/manifest.webmanifest", manifest), Route("/favicon.ico", favicon),
        Route("/language", choose_language, methods=["POST"]),
        Route("/api/pair", pair, methods=["POST"]),
        Route("/api/pair/request", ask_code, methods=["POST"]),
        Route("/api/{intent}", change, methods=["POST"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(live.follow())
        # Started by the first visit (systemd's socket): that visit waits in the socket's
        # queue until the table's view is here, and sees the game, not "starting".
        end = asyncio.get_running_loop().time() + FIRST_VIEW_WITHIN
        while live.status != "playing" and (left := end - asyncio.get_running_loop().time()) > 0:
            await live.changed(live.version, left)
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    return Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(GZipMiddleware, minimum_size=COMPRESS_FROM)])  # not the live stream
        # (text/event-stream is left as it is from Starlette 1.5)


async def _pair_with(companion: Companion, proof: str, kind: str, *,
                     ok: Callable[[], Response], refused: Callable[[str], Response],
                     too_many: Callable[[], Response]) -> Response:
    """Pair with ``proof`` (the code or the QR's token): a new session, kept by the table
    (its digest); ``ok``, ``refused`` (with why, or "" for a wrong code) or ``too_many``
    says so. The QR code's token is never throttled (it cannot be guessed). Whether a
    guess may be tried, and counting it when wrong, come with no await between them:
    the loop runs one guess's judging at a time, so guesses sent together cannot all be
    let through before the first is counted (issue 59: 150 sent with their bodies after
    their heads were all checked)."""
    proof = proof.replace(" ", "")[:64]
    private = companion.live.private()
    matched = companion.tries.matches(proof, private)
    if matched is None or matched != (private.get("pairing") or {}).get("token"):
        # Six digits may be guessed: five wrong a minute, from anyone. The QR code's
        # token (12 random bytes) cannot be, so it pairs whatever a stranger's guesses
        # have done: they never lock the family out of their own panel's code.
        if not companion.tries.allowed():
            return too_many()
        if matched is None:
            companion.tries.wrong()
            return refused("")
    companion.tries.used.add(matched)
    session = new_session()
    why = await companion.live.ask("paired", proof=matched, phone=digest(session),
                                   kind=kind, day=day_now())
    if why is not None:
        return refused(why)
    response = ok()
    _set_cookie(response, session)
    return response


def _ident(lang: str, status: str, fragment: str) -> str:
    """What a phone shows, in 16 hex digits: the id of the event that sent it."""
    return hashlib.blake2b(f"{lang}\n{status}\n{fragment}".encode(), digest_size=8).hexdigest()


def _names_fault(names: object, lang: str) -> str:
    """What is wrong with the first of a form's names that cannot be a seat's, in the
    page's words ("" if none is: the table judges the rest, the seats themselves)."""
    if not isinstance(names, dict):
        return ""
    for seat, name in names.items():
        if isinstance(name, str) and (wrong := fault(name)):
            return say(lang, f"name_{wrong}", seat=seat, most=NAME_LETTERS, wide=WIDE_LETTERS)
    return ""


def _set_cookie(response: Response, session: str) -> None:
    """The session's cookie, for PHONE_DAYS days from now (renewed at each use)."""
    response.set_cookie(COOKIE, session, max_age=PHONE_DAYS * 24 * 3600, httponly=True,
                        samesite="strict", path="/")


def day_now() -> int:
    """Today, as the table keeps a phone's days: days since 1970 by this machine's clock."""
    return int(time.time() // 86400)


def _date(day: object) -> str:
    """A day since 1970 as an ISO date ("" for none)."""
    if not isinstance(day, int) or isinstance(day, bool) or not 0 < day < 10 ** 6:
        return ""
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=day)).isoformat()


def _too_many(companion: Companion, lang: str) -> Response:
    return JSONResponse({"said": say(lang, "too_many")}, 429,
                        headers={"retry-after": str(companion.tries.retry_after())})


def _same_origin(request: Request) -> bool:
    """A change's Origin, where the browser gives one, is this page's own host."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


async def _body(request: Request, most: int) -> bytes | None:
    """The request's body, read no further than ``most`` bytes (None: it is longer, by
    its Content-Length or as it came)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > most):
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > most:
            return None
    return bytes(body)


async def _json(request: Request) -> dict[str, Any] | Response:
    """The body as a JSON object, read no further than ``INTENT_MOST`` bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return JSONResponse({"said": "send JSON"}, 415)
    body = await _body(request, INTENT_MOST)
    if body is None:
        return JSONResponse({"said": "too long"}, 413)
    try:
        value = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return JSONResponse({"said": "not JSON"}, 400)
    if not isinstance(value, dict):
        return JSONResponse({"said": "not a JSON object"}, 400)
    return value


class Hardened:
    """The security headers on every answer, no request with more than ``HEADERS_MOST``
    bytes of headers, and none to a Host not the page's own (``hosts``: 421, before
    anything else, the rebinding defence) (ASGI middleware). uvicorn's h11 parses a
    request's head whole up to some 256 KiB when it comes in few reads; the page needs a
    few hundred bytes of it."""

    def __init__(self, app: Starlette, names: frozenset[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if sum(len(k) + len(v) for k, v in scope["headers"]) > HEADERS_MOST:
            await PlainTextResponse("request headers too large", 431, headers=REFUSED)(
                scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
        if not is_own(host, self.names):
            await PlainTextResponse("this page answers to its own name or address only",
                                    421, headers=REFUSED)(scope, receive, send)
            return

        cache = PRIVATE if scope["path"].startswith(("/api/", "/pair", "/language")) else CACHE

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(
                    (k.encode(), v.encode()) for k, v in (*HEADERS.items(),
                                                          ("cache-control", cache))
                    if k.encode() not in have)]
            await send(message)

        await self.app(scope, receive, with_headers)


def application(directory: Path, config: Config, page_address: str = "") -> Hardened:
    return Hardened(build(Companion(directory, config, page_address)),
                    own_names(socket.gethostname(), page_address))
