#!/bin/sh
# Run the companion. Until the table app lands, it plays the recorded demo game.
set -eu
cd "$(dirname "$0")"
sh tools/bootstrap.sh table
exec .venv/bin/robinson replay --players 4 --script "$(cat tests/reference/game_4p.script)" "$@"
