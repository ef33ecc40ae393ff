"""The tree explains itself: the arrows between packages point one way, and every module
and public class says what it is for."""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("robinson_core", "firmware")

# Who may not import whom (by module-name prefix): the engine knows nothing of the app;
# the table and the display never reach for the emulator or the tools.
MACHINE_AWAY = ("firmware.saves.store", "firmware.saves.rows", "firmware.saves.folder",
                "firmware.saves.salvage", "firmware.saves.ledger", "firmware.saves.restore",
                "firmware.saves.spare", "firmware.saves.opening", "firmware.shell.table")
"""What the machine and its rooms never reach: the disk's rooms (a fault's kind only), the shell."""

FORBIDDEN = {
    "robinson_core": ("firmware",),
    "firmware.runtime": ("firmware.table", "firmware.shell", "firmware.saves",
                         "firmware.display", "firmware.devices", "firmware.emulate",
                         "firmware.tools", "firmware.app", "firmware.cli"),
    "firmware.table": ("firmware.shell", "firmware.emulate", "firmware.tools",
                       "firmware.devices", "firmware.app", "firmware.cli", "firmware.seam",
                       "firmware.web"),
    # The shell runs the machine on real things; it never reaches for what runs it.
    "firmware.shell": ("firmware.emulate", "firmware.tools", "firmware.devices", "firmware.app",
                       "firmware.cli", "firmware.commands", "firmware.seam", "firmware.web"),
    # The seam: the table's end reads the machine's state, never the disk's rooms nor the
    # shell; the page is another process: it reaches the table only through the seam's
    # wire (the games put away too: it reads no saves), and never holds the machine or
    # re-derives its rules.
    "firmware.seam": ("firmware.emulate", "firmware.tools", "firmware.devices", "firmware.app",
                      "firmware.cli", "firmware.web", "firmware.saves", "firmware.shell"),
    "firmware.web": ("firmware.saves", "firmware.shell", "firmware.table.machine",
                     "firmware.table.view", "firmware.seam.server", "firmware.seam.shown",
                     "firmware.seam.intents", "firmware.devices", "firmware.emulate",
                     "firmware.tools", "firmware.app", "firmware.cli", "firmware.display.render",
                     "firmware.runtime"),
    "firmware.display": ("firmware.emulate", "firmware.tools", "firmware.table",
                         "firmware.shell", "firmware.saves", "firmware.devices",
                         "firmware.config", "firmware.app", "firmware.cli"),
    "firmware.config": ("firmware.table", "firmware.shell", "firmware.saves", "firmware.devices",
                        "firmware.emulate", "firmware.tools", "firmware.app", "firmware.cli"),
    # Which pin does what: below the settings' reading (it checks them), above their values.
    "firmware.wiring": ("firmware.table", "firmware.shell", "firmware.saves", "firmware.devices",
                        "firmware.emulate", "firmware.tools", "firmware.app", "firmware.cli",
                        "firmware.config.reading", "firmware.config.file",
                        "firmware.config.phone"),
    # The settings' rooms, each over the ones before it.
    "firmware.config.settings": ("firmware.config.reading", "firmware.config.file",
                                 "firmware.config.phone", "firmware.wiring"),
    "firmware.config.reading": ("firmware.config.file", "firmware.config.phone"),
    "firmware.config.file": ("firmware.config.phone",),
    "firmware.devices": ("firmware.table", "firmware.shell", "firmware.saves",
                         "firmware.emulate", "firmware.tools", "firmware.app", "firmware.cli"),
    "firmware.pins": ("firmware.table", "firmware.shell", "firmware.saves", "firmware.devices",
                      "firmware.emulate", "firmware.tools", "firmware.app", "firmware.cli"),
    "firmware.emulate": ("firmware.tools", "firmware.app", "firmware.cli"),
    "firmware.tools": ("firmware.cli", "firmware.app"),
    "firmware.app": ("firmware.cli", "firmware.tools", "firmware.commands"),
    "firmware.session": ("firmware.cli", "firmware.tools", "firmware.commands",
                         "firmware.app"),
    "firmware.commands": ("firmware.cli",),
    "firmware.startup": ("firmware.cli", "firmware.tools", "firmware.app"),
    "firmware.boot_settings": ("firmware.table", "firmware.shell", "firmware.saves",
                               "firmware.devices", "firmware.emulate", "firmware.tools",
                               "firmware.app", "firmware.cli"),
    # The saves stand below the table: they know nothing of it (it hands in its
    # preferences' keys). Their rooms stand one over another (SAVES, below).
    "firmware.saves": ("firmware.table", "firmware.shell", "firmware.seam", "firmware.web",
                       "firmware.display",
                       "firmware.speech", "firmware.runtime", "firmware.devices",
                       "firmware.emulate", "firmware.tools", "firmware.app", "firmware.cli"),
    # The machine and what it is made of never reach the disk's rooms (a fault's kind only);
    # its rooms stand under it, one over another: the pure parts (the panel, the phones paired, the
    # write queue), then moment, phones, play, menus, machine.
    **{f"firmware.table.{part}": MACHINE_AWAY + ("firmware.table.moment",
                                                "firmware.table.phones", "firmware.table.play",
                                                "firmware.table.menus", "firmware.table.machine")
       for part in ("panel", "paired", "writes")},
    "firmware.table.moment": MACHINE_AWAY + ("firmware.table.phones", "firmware.table.play",
                                             "firmware.table.menus", "firmware.table.machine"),
    "firmware.table.phones": MACHINE_AWAY + ("firmware.table.play", "firmware.table.menus",
                                             "firmware.table.machine"),
    "firmware.table.play": MACHINE_AWAY + ("firmware.table.menus", "firmware.table.machine"),
    "firmware.table.menus": MACHINE_AWAY + ("firmware.table.machine",),
    "firmware.table.machine": MACHINE_AWAY,
    "firmware.table.view": ("firmware.table.machine", "firmware.saves.store",
                            "firmware.shell.table"),
    "firmware.table.state": ("firmware.table.view", "firmware.table.machine",
                             "firmware.saves.store", "firmware.shell.table"),
    "firmware.speech": ("firmware.table", "firmware.shell", "firmware.saves", "firmware.display",
                        "firmware.devices", "firmware.emulate", "firmware.tools", "firmware.app",
                        "firmware.cli", "firmware.runtime", "firmware.config"),
}

