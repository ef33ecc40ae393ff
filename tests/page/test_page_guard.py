"""No one holds the page's door: a request's deadline and a cap on each address's
connections (firmware/web/guard.py), against uvicorn as the page runs it.

The deadline is judged in this process, on uvicorn with the guard's protocol and a
small app, its 10 s shortened; the cap against ``robinson web`` itself
(tests.companion), two hundred heads held from one address while another visits.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from firmware.config.settings import Config
from firmware.seam.wire import connect as seam
from firmware.seam.wire import decode, socket_path
from firmware.web import app as web_app
from firmware.web import guard
from firmware.web.guard import CLIENT_MOST, FIRST_WITHIN, REQUEST_WITHIN, GuardedH11

from ..companion import Table, Web, change, paired, seam_view, wait_for

HELD = 200  # connections one machine holds, each with half a request head


def test_the_documented_figures() -> None:
    """The figures the module's docstring and the README give."""
    assert (REQUEST_WITHIN, FIRST_WITHIN, CLIENT_MOST) == (10.0, 60.0, 16)


def closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closed ``sock`` within ``within`` seconds (an end of file)."""
    ready, _, _ = select.select([sock], [], [], within)
    if not ready:
        return False
    try:
        return sock.recv(4096) == b""
    except ConnectionResetError:
        return True


HALF_A_HEAD = b"GET / HTTP/1.1\r\nHost: localhost\r\n"
A_STREAM = b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n"  # asked for, never read


def hold_heads(port: int, held: list[socket.socket], sent: bytes = HALF_A_HEAD) -> None:
    """HELD connections from 127.0.0.2 to the page on ``port``, each with half a request
    head (or ``sent``), kept in ``held`` (the caller closes them)."""
    for _ in range(HELD):
        sock = socket.socket()
        held.append(sock)
        sock.bind(("127.0.0.2", 0))
        sock.connect(("127.0.0.1", port))
        with contextlib.suppress(OSError):  # (one closed at once may refuse it)
            sock.sendall(sent)


def closed_of(socks: list[socket.socket], within: float) -> list[socket.socket]:
    """Those of ``socks`` the server closed, waited for together up to ``within`` s."""
    waiting, shut = list(socks), []
    end = time.monotonic() + within
    while waiting and (left := end - time.monotonic()) > 0:
        ready, _, _ = select.select(waiting, [], [], left)
        for sock in ready:
            waiting.remove(sock)
            if closed(sock, 0.0):
                shut.append(sock)
    return shut


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A page of one line, and a stream of 25 lines, one every 0.1 s, at /stream; a
    POST's body read whole first."""
    if scope["type"] != "http":
        return
    if scope["method"] == "POST":
        while (await receive()).get("more_body"):
            pass
    if scope["path"] != "/stream":
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/plain"), (b"content-length", b"3")]})
        await send({"type": "http.response.body", "body": b"ok\n"})
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain")]})
    for n in range(25):
        await send({"type": "http.response.body", "body": f"{n}\n".encode(),
                    "more_body": True})
        await asyncio.sleep(0.1)
    await send({"type": "http.response.body", "body": b""})


@contextlib.contextmanager
def serving(app: Any, **settings: Any) -> Iterator[int]:
    """uvicorn with the guard's protocol, running ``app`` on a free port (yielded)."""
    sock = socket.create_server(("127.0.0.1", 0))
    settings = {"lifespan": "off", **settings}
    config = uvicorn.Config(app, fd=sock.fileno(), http=GuardedH11, log_level="error",
                            timeout_keep_alive=5, timeout_graceful_shutdown=1, **settings)
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    port = sock.getsockname()[1]
    wait_for(lambda: httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code in (200, 421),
             20, "uvicorn")
    try:
        yield port
    finally:
        running.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """uvicorn with the guard's protocol on a free port, its deadlines 0.5 s (a request)
    and 1 s (a connection's first byte)."""
    monkeypatch.setattr(guard, "REQUEST_WITHIN", 0.5)
    monkeypatch.setattr(guard, "FIRST_WITHIN", 1.0)
    with serving(_app) as port:
        yield port


