"""``robinson web``: the companion page served by uvicorn, on the socket systemd hands
over (``robinson-web.socket``: port 80, no capability needed) or on ``--host``/``--port``.

Says where the page is (``http://HOSTNAME.local/`` where avahi answers for the Pi,
the address of its way out otherwise) in its first line and to the table, which
shows it when a phone asks to pair.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
from pathlib import Path

from firmware.config.file import default_path, load
from firmware.config.settings import Config
from firmware.errors import ConfigError

log = logging.getLogger("robinson.web")

LISTEN_FDS_START = 3  # sd_listen_fds(3): the first socket systemd hands over
AVAHI = Path("/run/avahi-daemon/pid")


def handed_over() -> socket.socket | None:
    """The listening socket systemd passed (socket activation), if any."""
    if os.environ.get("LISTEN_PID") != str(os.getpid()):
        return None
    if int(os.environ.get("LISTEN_FDS", "0") or 0) < 1:
        return None
    for name in ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"):
        os.environ.pop(name, None)  # not for the children (there are none), as sd_listen_fds
    return socket.socket(fileno=LISTEN_FDS_START)


def page_address(port: int, host: str = "") -> str:
    """Where phones find the page, an address it serves: the one it is bound to (even
    127.0.0.1, which no phone reaches: the panel then says so rather than show another
    machine's way in, as its QR code did), or, bound to every address, the Pi's mDNS
    name where avahi runs, else the address this machine reaches the network by (no
    packet is sent to find it).

    >>> page_address(8080, "127.0.0.1"), page_address(80, "192.0.2.7")
    ('http://127.0.0.1:8080/', 'http://192.0.2.7/')
    """
    suffix = "" if port == 80 else f":{port}"
    if host and host not in ("0.0.0.0", "::", ""):
        name = f"[{host}]" if ":" in host else host
        return f"http://{name}{suffix}/"
    if AVAHI.exists():
        return f"http://{socket.gethostname()}.local{suffix}/"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.168.0.1", 9))  # chooses a route; sends nothing
            address = probe.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    return f"http://{address}{suffix}/"


def serve(directory: Path, config_file: str | None, host: str | None, port: int | None) -> int:
    """Serve until stopped (SIGTERM, SIGINT); the exit status."""
    try:
        import uvicorn

        from firmware.web.app import application
        from firmware.web.guard import GuardedH11
    except ImportError as missing:
        raise ConfigError(f"the companion page needs {missing.name or 'its framework'}: "
                          "it comes with the package's web extra (sudo ./install.sh with "
                          "[web] enabled = true; here, sh tools/bootstrap.sh table)") from None

    config: Config = load(Path(config_file) if config_file else default_path())
    if not directory.is_dir():
        raise ConfigError(f"{directory} is not a folder: give --state-dir the table's "
                          "state folder")
    sock = handed_over()
    if sock is not None:
        bound = sock.getsockname() if sock.family in (socket.AF_INET, socket.AF_INET6) \
            else ("", 80)
        address = page_address(int(bound[1]), str(bound[0]))
    else:
        host, port = host or "127.0.0.1", port or 8080
        address = page_address(port, "127.0.0.1" if host == "localhost" else host)
        sock = listen(host, port)
    app = application(directory, config, address)
    settings = uvicorn.Config(
        app, fd=sock.fileno(), http=GuardedH11,  # each request timed, each address capped
        log_level="warning", access_log=False, proxy_headers=False, server_header=False,
        date_header=False, timeout_keep_alive=5, limit_concurrency=200,
        timeout_graceful_shutdown=2,  # live streams never end by themselves: a stop ends them
        h11_max_incomplete_event_size=16 * 1024, lifespan="on")
    print(f"robinson web: the page is at {address} (the table's saves: {directory})",
          flush=True)
    if address.startswith(("http://127.", "http://[::1]")):
        print("robinson web: it listens on this machine only, where no phone reaches it: "
              "give --host 0.0.0.0 for the phones on the network", flush=True)
    uvicorn.Server(settings).run()
    return 0


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (made here, not by uvicorn, so a port in
    use or an address this machine does not have is one line, not its traceback)."""
    try:
        return socket.create_server((host, port), family=socket.AF_INET6 if ":" in host
                                    else socket.AF_INET, backlog=128)
    except OSError as error:
        hint = ("another program (another robinson web?) listens there: stop it or give "
                "--port" if error.errno == errno.EADDRINUSE else "give --host an address of "
                "this machine, and --port a free port above 1023 (or run it as the unit)")
        raise ConfigError(f"cannot listen on {host}:{port} ("
                          f"{os.strerror(error.errno) if error.errno else error}): "
                          f"{hint}") from None


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", metavar="ADDR",
                        help="listen here (default 127.0.0.1; 0.0.0.0 for every phone on the "
                             "network); systemd's socket is used when it hands one over")
    parser.add_argument("--port", type=_port, metavar="N", help="(default 8080)")
