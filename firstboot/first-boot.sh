#!/bin/sh
# Robinson Table's first boot, with no terminal. cloud-init runs this early at every
# boot (the bootcmd line FIRST-BOOT.txt gives for user-data); it only puts the install
# unit in place and starts it without waiting: the unit installs from this folder once
# the network is up (apt needs it), and again whenever a newer bundle is copied here.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
UNIT=${ROBINSON_ROOT:-}/etc/systemd/system/robinson-first-boot.service  # (ROBINSON_ROOT: tests)
if ! cmp -s "$HERE/systemd/robinson-first-boot.service" "$UNIT"; then
    cp "$HERE/systemd/robinson-first-boot.service" "$UNIT.new"
    chmod 0644 "$UNIT.new" && mv "$UNIT.new" "$UNIT"
    systemctl daemon-reload
fi
systemctl enable robinson-first-boot.service
systemctl start --no-block robinson-first-boot.service
