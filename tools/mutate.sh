#!/bin/sh
# Mutation testing of the engine and the store with mutmut ([mutmut] in setup.cfg):
# every mutant of robinson_core and the store is run against the tests that cover it,
# then the score per module is printed. Not part of ./test.sh: it takes a while.
# Usage: tools/mutate.sh [mutant names...]       (JOBS=N sets the parallel children)
set -eu
cd "$(dirname "$0")/.."
sh tools/bootstrap.sh test
.venv/bin/mutmut run --max-children "${JOBS:-$(nproc)}" "$@" >/dev/null 2>&1 || true
exec .venv/bin/python tools/mutation_score.py
