"""Which names the page answers to: its own, so that no other site's page can read it.

DNS rebinding: a page a family member visits on some site points that site's name
at the Pi's address, and the browser, which trusts a name rather than an address,
lets the site's script read what the Pi answers. The request then carries the site's
name as its Host. The page answers only a Host that is an address (a rebinding site
reaches the Pi only by a name it controls), ``localhost``, the Pi's own name bare or
under ``.local`` (avahi's), or the name of the address it was told to advertise; any
other gets 421 before anything else is read.

>>> own = own_names("raspberrypi", "http://robinson.lan:8080/")
>>> [is_own(host, own) for host in ("192.168.1.20", "[fe80::1]:80", "RaspberryPi.local.",
...                                 "robinson.lan:8080", "evil.example", "pi.local.evil")]
[True, True, True, True, False, False]
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit


def own_names(hostname: str, page_address: str = "") -> frozenset[str]:
    """The names the page answers to, given the machine's ``hostname`` and the address it
    advertises (``http://NAME/``, or "")."""
    names = {"localhost", hostname.lower(), f"{hostname.lower()}.local"}
    advertised = urlsplit(page_address).hostname if page_address else None
    if advertised:
        names.add(advertised.lower())
    return frozenset(name for name in names if name)


def is_own(host: str | None, names: frozenset[str]) -> bool:
    """Whether a request's ``Host`` header (a name or an address, maybe with a port) is
    one the page answers to."""
    if not host:
        return False
    host = host.strip().lower()
    if host.startswith("["):  # an IPv6 address, maybe with a port: [::1]:8080
        end = host.find("]")
        return end > 0 and _is_address(host[1:end])
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.rstrip(".")
    return _is_address(name) or name in names


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
