"""Mutation testing of the table's machine (``firmware/table/machine.py``), and of the
settings (``--target reading`` and the rest; ``TARGETS`` says which tests judge each).

Each mutant is one small change to one function of the machine or to one of its
module constants: a comparison turned (``==``/``!=``, ``<``/``<=``, ``is``/``is not``,
``in``/``not in``), ``and``/``or`` swapped, a ``not`` dropped, an operator turned
(``+``/``-``, ``|``/``&``, ``%``/``*``), a constant moved (``True``/``False``, a number
plus one, a string spoiled: reversed, so a test that looks for it inside a longer text
tells), an enum member changed to its neighbour (``Mode.PLAY`` → ``Mode.ANIMATE``), a
call statement or an early ``return`` left out. The tests that
guard the module (``TARGETS``, the fastest first) run on it with ``-x``; a failure or
a time-out (twice the unmutated run) kills it.

Why our own runner, not mutmut (``tools/mutate.sh``, kept for the engine and the
store): mutmut 3.8 wraps every function in a trampoline and maps tests to mutants by
tracing; on ``machine.py`` it made 851 mutants, ran 68 of them in 20 minutes, and
called 36 "no tests" because its trampolines missed the methods of ``_Moment``. Here the
parent imports everything once; each mutant runs in a forked child that puts the
mutated function's code object into the *same* function object (so every importer sees
the mutant, and the classes and enums stay the ones the tests compare against) and then
runs pytest in-process.

Equivalent mutants (no test could tell them apart: the program does the same) are
named with the reason in ``tools/machine_equivalent.txt`` and left out of the score.

The page's and the seam's modules (``pairing``, ``app``, ``server``, ``intents``) are
run by their tests in processes of their own too (``robinson web``, ``robinson play``):
for them each mutant is also written into its source file (as ``ast.unparse`` gives it,
the same program) for its run and the file put back after, one mutant at a time, with
no bytecode written (a mutant of the same size in the same second would be the last
one's). Run it in a clone of its own: the file is the clone's.

Usage: .venv/bin/python tools/mutate_machine.py [--target machine|view|reading|file|phone|
       wiring|folder|ledger|
       rows|salvage|spare|store|restore|said|screens|pairing|app|server|intents] [--jobs N]
       [--only TEXT] [--list]
       [--sample SHARE --seed N]
"""

from __future__ import annotations

import argparse
import ast
import copy
import dataclasses
import importlib
import json
import os
import random
import select
import sys
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Target:
    """A module to mutate, and the tests that judge it (each stage a pytest run; a
    mutant that fails one is killed, the rest are not run)."""

    module: str
    stages: tuple[tuple[str, ...], ...]
    enums: tuple[str, ...] = ()  # enum classes whose members a mutant may turn
    caches: tuple[str, ...] = ()  # module functions whose lru_cache a mutant must clear
    files: bool = False  # its tests run it in processes of their own (the page, the table):
    # each mutant is also written into the source file for its run (one at a time)

    @property
    def source(self) -> Path:
        return ROOT / (self.module.replace(".", "/") + ".py")

    @property
    def name(self) -> str:
        return self.module.rpartition(".")[2]

    @property
    def equivalent(self) -> Path:
        """The equivalent mutants, named with why: tools/<name>_equivalent.txt."""
        return ROOT / "tools" / f"{self.name}_equivalent.txt"

    @property
    def tests(self) -> list[str]:
        return [test for stage in self.stages for test in stage if test.startswith("tests/")]


MACHINE_STAGES = (
    ("tests/table/test_machine_rules.py", "tests/table/test_play.py",
     "tests/table/test_menus.py", "tests/table/test_panel.py", "tests/table/test_names.py",
     "tests/table/test_writes.py", "tests/table/test_phones.py",
     "tests/table/test_view.py"),  # each rule, room by room: 5 s
    ("tests/table/test_machine.py::test_the_table_keeps_its_promises_over_random_play",
     "tests/table/test_machine.py::test_the_properties_compared_thousands_of_cases"),  # 20 s
    ("tests/shell/test_table.py", "tests/shell/test_faults.py",
     "tests/shell/test_glance.py"))  # the rig
