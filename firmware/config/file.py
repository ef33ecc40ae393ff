"""Where the settings file is, and how it is read: as nothing it holds can hang or sink
the table (a FIFO, a huge file, a deep nesting, a number of thousands of digits)."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from firmware.config.reading import parse
from firmware.config.settings import Config
from firmware.errors import ConfigError

SEARCH_PATH = ("/etc/robinson-table/config.toml",)


def default_path() -> Path | None:
    """The first config file that exists in the usual places, if any."""
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    for candidate in (*SEARCH_PATH, os.path.join(home, "robinson-table", "config.toml")):
        if os.path.isfile(candidate):
            return Path(candidate)
    return None


def load(path: Path | None) -> Config:
    """The config in ``path`` (None: built-in defaults); ConfigError says what is wrong."""
    if path is None:
        return Config()
    return parse(read_toml(path), str(path))


def read_toml(path: Path) -> dict[str, Any]:
    """A settings file's TOML (the config, a phone's hardware settings), read as nothing
    it holds can hang or sink the table: a FIFO, a huge file, a deep nesting or a number
    of thousands of digits is one ConfigError naming ``path``, as is any other fault."""
    try:
        # Opened without waiting (a FIFO would hold the start until systemd's timeout),
        # then read only if it is a file.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with open(descriptor, "rb") as file:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise ConfigError(f"{path}: not a file: give --config a config file")
            os.set_blocking(descriptor, True)
            data = file.read(MAX_CONFIG_BYTES + 1)
        if len(data) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES // 1000} KB: not a "
                              "config of this table")
        deepest, longest = shape(data)
        if deepest > MAX_NESTING:
            raise ConfigError(f"{path}: arrays, tables or dotted keys nested more than "
                              f"{MAX_NESTING} deep: no setting takes that")
        if longest > MAX_NUMBER:
            raise ConfigError(f"{path}: a number in it is far too long for any setting "
                              f"({longest} characters)")
        return tomllib.loads(data.decode("utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror})") from None
    except RecursionError:  # a nesting the scan above did not see
        raise ConfigError(f"{path}: nested too deep for any setting") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid TOML (not UTF-8 text)") from None
    except ValueError:  # tomllib's int() of a number with thousands of digits
        raise ConfigError(f"{path}: a number in it is far too long for any setting") from None


MAX_CONFIG_BYTES = 100_000  # the commented example is under 5 KB
MAX_NESTING = 8  # [pins] seats = [...] is 2 deep


MAX_NUMBER = 40  # characters: the longest setting, 1_000_000_000 in any base, is shorter

_NUMBER = b"0123456789abcdefABCDEFxob_+-.:eEinfnaTZ"  # what a number, a date or a time holds


def shape(data: bytes) -> tuple[int, int]:
    """How deep TOML text nests and its longest number, in characters: read before
    tomllib, whose parser recurses once a level (5,000 levels: RecursionError; 12,000
    dotted keys: 10 s and 600 MB), and a number of thousands of digits passes it and
    breaks any message that shows it. ``[`` and ``{`` outside strings and comments count,
    and each dot of a key (``a.b.c = 1`` is 3 deep, as is the header ``[a.b.c]``)."""
    deepest = depth = dots = longest = run = 0
    opened: list[bytes] = []
    quote, i, key, header = b"", 0, True, False
    while i < len(data):
        c = data[i:i + 1]
        if quote:
            if c == b"\\" and quote == b'"':
                i += 1
            elif data.startswith(quote, i):
                i += len(quote) - 1
                quote = b""
            i += 1
            continue
        run = run + 1 if c in _NUMBER and not key and not header and (
            run or c.isdigit() or c in b"+-") else 0
        longest = max(longest, run)
        if c == b"#":
            end = data.find(b"\n", i)
            i = len(data) if end < 0 else end
            continue
        if c in (b'"', b"'"):
            quote = c * 3 if data.startswith(c * 3, i) else c
            i += len(quote) - 1
        elif c in (b"[", b"{"):
            header = header or (c == b"[" and key and not opened)
            depth += 1
            opened.append(c)
            key = c == b"{"
        elif c in (b"]", b"}"):
            depth = max(0, depth - 1)
            if opened:
                opened.pop()
            if not opened:
                header, dots = False, 0
        elif c == b"=":
            key, dots = False, 0
        elif (c == b"," and opened and opened[-1] == b"{") or (c == b"\n" and not opened):
            key, dots = True, 0  # a key begins: in an inline table, or on a new line
        elif c == b"." and (key or header):
            dots += 1
        deepest = max(deepest, depth + dots)
        i += 1
    return deepest, longest
