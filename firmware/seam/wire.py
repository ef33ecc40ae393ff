"""The seam's framing, the one home of its limits and its socket's name.

A message is one JSON object on one line (UTF-8, ``\\n`` at its end). The table sends
``{"kind": "view", …}`` whenever what it shows changed, and answers each intent
``{"kind": "answer", "id": N, "ok": true}`` (or ``"why"``: one line saying what is
wrong); a client sends intents, ``{"intent": "names", "id": N, …}``.

>>> decode(encode({"kind": "view", "mode": "play"}))
{'kind': 'view', 'mode': 'play'}
>>> decode(b"[1, 2]\\n") is None, decode(b"\\xff\\n") is None
(True, True)
"""

from __future__ import annotations

import json
import os
import socket
import struct
from pathlib import Path
from typing import Any

SOCKET = "table.sock"
"""The seam's name in the table's state folder (mode 0600: the table's user only)."""
INTENT_MOST = 4096
"""The longest line a client may send: a longer one ends its connection."""
VIEW_MOST = 1 << 20
"""The longest line the table sends (a client reads no further)."""
CLIENTS_MOST = 8
"""Connections at once: one more is closed at once (the companion page needs one)."""
INTENTS = ("names", "language", "voice", "story", "brightness", "repeat", "pair", "paired",
           "used", "forget", "address", "hardware", "keep")
"""Every intent a client may send (``firmware.seam.intents.wanted`` takes each)."""
SETTINGS = ("names", "language", "voice", "story", "brightness", "repeat", "hardware",
            "keep", "forget")
"""The intents a paired phone sends from the page as they are (``/api/<intent>``); the
page sends the others itself (a pairing, a phone's use, its address)."""
PATH_MOST = 107  # sun_path's room on Linux, less its terminating NUL

Message = dict[str, Any]


def socket_path(directory: Path) -> Path:
    """Where the table in ``directory`` listens."""
    return directory / SOCKET


def address(path: Path) -> tuple[str, int | None]:
    """``path`` as ``bind`` or ``connect`` can take it, and a folder descriptor to close
    after: a path longer than a socket's room is reached through its folder's descriptor
    (``/proc/self/fd/N/table.sock``)."""
    text = os.fsencode(path)
    if len(text) <= PATH_MOST:
        return str(path), None
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    return f"/proc/self/fd/{folder}/{path.name}", folder


def connect(path: Path, timeout: float = 2.0) -> socket.socket:
    """A connection to the table's seam (OSError if nobody listens there)."""
    where, folder = address(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
    try:
        sock.settimeout(timeout)
        sock.connect(where)
    except OSError:
        sock.close()
        raise
    finally:
        if folder is not None:
            os.close(folder)
    return sock


def peer_is_ours(sock: object) -> bool:
    """Whether the other end of ``sock`` (a socket, or asyncio's stand-in for one) runs as
    our own user or root: the socket file's mode says so too, but a socket can be reached
    by a path the mode does not guard, and a stranger can listen where the table would."""
    try:
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,  # type: ignore[attr-defined]
                                struct.calcsize("3i"))
    except (OSError, AttributeError):
        return False
    _, uid, _ = struct.unpack("3i", creds)
    return uid in (os.geteuid(), 0)


def encode(message: Message) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def decode(line: bytes) -> Message | None:
    """One line's message, or None if it is not a JSON object."""
    try:
        message = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return message if isinstance(message, dict) else None