PHONE_STAGE = (("tests/app/test_phone_hardware.py", "tests/page/test_seam.py"),)  # phones
TARGETS = {
    "machine": Target(
        "firmware.table.machine", MACHINE_STAGES,
        enums=("Mode", "TimerKind", "Tune", "Press", "Saver", "Row", "Pending", "Status",
               "Choice", "Showing", "Question", "Waiting", "Fault")),
    **{room: Target(  # the machine's rooms: judged as the machine is (phones: and by a
        f"firmware.table.{room}", MACHINE_STAGES + (PHONE_STAGE if room == "phones" else ()),
        enums=("Mode", "TimerKind", "Tune", "Press", "Saver", "Row", "Pending", "Status",
               "Choice", "Showing", "Question", "Waiting", "Fault"))
       for room in ("moment", "play", "menus", "phones", "writes", "panel", "paired",
                    "menu")},
    "view": Target(  # the screen from the state: judged as the machine is
        "firmware.table.view", MACHINE_STAGES,
        enums=("Press", "Row", "Showing", "Question"),
        caches=("_words",)),
    **{room: Target(  # the settings' rooms, and which pin does what
        module,
        (("tests/app/test_config.py",),  # each setting and bound: 0.8 s
         ("tests/app/test_bad_input.py", "tests/table/test_names.py",
          "tests/display/test_panels.py", "tests/app/test_phone_hardware.py")),
        enums=("Interface",))
       for room, module in (("reading", "firmware.config.reading"),
                            ("file", "firmware.config.file"),
                            ("phone", "firmware.config.phone"),
                            ("wiring", "firmware.wiring"))},
}
STORE_STAGES = (  # the store's rooms: the fast tests first, the flip campaigns last
    ("tests/saves/test_rows.py", "tests/saves/test_durable.py", "tests/saves/test_store.py",
     "tests/saves/test_ledger.py", "-k", "not damage_to"),  # 11 s
    ("tests/saves/test_store_faults.py", "tests/table/test_names.py",
     "-k", "not one_bit_flips"),  # 13 s
    ("tests/saves/test_ledger.py", "tests/saves/test_store_faults.py",
     "-k", "damage_to or one_bit_flips"))  # 12 s (a quarter of the cases: ROBINSON_MUTANT)
for room in ("folder", "ledger", "rows", "salvage", "store", "spare"):
    TARGETS[room] = Target(f"firmware.saves.{room}", STORE_STAGES,
                           enums=("Ended",) if room in ("rows", "spare") else ())
TARGETS["restore"] = Target(  # only robinson restore runs it
    "firmware.saves.restore", (("tests/saves/test_durable.py", "tests/saves/test_ledger.py",
                                "tests/saves/test_store.py", "-k", "restore or put_back"),))
WEB_STAGES = (  # the page and the seam, in processes of their own: the fast files first
    ("tests/page/test_seam.py",),  # the seam's bytes and intents, in this process: 6 s
    ("tests/page/test_web.py", "tests/page/test_page_guard.py", "-k",  # the page, the table beside
     "not every_page_attack"),  # it; not the press's time under attack (its ratio: noise
    # beside another runner)
    ("tests/app/test_phone_hardware.py",))
for module in ("firmware.web.pairing", "firmware.web.app", "firmware.seam.server",
               "firmware.seam.intents"):
    TARGETS[module.rpartition(".")[2]] = Target(module, WEB_STAGES, files=True)
TARGETS["said"] = Target(  # what the voice says: its words read against what they should say
    "firmware.speech.said",
    (("tests/display/test_speech.py", "-k", "pinned"),  # 2,120 sentences against spoken.txt: 1 s
     ("tests/display/test_speech.py", "tests/core/test_cases.py"),  # 9 s
     ("tests/table/test_play.py", "tests/table/test_menus.py", "tests/table/test_recall.py"),
     ("tests/shell/test_voice.py",)),  # the real voice through the table's shell: 40 s
    enums=("Pending", "Status", "Choice"))
TARGETS["screens"] = Target(  # the screens the panel shows
    "firmware.display.screens",
    (("tests/display/test_screens_reference.py", "-k", "pinned"),  # 1,920 screens against shown.txt
     ("tests/display/test_screens_reference.py", "tests/table/test_recall.py",
      "tests/core/test_cases.py"),  # 4 s
     ("tests/table/test_play.py", "tests/table/test_menus.py", "tests/table/test_panel.py",
      "tests/shell/test_glance.py"),  # 30 s
     ("tests/shell/test_table.py", "tests/shell/test_faults.py")),
    enums=("Pending", "Status", "Choice", "Size"))
TARGET = TARGETS["machine"]  # main() sets the one asked for
TURN_COMPARE = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.LtE, ast.LtE: ast.Lt,
                ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
                ast.In: ast.NotIn, ast.NotIn: ast.In}
