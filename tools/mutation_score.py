"""The mutation score per module, from mutmut's results (``mutants/**.meta``).

A mutant counts as killed when a test failed (or timed out) on it; "no tests" mutants
are counted apart, as survivors are: both are named, so a reader sees what the tests
leave unguarded.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

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
    survivors: list[str] = []
    for meta in metas:
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        counts = Counter("killed" if c in KILLED else "survived" if c in SURVIVED
                         else "no tests" if c in NO_TESTS else "other" for c in codes.values())
        survivors += [k for k, c in codes.items() if c in SURVIVED or c in NO_TESTS]
        judged = counts["killed"] + counts["survived"] + counts["no tests"]
        score = 100 * counts["killed"] / judged if judged else 100.0
        module = str(meta.relative_to("mutants"))[: -len(".meta")]
        print(f"{module:<34} {len(codes):>7} {counts['killed']:>7} {counts['survived']:>8} "
              f"{counts['no tests']:>7} {score:>5.1f}%")
        total.update(counts)
    judged = total["killed"] + total["survived"] + total["no tests"]
    print(f"{'all':<34} {sum(total.values()):>7} {total['killed']:>7} "
          f"{total['survived']:>8} {total['no tests']:>7} "
          f"{100 * total['killed'] / max(judged, 1):>5.1f}%")
    Path("mutants/survivors.txt").write_text("\n".join(survivors) + "\n")
    print(f"survivors (mutmut show NAME): mutants/survivors.txt ({len(survivors)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
