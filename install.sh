#!/bin/sh
# Install Robinson Table as a service on Raspberry Pi OS (Bookworm or later).
#
#   sudo ./install.sh                 install, or bring an install up to date
#   sudo ./install.sh --fast-i2c      ... and set the I2C bus to 400 kHz (see hardware/)
#   sudo ./install.sh --uninstall     remove it; saved games and the config stay
#   sudo ./install.sh --uninstall --purge   remove saved games, config and user too
#   ./install.sh --root DIR           write under DIR instead of / (packaging, tests)
#
# Running it twice changes nothing the second time.
set -eu

SRC=$(cd "$(dirname "$0")" && pwd)
ROOT=""
ACTION=install
PURGE=no
FAST_I2C=ask
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        --uninstall) ACTION=uninstall ;;
        --purge) PURGE=yes ;;
        --fast-i2c) FAST_I2C=yes ;;
        --no-fast-i2c) FAST_I2C=no ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
ROOT=${ROOT%/}

SERVICE=robinson-table
USER_NAME=robinson
OPT="$ROOT/opt/robinson-table"
VENV="$OPT/venv"
UNIT="$ROOT/etc/systemd/system/$SERVICE.service"
UDEV="$ROOT/etc/udev/rules.d/99-robinson-table.rules"
CONFIG_DIR="$ROOT/etc/robinson-table"
STATE="$ROOT/var/lib/$SERVICE"
APT_PACKAGES="fonts-misaki fonts-terminus-otb fonts-unifont python3-venv python3-lgpio i2c-tools"

say() { printf '%s\n' "robinson: $*"; }
changed() { say "$*"; CHANGES=$((CHANGES + 1)); }
CHANGES=0

if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root: sudo ./install.sh" >&2
    exit 1
fi

# Copy $1 to $2 (mode $3) only if it differs; say so when it did.
put() {
    if ! cmp -s "$1" "$2" 2>/dev/null; then
        mkdir -p "$(dirname "$2")"
        cp "$1" "$2.new" && chmod "$3" "$2.new" && mv "$2.new" "$2"
        changed "installed ${2#$ROOT}"
    fi
}

boot_config() {
    for f in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        [ -f "$f" ] && { echo "$f"; return; }
    done
}

uninstall() {
    systemctl disable --now "$SERVICE.service" >/dev/null 2>&1 || true
    for f in "$UNIT" "$UDEV"; do
        [ -e "$f" ] && rm -f "$f" && changed "removed ${f#$ROOT}"
    done
    [ -d "$OPT" ] && rm -rf "$OPT" && changed "removed ${OPT#$ROOT}"
    systemctl daemon-reload || true
    if [ "$PURGE" = yes ]; then
        [ -d "$STATE" ] && rm -rf "$STATE" && changed "removed the saved games in ${STATE#$ROOT}"
        [ -d "$CONFIG_DIR" ] && rm -rf "$CONFIG_DIR" && changed "removed ${CONFIG_DIR#$ROOT}"
        if grep -q "^$USER_NAME:" "$ROOT/etc/passwd" 2>/dev/null; then
            userdel ${ROOT:+--root "$ROOT"} "$USER_NAME" && changed "removed the user $USER_NAME"
        fi
    else
        [ -d "$STATE" ] && say "kept the saved games in ${STATE#$ROOT} (--purge removes them)"
        [ -d "$CONFIG_DIR" ] && say "kept ${CONFIG_DIR#$ROOT}"
    fi
    say "uninstalled ($CHANGES changes)"
}