# The saves' rooms, each over the ones before it: none reaches for one after it.
SAVES = ("owner", "hardware", "faults", "rows", "folder", "ledger", "salvage", "spare",
         "opening", "store", "restore")
FORBIDDEN |= {f"firmware.saves.{room}": tuple(f"firmware.saves.{above}"
                                             for above in SAVES[at + 1:])
              for at, room in enumerate(SAVES[:-1])}

# What each part may import from outside the tree (top-level names): the standard
# library's pure modules everywhere; the world (files, clocks, chance, threads,
# hardware, Pillow) only where its edge is. The longest matching prefix rules.
PURE = frozenset({"__future__", "collections", "dataclasses", "enum", "functools", "itertools",
                  "typing", "types", "re", "string", "hashlib", "math", "operator", "abc"})
OUTSIDE: dict[str, frozenset[str]] = {
    # importlib: the package's names, each loaded as first asked for; a language's texts
    "robinson_core": PURE | {"importlib"},
    # the kernel mypyc built, if it was built from the source beside it (and the
    # environment's ROBINSON_KERNEL=pure)
    "robinson_core.compiled": PURE | {"importlib", "os", "pathlib"},
    "firmware.table.machine": PURE,
    "firmware.table.messages": PURE,  # the machine's inputs and effects
    "firmware.table.state": PURE,  # its state, mode by mode
    "firmware.table.view": PURE,  # the screen, from the state
    "firmware.table.prefs": PURE,  # the settings kept, and which is in force
    "firmware.shell.parts": PURE,  # what the shell is given
    "firmware.table.names": PURE | {"json"},
    "firmware.table.menu": PURE,
    "firmware.table.writes": PURE,
    "firmware.table.panel": PURE,
    "firmware.table.paired": PURE,
    "firmware.table.moment": PURE,  # the machine's rooms: a step in the making, and what
    "firmware.table.play": PURE,  # a press does at play, in the menus, with phones
    "firmware.table.menus": PURE,
    "firmware.table.phones": PURE,
    "firmware.runtime.tunes": PURE,
    "firmware.shell.buttons": PURE,
    "firmware.shell.die": PURE | {"random", "secrets"},
    "firmware.runtime.loop": PURE | {"heapq", "queue", "time"},
    "firmware.runtime.outputs": PURE | {"logging", "threading"},  # the notes' own thread
    # The voice's edge: the synthesizer and the player are processes, pumped by a thread.
    "firmware.runtime.speaker": PURE | {"contextlib", "io", "logging", "os", "pathlib",
                                        "signal", "subprocess", "tempfile", "threading",
                                        "time"},  # tempfile: a recording's errors, on disk
    "firmware.runtime.soundcards": PURE | {"pathlib"},  # the machine's cards, by name
    "firmware.speech": PURE | {"importlib", "unicodedata"},  # a language's texts, by its code
    "firmware.shell.table": PURE | {"logging", "secrets"},  # secrets: pairing
    "firmware.shell.weigh": PURE | {"logging", "threading"},  # the odds' worker thread
    "firmware.shell.disk": PURE | {"logging"},
    # The store's rooms: the public face, the rows, the folder, the salvage, the fault kinds.
    "firmware.saves.store": PURE | {"contextlib", "datetime", "errno", "os", "pathlib",
                                    "sqlite3"},
    "firmware.saves.rows": PURE | {"contextlib", "datetime", "secrets", "sqlite3"},
    "firmware.saves.ledger": PURE | {"contextlib", "json", "os", "pathlib", "sqlite3"},
    "firmware.saves.restore": PURE | {"contextlib", "os", "pathlib", "shutil", "sqlite3"},
    "firmware.saves.folder": PURE | {"contextlib", "errno", "fcntl", "os", "pathlib", "pwd",
                                     "shutil", "sqlite3", "stat", "urllib"},
    "firmware.saves.salvage": PURE | {"contextlib", "pathlib", "shutil", "sqlite3"},
    "firmware.saves.spare": PURE | {"contextlib", "os", "pathlib", "sqlite3"},
    "firmware.saves.opening": PURE | {"contextlib", "errno", "os", "pathlib", "sqlite3"},
    "firmware.saves.faults": PURE | {"errno"},  # kinds only: the machine names them
    "firmware.saves.owner": PURE | {"pathlib"},  # the first boot's owner code, read once
    "firmware.saves.hardware": PURE | {"json", "os", "pathlib"},  # a phone's, as TOML
    "firmware.shell.pace": PURE | {"threading"},  # read by the keyboard's and demo's threads
    "firmware.config": PURE,  # the settings' values and their checks
    "firmware.config.settings": PURE | {"pathlib"},
    "firmware.config.file": PURE | {"os", "pathlib", "stat", "tomllib"},  # stat: not a FIFO
    "firmware.config.phone": PURE | {"os", "pathlib"},
    "firmware.wiring": PURE,
    "firmware.header": PURE | {"gpiozero"},  # gpiozero's board data, read when first asked
    "firmware.display": PURE | {"PIL", "budoux", "contextlib", "datetime", "logging", "pathlib",
                                "segno", "time"},  # segno: a phone's pairing, as a QR code
    "firmware.display.layout": PURE,
    "firmware.display.panels": PURE,
    "firmware.display.screen": PURE,
    "firmware.display.screens": PURE | {"datetime"},
    "firmware.display.words": PURE | {"importlib"},
    "firmware.display.partial": PURE | {"PIL", "luma"},  # the display's device edge
    # The panel, built before any pin: no gpiozero (its board data, some 60 ms of a Pi's
    # start, loads after the first frame, in firmware.pins)
    "firmware.devices": PURE | {"PIL", "atexit", "contextlib", "importlib", "inspect",
                                "logging", "luma", "smbus2"},
    "firmware.pins": PURE | {"gpiozero", "importlib", "lgpio", "logging", "pathlib"},
    "firmware.revision": PURE | {"errno", "pathlib", "struct"},  # /proc's, as gpiozero reads
    "firmware.gpiochip": PURE | {"fcntl", "os", "pathlib"},  # the GPIO device's own ioctl
    "firmware.timerslack": PURE | {"contextlib", "ctypes", "logging"},  # prctl
    "firmware.emulate": PURE | {"PIL", "gpiozero", "luma", "os", "pathlib", "shutil", "signal",
                                "sys", "termios", "threading", "time", "tty"},
    # (http, json, importlib: the bench's live clients of the companion page, stdlib only)
    "firmware.tools": PURE | {"PIL", "argparse", "concurrent", "contextlib", "html", "http",
                              "importlib", "json", "luma", "matplotlib", "os", "pathlib",
                              "random", "resource", "shutil", "signal", "socket",
                              "statistics", "subprocess", "sys", "tempfile", "threading",
                              "time"},
    # The settings file on the boot partition: read, checked, written whole; the buzzer
    # beeps a wrong line's number where no panel can say it.
    "firmware.boot_settings": PURE | {"contextlib", "os", "pathlib", "time", "gpiozero"},
    "firmware.notify": PURE | {"logging", "os", "socket"},
    "firmware.cli": PURE | {"argparse", "importlib", "sys"},  # importlib: a command's room
    "firmware.commands": PURE | {"argparse", "json", "pathlib", "sys"},
    "firmware.app": PURE | {"argparse", "logging", "pathlib", "sys", "tempfile",
                            "time"},  # time: the CPU its first frame took, logged
    "firmware.session": PURE | {"argparse", "logging", "pathlib", "signal", "sys", "threading",
                                "time"},
    "firmware.startup": PURE | {"contextlib", "logging", "os", "pathlib", "signal", "sys",
                                "tempfile", "threading"},
    "firmware.errors": PURE,
    # The seam's wire and its two ends: a Unix socket, a thread on the table's side.
    "firmware.seam": PURE | {"json", "os", "pathlib", "socket", "struct"},
    "firmware.seam.server": PURE | {"contextlib", "logging", "os", "pathlib", "selectors",
                                    "socket", "stat", "threading"},
    "firmware.seam.intents": PURE,
    "firmware.seam.shown": PURE,
    # The companion page: Starlette under uvicorn, asyncio, the seam's socket.
    "firmware.web": PURE | {"asyncio", "contextlib", "datetime", "hmac", "html", "json",
                            "logging", "os", "pathlib", "secrets", "socket", "starlette",
                            "time"},
    "firmware.web.hosts": PURE | {"ipaddress", "urllib"},
    "firmware.web.app": PURE | {"asyncio", "contextlib", "datetime", "hmac", "html", "json",
                                "logging", "os", "pathlib", "secrets", "socket",
                                "starlette", "time", "urllib"},  # (a form's body)
    "firmware.web.icons": PURE | {"io", "json", "PIL"},  # the home screen's icons, drawn
    "firmware.web.guard": PURE | {"asyncio", "h11", "uvicorn"},
    "firmware.web.serve": PURE | {"argparse", "errno", "logging", "os", "pathlib", "socket",
                                  "uvicorn"},
    "firmware": PURE,
}
"""A module's own line wins over its package's: the machine is held to less than the table."""