TURN_BINARY = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
               ast.Mod: ast.Mult, ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr,
               ast.FloorDiv: ast.Div}


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class Mutant:
    name: str  # where and what: "_Moment.pressed +12: Is -> IsNot"
    target: str  # the function's qualified name, or "=NAME" for a module constant
    tree: ast.Module  # the whole module, changed


def mutants(source: str) -> Iterator[Mutant]:
    """Every mutant, each with its own name: where the same change comes twice on one
    line ("frame=0, ... or 0"), the second is named "#2"."""
    tree = ast.parse(source)
    named: dict[str, int] = {}
    for top, qualname, node in _homes(tree):
        for path, change, label in _sites(node):
            mutated = copy.deepcopy(tree)
            home = _follow(mutated, top)
            change(_follow(home, path))
            line = getattr(_follow(node, path), "lineno", node.lineno) - node.lineno
            name = f"{qualname} +{line}: {label}"
            named[name] = named.get(name, 0) + 1
            yield Mutant(name + (f" #{named[name]}" if named[name] > 1 else ""), qualname,
                         mutated)


def _homes(tree: ast.Module) -> Iterator[tuple[list[object], str, ast.AST]]:
    """The functions (and methods, one class deep) and the module's constants."""
    for i, node in enumerate(tree.body):
        if isinstance(node, FUNCTIONS):
            yield ["body", i], node.name, node
        elif isinstance(node, ast.ClassDef):
            for j, inner in enumerate(node.body):
                if isinstance(inner, FUNCTIONS):
                    yield ["body", i, "body", j], f"{node.name}.{inner.name}", inner
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name) and node.targets[0].id.isupper()):
            yield ["body", i], "=" + node.targets[0].id, node


def _follow(node: object, path: list[object]) -> object:
    for step in path:
        node = node[step] if isinstance(step, int) else getattr(node, str(step))  # type: ignore[index]
    return node


def _sites(home: ast.AST) -> Iterator[tuple[list[object], Callable[[object], None], str]]:
    """Every change in ``home``: the path to the node, how to change it, a label."""
    for path, node in _walk(home, []):
        if isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in TURN_COMPARE:
                    new = TURN_COMPARE[type(op)]
                    yield path, _set_op(k, new), f"{type(op).__name__} -> {new.__name__}"
        elif isinstance(node, ast.BoolOp):
            new = ast.Or if isinstance(node.op, ast.And) else ast.And
            yield path, _set_attr("op", new()), f"{type(node.op).__name__} -> {new.__name__}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield path, _replace_with("operand"), "not dropped"
        elif isinstance(node, ast.BinOp) and type(node.op) in TURN_BINARY:
            new = TURN_BINARY[type(node.op)]
            yield path, _set_attr("op", new()), f"{type(node.op).__name__} -> {new.__name__}"
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                yield path, _set_attr("value", not value), f"{value} -> {not value}"
            elif isinstance(value, int | float):
                yield path, _set_attr("value", value + 1), f"{value} -> {value + 1}"
            elif isinstance(value, str) and value:
                yield path, _set_attr("value", f"XX{value[::-1]}"), f"{value!r} spoiled"
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id in TARGET.enums):
            yield path, _next_member(node.value.id), f"{node.value.id}.{node.attr} -> next"
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            yield path, _set_attr("value", ast.Constant(None)), "call left out"
        elif isinstance(node, ast.Return) and node.value is None:
            yield path, _replace_node(ast.Pass()), "return left out"


def _walk(node: ast.AST, path: list[object]) -> Iterator[tuple[list[object], ast.AST]]:
    """Every node with its path, skipping docstrings, annotations and decorators."""
    yield path, node
    for name, value in ast.iter_fields(node):
        if name in ("annotation", "returns", "decorator_list", "type_comment"):
            continue
        if isinstance(value, list):
            for i, child in enumerate(value):
                if isinstance(child, ast.AST) and not _docstring(node, name, i):
                    yield from _walk(child, [*path, name, i])
        elif isinstance(value, ast.AST):
            yield from _walk(value, [*path, name])


def _docstring(parent: ast.AST, field: str, i: int) -> bool:
    if field != "body" or i != 0 or not isinstance(parent, FUNCTIONS):
        return False
    first = parent.body[0]
    return (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str))


def _set_op(k: int, new: type) -> Callable[[object], None]:
    def change(node: object) -> None:
        node.ops[k] = new()  # type: ignore[attr-defined]
    return change


def _set_attr(name: str, value: object) -> Callable[[object], None]:
    def change(node: object) -> None:
        setattr(node, name, value)
    return change


