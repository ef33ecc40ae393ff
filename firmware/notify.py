"""systemd's readiness and watchdog protocol: one datagram to $NOTIFY_SOCKET.

Written here because it is a few lines and the one small library for it
(sdnotify, last released 2017) does not read WATCHDOG_USEC.

>>> Notifier({}).enabled  # not started by systemd: every call does nothing
False
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger("robinson.notify")


class Notifier:
    """Tells systemd the table is ready, and feeds its watchdog; silent outside systemd."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        # A leading @ names an abstract socket (a NUL byte in the kernel's terms).
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        mine = not pid or pid == str(os.getpid())
        number = usec.isascii() and usec.isdigit()  # not int("²"): systemd's are ASCII
        self.watchdog: float | None = int(usec) / 1e6 if number and mine else None
        self._socket: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> None:
        if not self.address:
            return
        try:
            if self._socket is None:
                kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                self._socket = socket.socket(socket.AF_UNIX, kind)
            self._socket.sendto(message.encode(), self.address)
        except OSError as error:
            log.warning("sd_notify %s: %s", message, error)

    def ready(self) -> None:
        self.send("READY=1")

    def ping(self) -> None:
        self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