def test_a_connection_that_sends_nothing_is_closed_at_its_deadline(server: int) -> None:
    """Open, and silent: closed at the first byte's deadline (1 s here, 60 s as shipped),
    not at the request's (0.5 s here): a browser opens connections before it needs them."""
    with socket.create_connection(("127.0.0.1", server)) as silent:
        began = time.monotonic()
        assert closed(silent, 20.0), "still open 20 s after"
        assert time.monotonic() - began >= 0.9, "closed before its deadline"


@pytest.mark.parametrize("sent", [
    b"GET / HTTP/1.1\r\nHost: localhost\r\n",
    b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\nab"])
def test_a_request_that_does_not_arrive_in_time_is_closed(server: int, sent: bytes) -> None:
    """Half a head, or a head and half its body: closed at the request's deadline (a
    bound no healthy run nears: 20 s for 0.5). A whole request on the same connection
    before it is answered."""
    with socket.create_connection(("127.0.0.1", server)) as held:
        held.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        got = b""
        while not got.endswith(b"ok\n"):  # the answer whole, its head and its body
            more = held.recv(4096)
            assert more, f"closed before its answer was whole: {got!r}"
            got += more
        assert got.startswith(b"HTTP/1.1 200"), got
        held.sendall(sent)
        began = time.monotonic()
        assert closed(held, 20.0), f"{sent!r}: still open 20 s after"
        assert time.monotonic() - began >= 0.4, "closed before its deadline"


def test_a_live_stream_outlives_the_deadline(server: int) -> None:
    """A stream (as ``/events`` is) is a request delivered: read past three deadlines."""
    with httpx.stream("GET", f"http://127.0.0.1:{server}/stream", timeout=5) as stream:
        lines = stream.iter_lines()
        began = time.monotonic()
        read = [next(lines) for _ in range(3)]
        while time.monotonic() - began < 1.5:  # three deadlines: the stream outlives them
            read.append(next(lines))
        assert read[:3] == ["0", "1", "2"] and len(read) >= 10, read


def test_a_live_stream_ends_after_its_time_and_the_browser_opens_it_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 59: a stream a phone asleep holds (its tab put away) was held for ever. The
    page's own ``/events`` (in this process, no table beside it) ends after STREAM_FOR,
    1 s here (600 as shipped), having told the browser to open it again within 1 s."""
    assert web_app.STREAM_FOR == 600.0  # the figure the docstrings give
    monkeypatch.setattr(web_app, "STREAM_FOR", 1.0)
    monkeypatch.setattr(web_app, "HEARTBEAT", 0.2)
    (tmp_path / "state").mkdir(mode=0o700)
    app = web_app.application(tmp_path / "state", Config())
    with serving(app) as port:
        began, lines = time.monotonic(), []  # before the request: the page's clock for the
        with httpx.stream("GET", f"http://127.0.0.1:{port}/events",  # stream starts after
                          headers={"host": "localhost"}, timeout=20) as stream:
            for line in stream.iter_lines():  # to its end, or 15 s (a heartbeat each 0.2 s)
                lines.append(line)
                if time.monotonic() - began > 15.0:
                    break
        took = time.monotonic() - began
    assert stream.status_code == 200 and lines[0] == "retry: 1000", lines[:3]
    assert "event: now" in lines and 1.0 <= took < 15.0, (took, lines[:5])


def test_a_page_started_beside_a_running_table_is_ready_once_its_view_is_here(
        tmp_path: Path) -> None:
    """The page, started by a phone's first visit, holds that visit until the table's
    view is here (at most FIRST_VIEW_WITHIN, 3 s, for a table that is not running):
    beside a table that runs it is ready as soon as the view comes (its time printed;
    the bound, the 3 s a page waits for a view that never comes, is the thing absent)."""
    assert web_app.FIRST_VIEW_WITHIN == 3.0
    table = Table(tmp_path / "state", "1,2,3")
    try:
        wait_for(lambda: seam_view(table.directory)["mode"] == "setup", 10, "the table")
        began = time.monotonic()
        with serving(web_app.application(table.directory, Config()), lifespan="on") as port:
            took = time.monotonic() - began
            now = httpx.get(f"http://127.0.0.1:{port}/api/now", headers={"host": "localhost"},
                            timeout=5).json()
        print(f"\nthe page beside a running table: ready in {took * 1000:.0f} ms")
        assert now["status"] == "playing" and took < 3.0, (now.get("status"), took)
    finally:
        table.stop()


def test_a_full_server_makes_room_for_a_newcomer_from_the_busiest_address() -> None:
    """Issue 59: CLIENT_MOST an address, but thirteen machines could still fill uvicorn's
    200 (then 503 to everyone). Here a server of 30 held from three addresses (14, 14, 1
    heads): the 30th, from a busiest address, is closed itself; a visitor is answered, in
    the place of the oldest connection of an address that holds the most."""
    held: dict[str, list[socket.socket]] = {"127.0.0.2": [], "127.0.0.3": [], "127.0.0.4": []}

    def hold(address: str) -> None:
        sock = socket.socket()
        held[address].append(sock)
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        time.sleep(0.01)  # the server takes them in order: the first opened is the oldest

    with serving(_app, limit_concurrency=30) as port:
        try:
            for address, count in (("127.0.0.2", 14), ("127.0.0.3", 14), ("127.0.0.4", 1)):
                for _ in range(count):
                    hold(address)
            hold("127.0.0.2")  # the 30th: its address holds the most
            assert closed_of(held["127.0.0.2"], 5.0) == [held["127.0.0.2"][-1]]
            answer = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
            assert answer.status_code == 200, answer.status_code
            held["127.0.0.2"].pop().close()  # (closed, seen above)
            shut = {address: closed_of(socks, 1.0) for address, socks in held.items()}
            assert shut == {"127.0.0.2": [held["127.0.0.2"][0]], "127.0.0.3": [],
                            "127.0.0.4": []}, {a: len(socks) for a, socks in shut.items()}
        finally:
            for socks in held.values():
                for sock in socks:
                    with contextlib.suppress(OSError):
                        sock.close()


@pytest.fixture
def page() -> Iterator[Web]:
    """``robinson web`` on a state folder of its own, no table beside it."""
    path = Path(tempfile.mkdtemp(prefix="rt-"))
    (path / "state").mkdir(mode=0o700)
    running = Web(path / "state")
    yield running
    running.stop()
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("sent", [HALF_A_HEAD, A_STREAM], ids=["heads", "streams"])
def test_one_address_holds_at_most_its_share_of_the_page(page: Web, sent: bytes) -> None:
    """HELD connections from 127.0.0.2, each with half a request head (the attack that
    once left the page answering no one), or each a live stream asked for and never
    read: all but CLIENT_MOST are closed at once, and a phone at 127.0.0.1 is answered
    meanwhile (its time printed; a bound of 1 s, some fifty times a healthy run's)."""
    held: list[socket.socket] = []
    try:
        hold_heads(page.port, held, sent)
        shut = len(closed_of(held[CLIENT_MOST:], 5.0))
        began = time.monotonic()
        answer = httpx.get(f"{page.url}/api/now", timeout=5)
        took = time.monotonic() - began
        what = "heads" if sent == HALF_A_HEAD else "streams"
        print(f"\na visitor beside {HELD} held {what}: answered in {took * 1000:.0f} ms")
        assert answer.status_code == 200 and took < 1.0, (answer.status_code, took)
        assert shut == HELD - CLIENT_MOST, shut
        assert not any(closed(sock, 0.0) for sock in held[:CLIENT_MOST])  # their 10 s
    finally:
        for sock in held:
            with contextlib.suppress(OSError):
                sock.close()


PRESSES = 12  # rolls timed in each condition: 24 among six players, no win among them


def _press_times(table: Table, presses: int) -> list[float]:
    """Seconds from each ROLL key to the table's view with that roll (its seam). A press
    that only ended a message or turned a result's page is not timed: the next is."""
    times: list[float] = []
    with seam(socket_path(table.directory), 10) as sock:
        pending = b""

        def actions(within: float) -> int | None:
            """The next view's actions in play, or None if no view came within."""
            nonlocal pending
            end = time.monotonic() + within
            while True:
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    view = decode(line)
                    if view is not None and view.get("kind") == "view" and view.get("game"):
                        return int(view["game"]["actions"])
                left = end - time.monotonic()
                if left <= 0 or not select.select([sock], [], [], left)[0]:
                    return None
                chunk = sock.recv(65536)
                assert chunk, "the seam closed"
                pending += chunk

        before = actions(10.0)
        assert before is not None, "no view of a game"
        tries = 0
        while len(times) < presses:
            tries += 1
            assert tries < 3 * presses, f"{presses} presses took {tries}: rolls not seen"
            began = time.monotonic()
            table.keys(" ")
            while (now := actions(2.0)) is not None and now <= before:
                pass  # a view without the roll (a message ended, a page turned)
            if now is not None:
                times.append(time.monotonic() - began)
                before = now
    return times


def test_a_press_under_every_page_attack_at_once(tmp_path: Path) -> None:
    """Issue 59's measure: a roll's time from its press to the table's view, with no one
    at the page, and then with every attack at once from other machines: 200 half-sent
    heads held (127.0.0.2), wrong pairing codes sent without end (127.0.0.3), a paired
    phone sending changes without end (127.0.0.4), foreign Hosts (127.0.0.5). The
    medians are printed (the figure: within 1.3x); a test fails only past 3x and 50 ms,
    which no healthy run nears, or if a roll is not seen at all."""
    import statistics

    folder = Path(tempfile.mkdtemp(prefix="rt-")) / "state"
    table = Table(folder, "1,2,3,4,5,6", "--no-animation")
    web = Web(folder)
    stop = threading.Event()
    held: list[socket.socket] = []
    try:
        table.keys("hh")
        wait_for(lambda: seam_view(folder).get("game"), 10, "a game")
        quiet = _press_times(table, PRESSES)
        with paired(web, folder) as (client, token):
            cookies = dict(client.cookies)

            def guesses() -> None:
                with httpx.Client(base_url=web.url, timeout=5, transport=httpx.HTTPTransport(
                        local_address="127.0.0.3")) as guesser:
                    while not stop.is_set():
                        guesser.post("/api/pair", json={"code": "000000"})

            def changes() -> None:
                with httpx.Client(base_url=web.url, timeout=5, cookies=cookies,
                                  transport=httpx.HTTPTransport(local_address="127.0.0.4")
                                  ) as phone:
                    while not stop.is_set():
                        change(phone, token, "brightness", {"value": 2})

            def strangers() -> None:
                with httpx.Client(base_url=web.url, timeout=5, transport=httpx.HTTPTransport(
                        local_address="127.0.0.5")) as rebinder:
                    while not stop.is_set():
                        rebinder.get("/api/now", headers={"host": "evil.example"})

            hold_heads(web.port, held)
            attackers = [threading.Thread(target=attack, daemon=True)
                         for attack in (guesses, changes, strangers)]
            for attacker in attackers:
                attacker.start()
            attacked = _press_times(table, PRESSES)
            stop.set()
            for attacker in attackers:
                attacker.join(10)
    finally:
        stop.set()
        for sock in held:
            with contextlib.suppress(OSError):
                sock.close()
        web.stop()
        table.stop()
        shutil.rmtree(folder.parent, ignore_errors=True)
    calm, busy = statistics.median(quiet), statistics.median(attacked)
    print(f"\na press to its view, median of {PRESSES}: {calm * 1000:.1f} ms alone, "
          f"{busy * 1000:.1f} ms under every page attack at once ({busy / calm:.2f}x)")
    assert len(quiet) == len(attacked) == PRESSES
    assert busy < max(3 * calm, calm + 0.05), (calm, busy)
