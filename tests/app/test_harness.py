"""The virtual Pi's harness speaks the product's words, not a copy of them: the config
lines it edits are the shipped config's, and its queries read the saves as the store
writes them (its menu order and languages come from the host, in settings.json)."""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path
from typing import Any

from firmware.saves.store import Store
from robinson_core import Game, play_script

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tests" / "virtual_pi" / "guest" / "harness.py"


def _functions(names: tuple[str, ...], namespace: dict[str, Any]) -> dict[str, Any]:
    """The harness's own functions ``names``, as written, in ``namespace`` (the harness
    itself only imports in a guest: it reads the share at import)."""
    tree = ast.parse(HARNESS.read_text(encoding="utf-8"))
    found = [node for node in tree.body if isinstance(node, ast.FunctionDef)
             and node.name in names]
    assert sorted(f.name for f in found) == sorted(names)
    module = ast.Module(body=[ast.ImportFrom("__future__", [ast.alias("annotations")], 0),
                              *found], type_ignores=[])
    exec(compile(ast.fix_missing_locations(module), str(HARNESS), "exec"), namespace)
    return namespace


def test_the_config_lines_the_harness_edits_are_the_shipped_configs() -> None:
    tree = ast.parse(HARNESS.read_text(encoding="utf-8"))
    edited = [node.args[0].value for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "replace" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and " = " in node.args[0].value]
    shipped = {line.split("#")[0].strip()
               for line in (ROOT / "systemd" / "config.toml").read_text(encoding="utf-8")
               .splitlines()}
    assert [line for line in edited if line not in shipped] == []  # each a whole setting
    assert len(edited) >= 5, edited  # the buzzer, the LEDs, the voice's card, two presses


def test_the_harness_reads_the_saves_as_the_store_writes_them(tmp_path: Path) -> None:
    harness = _functions(("_saves", "in_play", "on_disk"), {"sqlite3": sqlite3, "STATE": tmp_path})
    store = Store(tmp_path)
    game = play_script(Game((1, 2)), "3 5 2 6")
    store.begin(Game((1, 2)))
    store.save(game)
    assert (harness["in_play"](), harness["on_disk"]()) == (True, 4)
    store.put_away(game)
    assert (harness["in_play"](), harness["on_disk"](), harness["on_disk"](latest=True)) == \
        (False, 0, 4)
    store.close()
