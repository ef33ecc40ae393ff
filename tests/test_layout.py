"""The tree explains itself: the arrows between packages point one way, and every module
and public class says what it is for."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("robinson_core", "firmware")

# Who may not import whom (by module-name prefix): the engine knows nothing of the app;
# the table and the display never reach for the emulator or the tools.
FORBIDDEN = {
    "robinson_core": ("firmware",),
    "firmware.table": ("firmware.emulate", "firmware.tools"),
    "firmware.display": ("firmware.emulate", "firmware.tools"),
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


def test_the_arrows_point_one_way() -> None:
    edges = graph()
    assert sum(len(t) for t in edges.values()) > 100  # the graph was really read
    assert forbidden_imports(edges) == []


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_the_rule_catches_a_forbidden_import_and_a_cycle() -> None:
    edges = graph()
    edges["firmware.display.render"] = edges["firmware.display.render"] | {
        "firmware.emulate.bus"}
    edges["robinson_core.board"] = edges["robinson_core.board"] | {"robinson_core.engine"}
    assert forbidden_imports(edges) == ["firmware.display.render imports firmware.emulate.bus"]
    assert any({"robinson_core.board", "robinson_core.engine"} <= set(c) for c in cycles(edges))


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
