#!/bin/sh
# Run the companion: on a Pi with the hardware it drives the hardware; anywhere
# else the same app runs emulated, the OLED drawn in this terminal.
# Extra arguments go to `robinson table` (e.g. ./table.sh --seats 1,2,3 --lang hr).
set -eu
cd "$(dirname "$0")"
sh tools/bootstrap.sh table
exec .venv/bin/robinson table "$@"