def _become(node: object, other: object) -> None:
    """``node`` turned into ``other``, in place (its parent keeps pointing at it)."""
    node.__class__ = other.__class__
    node.__dict__.clear()
    node.__dict__.update(other.__dict__)


def _replace_with(child: str) -> Callable[[object], None]:
    """The node becomes its own child (``not x`` -> ``x``)."""
    return lambda node: _become(node, getattr(node, child))


def _replace_node(new: ast.AST) -> Callable[[object], None]:
    return lambda node: _become(node, new)


def _next_member(enum_name: str) -> Callable[[object], None]:
    def change(node: object) -> None:
        members = list(getattr(importlib.import_module(TARGET.module), enum_name))
        names = [member.name for member in members]
        index = names.index(node.attr)  # type: ignore[attr-defined]
        node.attr = names[(index + 1) % len(names)]  # type: ignore[attr-defined]
    return change


# -- running ----------------------------------------------------------------------------


def install(mutant: Mutant) -> None:
    """Put the mutant into the imported module, in place."""
    module = importlib.import_module(TARGET.module)
    ast.fix_missing_locations(mutant.tree)
    if mutant.target.startswith("="):
        name = mutant.target[1:]
        node = next(n for n in mutant.tree.body if isinstance(n, ast.Assign)
                    and isinstance(n.targets[0], ast.Name) and n.targets[0].id == name)
        value = eval(compile(ast.Expression(node.value), str(TARGET.source), "eval"),
                     module.__dict__)
        old = getattr(module, name)
        for other in list(sys.modules.values()):  # those that imported it by name too
            if getattr(other, name, None) is old and other is not module:
                setattr(other, name, value)
        setattr(module, name, value)
        return
    code = compile(mutant.tree, str(TARGET.source), "exec")
    found = {c.co_qualname: c for c in _codes(code)}
    function = _function(module, mutant.target)
    function.__code__ = found[mutant.target]
    node = _def(mutant.tree, mutant.target)
    defaults = [eval(compile(ast.Expression(d), str(TARGET.source), "eval"),
                     module.__dict__) for d in node.args.defaults]
    function.__defaults__ = tuple(defaults) or None


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _function(module: types.ModuleType, qualname: str) -> types.FunctionType:
    owner: object = module
    *outer, name = qualname.split(".")
    for part in outer:
        owner = getattr(owner, part)
    raw = vars(owner)[name] if isinstance(owner, type) else getattr(owner, name)
    raw = raw.fget if isinstance(raw, property) else raw
    return getattr(raw, "__wrapped__", raw)  # functools.lru_cache: run() clears its cache  # type: ignore[no-any-return]


def _def(tree: ast.Module, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    *outer, name = qualname.split(".")
    body = tree.body
    for part in outer:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == part).body
    return next(n for n in body if isinstance(n, FUNCTIONS) and n.name == name)


def run(mutant: Mutant | None, quiet: bool = True) -> int:
    """Fork, install, run the tests; the child's pid."""
    pid = os.fork()
    if pid:
        return pid
    try:
        if quiet:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
        if mutant is not None:
            if TARGET.files:  # for the processes the tests start (no bytecode: its time
                TARGET.source.write_text(ast.unparse(mutant.tree) + "\n")  # and size
                # could be the last mutant's)
            install(mutant)
            module = importlib.import_module(TARGET.module)
            for cached in TARGET.caches:
                getattr(module, cached).cache_clear()
        import pytest
        for stage in TARGET.stages:
            code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-W",
                                "ignore::pytest.PytestAssertRewriteWarning", *stage])
            if code != 0:
                os._exit(int(code))
        os._exit(0)
    except BaseException:
        os._exit(99)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", choices=TARGETS, default="machine",
                        help="which module to mutate (default: the machine)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", default="", help="mutants whose name holds this")
    parser.add_argument("--list", action="store_true", help="name the mutants, run none")
    parser.add_argument("--sample", type=float, default=1.0, help="run this share of the "
                        "mutants, drawn at random (--seed): a score's estimate, said so")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--files", action="store_true", help="write each mutant into the "
                        "source file too, for the processes the tests start (the saves' "
                        "probes run robinson): one at a time; in a clone of its own")
    parser.add_argument("--names", type=Path, help="a file of mutant names (one a line, as "
                        "printed; a name without #n also means its #2, #3…): only those")
    args = parser.parse_args()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    os.environ["ROBINSON_MUTANT"] = "1"  # the property runs stop at a find (no shrinking)
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"  # a mutant on disk is compiled from itself
    sys.dont_write_bytecode = True
    global TARGET
    TARGET = TARGETS[args.target]
    if args.files:
        TARGET = dataclasses.replace(TARGET, files=True)
    everything = [m for m in mutants(TARGET.source.read_text()) if args.only in m.name]
    if args.names:
        wanted = {line.strip() for line in args.names.read_text().splitlines() if line.strip()}
        everything = [m for m in everything if m.name in wanted
                      or m.name.rsplit(" #", 1)[0] in wanted]
    if args.sample < 1.0:
        drawn = random.Random(args.seed).sample(range(len(everything)),
                                                round(args.sample * len(everything)))
        everything = [everything[i] for i in sorted(drawn)]
        print(f"a sample: {len(everything)} mutants drawn with seed {args.seed}", flush=True)
    if args.list:
        print("\n".join(m.name for m in everything))
        return 0
    equivalent = _equivalent()
    _warm()
    started = time.monotonic()
    _, status = os.waitpid(run(None), 0)
    baseline = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) != 0:
        print("the tests fail without a mutant: fix that first", file=sys.stderr)
        return 2
    limit = max(30.0, 2 * baseline)
    print(f"{len(everything)} mutants; the tests take {baseline:.1f} s unmutated "
          f"(a mutant that runs {limit:.0f} s is killed)", flush=True)
    original = TARGET.source.read_text()
    try:
        verdicts = _run_all(everything, 1 if TARGET.files else args.jobs, limit)
    finally:
        if TARGET.source.read_text() != original:
            TARGET.source.write_text(original)
    kept = ROOT / "mutants" / f"{TARGET.name}.json"  # every verdict, for a reader or a rerun
    kept.parent.mkdir(exist_ok=True)
    kept.write_text(json.dumps(verdicts, indent=1, ensure_ascii=False) + "\n")
    return _report(everything, verdicts, equivalent, time.monotonic() - started)