install() {
    # 1. Debian packages: fonts, venv, lgpio for a Pi 5, i2c-tools for bring-up.
    missing=""
    for p in $APT_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        apt-get install -y -q $missing >/dev/null || {
            apt-get update -q >/dev/null && apt-get install -y -q $missing >/dev/null
        }
        changed "installed Debian packages:$missing"
    fi

    # 2. I2C on, and the 400 kHz offer.
    if command -v raspi-config >/dev/null 2>&1; then
        if [ "$(raspi-config nonint get_i2c)" != 0 ]; then
            raspi-config nonint do_i2c 0
            changed "enabled I2C (takes effect after a reboot)"
        fi
    else
        say "no raspi-config: enable I2C yourself (dtparam=i2c_arm=on)"
    fi
    cfg=$(boot_config)
    if [ -n "$cfg" ] && ! grep -q "^dtparam=i2c_arm_baudrate=400000" "$cfg"; then
        if [ "$FAST_I2C" = ask ] && [ -t 0 ]; then
            printf 'robinson: set the I2C bus to 400 kHz (4x faster screen updates)? [Y/n] '
            read -r answer
            case "$answer" in [nN]*) FAST_I2C=no ;; *) FAST_I2C=yes ;; esac
        fi
        if [ "$FAST_I2C" = yes ]; then
            printf '%s\n' "dtparam=i2c_arm_baudrate=400000" >> "$cfg"
            changed "set the I2C bus to 400 kHz in ${cfg#$ROOT} (after a reboot)"
        else
            say "I2C stays at 100 kHz; ./install.sh --fast-i2c sets 400 kHz"
        fi
    fi

    # 3. The service user, in the groups that own the devices.
    if ! grep -q "^$USER_NAME:" "$ROOT/etc/passwd" 2>/dev/null; then
        useradd ${ROOT:+--root "$ROOT"} --system --no-create-home --home-dir /var/lib/$SERVICE \
            --shell /usr/sbin/nologin --user-group "$USER_NAME"
        changed "created the service user $USER_NAME"
    fi
    for group in gpio i2c spi; do
        line=$(grep "^$group:" "$ROOT/etc/group" 2>/dev/null || true)
        [ -n "$line" ] || continue
        case ",${line##*:}," in
            *",$USER_NAME,"*) ;;
            *) usermod ${ROOT:+--root "$ROOT"} -aG "$group" "$USER_NAME"
               changed "added $USER_NAME to the $group group" ;;
        esac
    done

    # 4. A venv that sees apt's python3-lgpio; never pip into the system Python.
    if [ ! -x "$VENV/bin/python" ]; then
        mkdir -p "$OPT"
        python3 -m venv --system-site-packages "$VENV"
        changed "created ${VENV#$ROOT}"
    fi
    want=$(cd "$SRC" && cat setup.cfg pyproject.toml $(find robinson_core firmware -name '*.py' | sort) | cksum)
    if [ "$(cat "$OPT/installed" 2>/dev/null)" != "$want" ]; then
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check "$SRC[pi]"
        printf '%s\n' "$want" > "$OPT/installed"
        changed "installed the robinson package into ${VENV#$ROOT}"
    fi

    # 5. Config: written once, never overwritten.
    if [ ! -e "$CONFIG_DIR/config.toml" ]; then
        mkdir -p "$CONFIG_DIR"
        cp "$SRC/systemd/config.toml" "$CONFIG_DIR/config.toml"
        chmod 0644 "$CONFIG_DIR/config.toml"
        changed "wrote ${CONFIG_DIR#$ROOT}/config.toml"
    fi

    # 6. udev: make /dev/i2c-* known to systemd, so the unit can wait for the bus.
    before=$CHANGES
    tmp=$(mktemp)
    printf '%s\n' '# Robinson Table: let systemd see the I2C buses (dev-i2c\x2d1.device).' \
        'SUBSYSTEM=="i2c-dev", TAG+="systemd"' > "$tmp"
    put "$tmp" "$UDEV" 0644
    rm -f "$tmp"
    if [ "$CHANGES" != "$before" ]; then
        udevadm control --reload-rules || true
        udevadm trigger --subsystem-match=i2c-dev || true
    fi

    # 7. The unit.
    before=$CHANGES
    put "$SRC/systemd/$SERVICE.service" "$UNIT" 0644
    if [ "$CHANGES" != "$before" ]; then
        systemctl daemon-reload
        systemctl enable "$SERVICE.service"
        systemctl restart "$SERVICE.service"
    elif ! systemctl is-enabled --quiet "$SERVICE.service" 2>/dev/null; then
        systemctl enable --now "$SERVICE.service"
        changed "enabled $SERVICE.service"
    fi

    say "done ($CHANGES changes). Check it with:"
    say "  systemctl status $SERVICE"
    say "  journalctl -u $SERVICE -b"
    say "Config: /etc/robinson-table/config.toml (then: sudo systemctl restart $SERVICE)"
}

"$ACTION"
