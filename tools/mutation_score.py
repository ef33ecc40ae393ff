"""The mutation score per module, from mutmut's results (``mutants/**.meta``).

A mutant counts as killed when a test failed (or timed out) on it; "no tests" mutants
are counted apart, as survivors are: both are named, so a reader sees what the tests
leave unguarded. A survivor whose only change is the letter case inside a string that
is SQL (``"PRAGMA quick_check"`` → ``"pragma quick_check"``) is equivalent, not a gap:
SQL keywords, table and column names, pragma names and codec names are case-insensitive.
Those are counted apart
("equivalent") and left out of the score; the rest are listed.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections import Counter
from pathlib import Path

# A changed line is SQL, a pragma name or a codec name when it holds one of these words;
# a change of letter case alone there changes nothing (all three ignore case).
SQL = re.compile(r"\b(select|insert|update|delete|pragma|create|from|where|order by|limit|"
                 r"values|application_id|user_version|quick_check|journal_mode|synchronous|"
                 r"utf-8)\b", re.IGNORECASE)

KILLED = {1, 3, 24, -24, 36, 152, 255, 37}
SURVIVED = {0}
NO_TESTS = {5, 33}


def main() -> int:
    metas = sorted(Path("mutants").rglob("*.py.meta"))
    if not metas:
        print("no mutation results: run tools/mutate.sh", file=sys.stderr)
        return 2
    total: Counter[str] = Counter()
    print(f"{'module':<34} {'mutants':>7} {'killed':>7} {'survived':>8} {'no test':>7} "
          f"{'score':>6}")
    per_package: dict[str, Counter[str]] = {}
    survivors: list[str] = []
    for meta in metas:
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        sources = functions(meta.with_suffix(""))
        counts = Counter("killed" if c in KILLED
                         else "equivalent" if c in SURVIVED and case_only(sources, k)
                         else "survived" if c in SURVIVED
                         else "no tests" if c in NO_TESTS else "other" for k, c in codes.items())
        survivors += [k for k, c in codes.items()
                      if (c in SURVIVED and not case_only(sources, k)) or c in NO_TESTS]
        judged = counts["killed"] + counts["survived"] + counts["no tests"]
        score = 100 * counts["killed"] / judged if judged else 100.0
        module = str(meta.relative_to("mutants"))[: -len(".meta")]
        print(f"{module:<34} {len(codes):>7} {counts['killed']:>7} {counts['survived']:>8} "
              f"{counts['no tests']:>7} {score:>5.1f}%  ({counts['equivalent']} equivalent)")
        total.update(counts)
        per_package.setdefault(module.split("/")[0] if module.startswith("robinson_core")
                               else module, Counter()).update(counts)
    judged = total["killed"] + total["survived"] + total["no tests"]
    print(f"{'all':<34} {sum(total.values()):>7} {total['killed']:>7} "
          f"{total['survived']:>8} {total['no tests']:>7} "
          f"{100 * total['killed'] / max(judged, 1):>5.1f}%")
    core = per_package.get("robinson_core", Counter())
    store = sum((c for m, c in per_package.items() if m.startswith("firmware/table")),
                Counter())
    for name, counts in (("robinson_core", core), ("the store", store)):
        judged = counts["killed"] + counts["survived"] + counts["no tests"]
        print(f"{name}: {100 * counts['killed'] / max(judged, 1):.1f}% of {judged} killed "
              f"({counts['equivalent']} equivalent left out)")
    Path("mutants/survivors.txt").write_text("\n".join(survivors) + "\n")
    print(f"survivors (mutmut show NAME): mutants/survivors.txt ({len(survivors)})")
    return 0


def functions(path: Path) -> dict[str, str]:
    """Each function of a mutmut-mutated file, by name, as source text."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {node.name: "\n".join(lines[node.lineno - 1:node.end_lineno])
            for node in ast.walk(ast.parse("\n".join(lines)))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def case_only(sources: dict[str, str], key: str) -> bool:
    """The mutant changes nothing but the case of SQL in a string."""
    name = key.rsplit(".", 1)[-1]
    original = sources.get(name.rsplit("__mutmut_", 1)[0] + "__mutmut_orig")
    mutant = sources.get(name)
    if original is None or mutant is None or original == mutant:
        return False
    after_name = original.split("(", 1)[1], mutant.split("(", 1)[1]  # names always differ
    return (after_name[0].lower() == after_name[1].lower()
            and all(SQL.search(line) for line in _changed(original, mutant)))


def _changed(a: str, b: str) -> list[str]:
    """The lines that differ, after the def line (whose name always does)."""
    pairs = zip(a.splitlines()[1:], b.splitlines()[1:], strict=False)
    return [x for x, y in pairs if x != y]


if __name__ == "__main__":
    sys.exit(main())