def _warm() -> None:
    """Import once in the parent what every child would import again."""
    import pytest  # noqa: F401
    for test in {t.split("::")[0] for t in TARGET.tests}:
        importlib.import_module(test.removesuffix(".py").replace("/", "."))


def _run_all(everything: list[Mutant], jobs: int, limit: float) -> dict[str, str]:
    verdicts: dict[str, str] = {}
    original = TARGET.source.read_text()
    waiting = list(everything)
    running: dict[int, tuple[Mutant, float]] = {}
    while waiting or running:
        while waiting and len(running) < jobs:
            mutant = waiting.pop(0)
            running[run(mutant)] = (mutant, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            for child, (_, began) in list(running.items()):
                if time.monotonic() - began > limit:
                    os.kill(child, 9)
            select.select([], [], [], 0.05)
            continue
        mutant, _ = running.pop(pid)
        if TARGET.files:
            TARGET.source.write_text(original)
        code = os.waitstatus_to_exitcode(status)
        verdicts[mutant.name] = ("survived" if code == 0 else "timeout" if code == -9
                                 else "killed")
        done = len(verdicts)
        if verdicts[mutant.name] == "survived" or done % 25 == 0:
            print(f"[{done}/{len(everything)}] {verdicts[mutant.name]}: {mutant.name}",
                  flush=True)
    return verdicts


def _equivalent() -> dict[str, str]:
    """Mutant names judged equivalent, with why."""
    named = {}
    if not TARGET.equivalent.exists():
        return {}
    for line in TARGET.equivalent.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, why = line.partition("  # ")
            named[name.strip()] = why.strip()
    return named


def _report(everything: list[Mutant], verdicts: dict[str, str],
            equivalent: dict[str, str], seconds: float) -> int:
    survivors = [m.name for m in everything if verdicts[m.name] == "survived"]
    judged_equivalent = [n for n in survivors if n in equivalent]
    real = [n for n in survivors if n not in equivalent]
    killed = sum(v != "survived" for v in verdicts.values())
    timeouts = sum(v == "timeout" for v in verdicts.values())
    stale = sorted(n for n in equivalent if verdicts.get(n, "survived") != "survived")
    judged = len(everything) - len(judged_equivalent)
    print(f"\n{len(everything)} mutants of {TARGET.source.name} in {seconds / 60:.1f} min: "
          f"{killed} killed ({timeouts} by time-out), {len(survivors)} survived, "
          f"{len(judged_equivalent)} of them equivalent")
    print(f"raw score {100 * killed / len(everything):.1f}%; "
          f"of the non-equivalent {100 * killed / max(judged, 1):.1f}% ({killed}/{judged})")
    for name in real:
        print(f"  survived: {name}")
    for name in stale:
        print(f"  named equivalent but not a survivor now: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
