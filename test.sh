#!/bin/sh
# The whole test suite: lint, strict types on the engine, the app and the tests, then pytest.
# Extra arguments go to pytest (e.g. ./test.sh -k friday).
set -eu
cd "$(dirname "$0")"
sh tools/bootstrap.sh test
echo "== ruff check"
.venv/bin/ruff check .
echo "== mypy --strict robinson_core firmware tests"
.venv/bin/mypy --strict robinson_core firmware tests
echo "== pytest"
exec .venv/bin/python -m pytest "$@"
