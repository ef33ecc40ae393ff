"""The companion page's test bench: a real emulated table and a real ``robinson web``, each
its own process, as on a Pi; a phone's requests through httpx, its eyes on the seam.

``Table`` runs ``robinson table --emulate`` with its keys on a pipe (a press waits for
the table to take it), ``Web`` runs ``robinson web`` on a free port; ``seam_view`` reads
what the table publishes, as the page does (with what is private: the code on the panel).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import httpx

from firmware.seam.wire import Message, connect, decode, encode, socket_path

ROBINSON = Path(sys.executable).with_name("robinson")
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(check: Any, within: float, what: str) -> Any:
    """``check()``'s first true answer within ``within`` seconds (AssertionError after)."""
    end = time.monotonic() + within
    while True:
        with contextlib.suppress(httpx.HTTPError, OSError, AssertionError):
            if answer := check():
                return answer
        if time.monotonic() > end:
            raise AssertionError(f"not within {within} s: {what}")
        time.sleep(0.02)


STARTED: list[_Process] = []
"""Every process a test started, for ``stop_all`` after it."""


def stop_all() -> None:
    """Stop what a test left running (it failed before its own stop): else its process
    and its output file outlive it, and their ResourceWarnings fail the next test on the
    same worker."""
    while STARTED:
        left = STARTED.pop()
        if not hasattr(left, "process"):  # its start failed: only its output file is open
            left.out.close()
        elif left.process.poll() is None or not left.out.closed:
            with contextlib.suppress(AssertionError):
                left.stop(signal.SIGKILL)


class _Process:
    """One of the product's processes, its output kept in a file beside its folder."""

    process: subprocess.Popen[bytes]

    def __init__(self, directory: Path, kind: str) -> None:
        self.directory = directory
        self.out = (directory.parent / f"{directory.name}-{kind}.txt").open("ab")
        STARTED.append(self)

    def said(self) -> str:
        if not self.out.closed:
            self.out.flush()
        return Path(self.out.name).read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop it with ``sig``; one that is still running 15 s later is killed, and that
        is a failure (AssertionError)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)
            raise AssertionError(f"{type(self).__name__}: still running 15 s after signal "
                                 f"{sig}, killed; it said: {self.said()[-600:]}") from None
        finally:
            if self.process.stdin is not None:
                with contextlib.suppress(OSError):
                    self.process.stdin.close()
            self.out.close()


class Table(_Process):
    """An emulated table on ``directory``; ``keys`` types on its keyboard."""

    def __init__(self, directory: Path, seats: str = "1,2,3", *extra: str) -> None:
        super().__init__(directory, "table")
        self.process = subprocess.Popen(
            [str(ROBINSON), "table", "--emulate", "--state-dir", str(directory), "--seats",
             seats, *extra], stdin=subprocess.PIPE, stdout=self.out, stderr=subprocess.STDOUT,
            env=ENV)
        wait_for(lambda: socket_path(directory).exists() or self.process.poll() is not None,
                 20, "the table's seam")
        assert self.process.poll() is None, self.said()

    def keys(self, typed: str) -> None:
        stdin: IO[bytes] | None = self.process.stdin
        assert stdin is not None
        stdin.write(typed.encode())
        stdin.flush()


class Web(_Process):
    """``robinson web`` on ``directory``, on a free port of 127.0.0.1."""

    def __init__(self, directory: Path, *extra: str) -> None:
        super().__init__(directory, "web")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [str(ROBINSON), "web", "--state-dir", str(directory), "--port", str(self.port),
             *extra], stdout=self.out, stderr=subprocess.STDOUT, env=ENV)
        self.first: dict[str, Any] = {}  # the first answer of /api/now

        def up() -> bool:
            if self.process.poll() is not None:
                return True
            answer = httpx.get(f"{self.url}/api/now", timeout=10)
            self.first = dict(answer.json())
            return answer.status_code == 200

        wait_for(up, 20, "the page")
        assert self.process.poll() is None, self.said()

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=5)

    def now(self) -> dict[str, Any]:
        return dict(httpx.get(f"{self.url}/api/now", timeout=5).json())


def seam_view(directory: Path, timeout: float = 5.0) -> Message:
    """The view the table publishes now, as the page gets it (with ``private``)."""
    with connect(socket_path(directory), timeout) as sock, sock.makefile("rb") as lines:
        while line := lines.readline():
            message = decode(line)
            if message is not None and message.get("kind") == "view":
                return message
    raise AssertionError("the seam sent no view")


def ask(table: Table, message: dict[str, object]) -> dict[str, object]:
    """One intent on the table's seam; the table's answer to it."""
    with connect(socket_path(table.directory)) as sock, sock.makefile("rb") as lines:
        sock.sendall(encode({"id": 7, **message}))
        while line := lines.readline():
            answer = decode(line)
            if answer is not None and answer.get("kind") == "answer":
                return answer
    raise AssertionError("no answer")


def code_on_the_panel(directory: Path) -> str:
    """The pairing code the panel shows (read as the eyes at the table would)."""
    def code() -> str | None:
        pairing = seam_view(directory)["private"]["pairing"]
        return pairing["code"] if pairing else None
    return str(wait_for(code, 5, "a code on the panel"))


def csrf_of(page: str) -> str:
    found = re.search(r'<meta name="csrf" content="([0-9a-f]+)">', page)
    return found.group(1) if found else ""


@contextlib.contextmanager
def paired(web: Web, directory: Path) -> Iterator[tuple[httpx.Client, str]]:
    """A client paired through the panel's code, and its CSRF token."""
    with web.client() as client:
        asked = client.post("/api/pair/request", json={})
        assert asked.status_code == 200, asked.text
        answer = client.post("/api/pair", json={"code": code_on_the_panel(directory)})
        assert answer.status_code == 200, answer.text
        token = csrf_of(client.get("/settings").text)
        assert token
        yield client, token


def change(client: httpx.Client, token: str, what: str, body: dict[str, Any]) -> httpx.Response:
    return client.post(f"/api/{what}", json=body, headers={"x-csrf-token": token})
