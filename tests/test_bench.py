"""robinson bench runs and prints every figure (benchmarks print; tests check behaviour)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROBINSON = Path(sys.executable).with_name("robinson")


def test_bench_prints_every_figure() -> None:
    run = subprocess.run([ROBINSON, "bench", "--quick"], capture_output=True, text=True,
                         timeout=240, check=False)
    assert run.returncode == 0, run.stderr
    for figure in ("(a) CPU press -> result on bus, median", "(b) bus bytes per turn, partial",
                   "(b) partial / full per turn", "(b) bus bytes per animation frame",
                   "(c) animation fps at 100 kHz", "(c) animation fps at 400 kHz",
                   "(d) cold start", "(e) peak RSS", "(f) CPU over", "(g) simulator",
                   "(h) replay --script-file"):
        assert figure in run.stdout, figure
    print(run.stdout)
