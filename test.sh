#!/bin/sh
# The whole test suite: lint, strict types on the engine, the app and the tests, then pytest.
# Extra arguments go to pytest, in one run of their own (e.g. ./test.sh -k friday).
set -eu
cd "$(dirname "$0")"
sh tools/bootstrap.sh test
echo "== ruff check"
.venv/bin/ruff check .
echo "== mypy --strict robinson_core firmware tests"
.venv/bin/mypy --strict robinson_core firmware tests
if [ "$#" -gt 0 ]; then
    exec .venv/bin/python -m pytest "$@"
fi
# Two parts (docs/suite.md). The host's tests on four workers, a file's tests in order on
# one of them (pytest-xdist): four on two cores, as a worker waits on the processes its
# tests start (and on a heartbeat, a deadline) for nearly half its time; the longest
# files first (tests/conftest.py),
# the ten slowest tests named at the end. Then, alone, what says its figures at the end:
# the virtual Pi (its guests' clocks are the host's) and the wheels.
ALONE="tests/test_virtual_pi.py tests/test_wheels.py"
echo "== pytest: the host's tests, on 4 workers"
# shellcheck disable=SC2086
.venv/bin/python -m pytest -n 4 --dist loadfile --no-loadscope-reorder --durations=10 $(printf -- '--ignore=%s ' $ALONE)
echo "== pytest: the virtual Pi and the wheels, alone"
# shellcheck disable=SC2086
exec .venv/bin/python -m pytest $ALONE