# Importing these loads none of those (whatever they import in turn): measured in a
# fresh interpreter, so an indirect import is caught too.
LOADS_NONE = {
    "firmware.table.machine": ("PIL", "gpiozero", "luma", "sqlite3", "lgpio", "socket"),
    "firmware.table.view": ("PIL", "gpiozero", "luma", "sqlite3", "lgpio", "socket"),
    "firmware.table.play": ("PIL", "gpiozero", "luma", "sqlite3", "lgpio", "socket"),
    "firmware.table.menus": ("PIL", "gpiozero", "luma", "sqlite3", "lgpio", "socket"),
    "firmware.table.phones": ("PIL", "gpiozero", "luma", "sqlite3", "lgpio", "socket"),
    "firmware.config.file": ("PIL", "gpiozero", "luma", "lgpio"),
    "firmware.config.phone": ("PIL", "gpiozero", "luma", "lgpio"),
    "firmware.seam.intents": ("PIL", "gpiozero", "luma", "sqlite3", "lgpio"),
    "firmware.web.pages": ("PIL", "gpiozero", "luma", "sqlite3", "lgpio", "starlette"),
    "robinson_core": ("PIL", "gpiozero", "luma", "sqlite3", "random", "socket", "threading"),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}
    assert len(found) > 50
    return found


def imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports, anywhere in it (functions included), resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # a submodule?
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: {m for m in imports(name, path) if m in known and m != name}
            for name, path in known.items()}


def forbidden_imports(edges: dict[str, set[str]]) -> list[str]:
    wrong = []
    for source, targets in edges.items():
        for prefix, banned in FORBIDDEN.items():
            if source == prefix or source.startswith(prefix + "."):
                wrong += [f"{source} imports {t}" for t in targets
                          if any(t == b or t.startswith(b + ".") for b in banned)]
    return wrong


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Import cycles between modules (a package importing its own submodules is no cycle)."""
    found, state = [], {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(edges[node]):
            if node.startswith(nxt + "."):  # a module importing its own package: __init__
                continue
            if state.get(nxt) == "open":
                found.append(trail[trail.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    return found


def outside_imports(found: dict[str, set[str]]) -> list[str]:
    """Imports from outside the tree that a module's part may not make."""
    wrong = []
    for source, names in found.items():
        rule = max((p for p in OUTSIDE if source == p or source.startswith(p + ".")), key=len)
        wrong += [f"{source} imports {n}" for n in sorted(names - OUTSIDE[rule])]
    return wrong


def outside() -> dict[str, set[str]]:
    return {name: {i.split(".")[0] for i in imports(name, path)} - {"firmware", "robinson_core"}
            for name, path in modules().items()}


