"""The seam from a command (``robinson names`` while the table runs): one intent, its
answer, and the view after it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware.seam.wire import VIEW_MOST, Message, connect, decode, encode, socket_path


def ask(directory: Path, intent: str, timeout: float = 5.0,
        **values: Any) -> tuple[str | None, Message | None] | None:
    """Ask the table in ``directory``: None if no table listens there; else why it
    refused (None: taken) and its view after it."""
    try:
        sock = connect(socket_path(directory), timeout)
    except OSError:
        return None
    with sock, sock.makefile("rb") as lines:
        try:
            sock.sendall(encode({"intent": intent, "id": 1, **values}))
            why: str | None = "the table did not answer"
            answered = False
            while line := lines.readline(VIEW_MOST + 1):
                message = decode(line)
                if message is None:
                    break
                if message.get("kind") == "answer" and message.get("id") == 1:
                    answered = True
                    why = None if message.get("ok") else str(message.get("why"))
                elif message.get("kind") == "view" and answered:
                    return why, message
        except (TimeoutError, OSError):
            pass
    return why, None