def loaded_by(module: str) -> set[str]:
    """The top-level modules a fresh interpreter holds after importing ``module``."""
    code = f"import sys; import {module}; print(' '.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    return {name.split(".")[0] for name in out.split()}


def test_the_arrows_point_one_way() -> None:
    edges = graph()
    assert sum(len(t) for t in edges.values()) > 100  # the graph was really read
    assert forbidden_imports(edges) == []


def test_each_part_imports_only_what_its_job_needs() -> None:
    found = outside()
    assert sum(len(n) for n in found.values()) > 200  # the imports were really read
    assert outside_imports(found) == []


@pytest.mark.parametrize("module", sorted(LOADS_NONE))
def test_importing_the_pure_parts_loads_no_hardware_or_disk_library(module: str) -> None:
    loaded = loaded_by(module)
    assert module.split(".")[0] in loaded and len(loaded) > 20  # it really ran
    assert loaded & set(LOADS_NONE[module]) == set()


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_the_rule_catches_a_forbidden_import_and_a_cycle() -> None:
    edges = graph()
    edges["firmware.display.render"] = edges["firmware.display.render"] | {
        "firmware.emulate.bus"}
    edges["robinson_core.board"] = edges["robinson_core.board"] | {"robinson_core.engine"}
    edges["firmware.display.words.en"] = edges["firmware.display.words.en"] | {
        "firmware.devices"}
    edges["firmware.saves.rows"] = edges["firmware.saves.rows"] | {"firmware.devices",
                                                                   "firmware.saves.store"}
    edges["firmware.table.view"] = edges["firmware.table.view"] | {"firmware.table.machine"}
    edges["firmware.config.reading"] = edges["firmware.config.reading"] | {
        "firmware.display.panels", "firmware.saves.store"}
    edges["firmware.tools.wiring"] = edges["firmware.tools.wiring"] | {"firmware.cli"}
    edges["firmware.devices"] = edges["firmware.devices"] | {"firmware.shell.table"}
    edges["firmware.tools.selftest"] = edges["firmware.tools.selftest"] | {"firmware.app"}
    edges["firmware.runtime.outputs"] = edges["firmware.runtime.outputs"] | {
        "firmware.table.machine"}
    assert sorted(forbidden_imports(edges)) == [
        "firmware.config.reading imports firmware.saves.store",
        "firmware.devices imports firmware.shell.table",
        "firmware.display.render imports firmware.emulate.bus",
        "firmware.display.words.en imports firmware.devices",
        "firmware.runtime.outputs imports firmware.table.machine",
        "firmware.saves.rows imports firmware.devices",
        "firmware.saves.rows imports firmware.saves.store",
        "firmware.table.view imports firmware.table.machine",
        "firmware.tools.selftest imports firmware.app",
        "firmware.tools.wiring imports firmware.cli"]
    assert any({"robinson_core.board", "robinson_core.engine"} <= set(c) for c in cycles(edges))
    assert any({"firmware.saves.rows", "firmware.saves.store"} <= set(c) for c in cycles(edges))
    assert any({"firmware.table.view", "firmware.table.machine"} <= set(c)
               for c in cycles(edges))


def test_the_rule_catches_the_world_where_it_does_not_belong() -> None:
    found = outside()
    found["robinson_core.board"] |= {"random", "time", "os", "PIL", "gpiozero"}
    found["firmware.table.machine"] |= {"sqlite3", "time"}
    found["firmware.display.words.hr"] |= {"gpiozero"}
    found["firmware.saves.store"] |= {"PIL"}
    assert sorted(outside_imports(found)) == [
        "firmware.display.words.hr imports gpiozero",
        "firmware.saves.store imports PIL",
        "firmware.table.machine imports sqlite3", "firmware.table.machine imports time",
        "robinson_core.board imports PIL", "robinson_core.board imports gpiozero",
        "robinson_core.board imports os", "robinson_core.board imports random",
        "robinson_core.board imports time"]


def test_the_load_check_sees_an_indirect_import() -> None:
    loaded = loaded_by("firmware.display.render")  # render -> fonts -> PIL
    assert "PIL" in loaded and "gpiozero" not in loaded


def test_the_core_gives_each_name_it_lists_from_the_module_that_has_it() -> None:
    """robinson_core loads its names when first asked for (PEP 562), from the module
    ``WHERE`` says; the type checker reads ``__all__`` (and the imports under
    TYPE_CHECKING, which mypy holds to it): the two list the same 38 names, each the
    very object of its module."""
    import importlib

    import robinson_core as core

    lazy = core.LIVES_IN
    assert set(core.__all__) == set(lazy), sorted(set(core.__all__) ^ set(lazy))
    for name, module in lazy.items():
        assert getattr(core, name) is getattr(importlib.import_module(f"robinson_core.{module}"),
                                              name), name
    assert len(lazy) == len(core.__all__) == 38


@pytest.mark.parametrize("name", sorted(modules()))
def test_every_module_says_its_job_in_its_first_line(name: str) -> None:
    docstring = ast.get_docstring(ast.parse(modules()[name].read_text(encoding="utf-8")))
    assert docstring and len(docstring.splitlines()[0]) > 15, name


def test_every_public_class_has_a_docstring() -> None:
    missing, seen = [], 0
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                seen += 1
                if not ast.get_docstring(node):
                    missing.append(f"{name}.{node.name}")
    assert seen > 50 and missing == []


def test_the_architecture_page_counts_the_states_fields_as_they_are() -> None:
    """docs/architecture.md states how many fields the table's state has: the figure is
    the code's (it said 16 while the state grew to 23)."""
    from firmware.table.state import TableState

    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    said = re.search(r"`firmware/table/state\.py`, (\d+) fields", page)
    assert said is not None, "the page no longer says how many fields the state has"
    assert int(said.group(1)) == len(dataclasses.fields(TableState))
