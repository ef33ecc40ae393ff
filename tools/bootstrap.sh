#!/bin/sh
# Make the repo ready to run: Debian packages it uses (where we may install
# them), then .venv at the repo root with this package in editable mode.
# Usage: tools/bootstrap.sh table|test       (called by ./table.sh and ./test.sh)
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV="$ROOT/.venv"
MODE=${1:-table}
say() { printf '%s\n' "robinson: $*" >&2; }

# Debian packages: the fonts for the OLED (Japanese, and Latin with č ć đ š ž ä ö);
# the tests also need systemd-analyze, tmux and strace (the kill-point tests).
FONTS="fonts-misaki fonts-terminus-otb fonts-unifont"
VOICE="espeak-ng alsa-utils"  # the spoken banker: the synthesizer, and aplay
case "$MODE" in
    table) WANT="$FONTS $VOICE" ;;
    # and a real browser for the companion page (chromium, its driver), and zbarimg to
    # read the panel's QR code as a phone camera would.
    test) WANT="$FONTS $VOICE systemd tmux strace chromium chromium-driver zbar-tools" ;;
    *) say "usage: tools/bootstrap.sh table|test"; exit 2 ;;
esac
# On a Pi the pins' libraries come from Raspberry Pi OS, never compiled by pip:
# lgpio, and the RPi.GPIO module (python3-rpi-lgpio) that luma's SPI uses.
if grep -qs "Raspberry Pi" /proc/device-tree/model; then
    WANT="$WANT python3-lgpio python3-rpi-lgpio python3-smbus2 python3-spidev"
fi

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
    else return 1
    fi
}

missing_debs() {
    command -v dpkg-query >/dev/null 2>&1 || return 0
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || printf '%s ' "$p"
    done
}

apt_install() {
    command -v apt-get >/dev/null 2>&1 || return 1
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1 && return 0
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null 2>&1 || return 1
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1
}

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
    say "Python 3.11 or newer is needed; this is $(python3 --version 2>&1)."
    exit 1
}

need=$(missing_debs $WANT)
if [ -n "$need" ]; then
    say "installing Debian packages: $need"
    # shellcheck disable=SC2086
    apt_install $need || say "could not install $need (not root, no sudo, or no apt):
    run: sudo apt-get install $need
    carrying on with the fonts that are there."
fi

if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV (once)"
    site=""
    # On a Pi, apt's python3-lgpio (Pi 5) must be visible inside the venv.
    grep -qs "Raspberry Pi" /proc/device-tree/model && site="--system-site-packages"
    if ! python3 -m venv $site "$VENV" >/dev/null 2>&1; then
        rm -rf "$VENV"
        pyver=$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
        say "python3 cannot make a venv; installing python3-venv"
        apt_install python3-venv || apt_install "python$pyver-venv" || {
            say "run: sudo apt-get install python3-venv   and then this command again."
            exit 1
        }
        python3 -m venv $site "$VENV"
    fi
fi

# Install (again) only when the package metadata changed, or extras are missing.
# The table needs no extras but the Pi's; the tests add the dev tools.
extras="lcd,web"  # any panel can be tried emulated (--display st7789); the page too
[ "$MODE" = test ] && extras="dev,lcd,web"
if grep -qs "Raspberry Pi" /proc/device-tree/model; then
    extras="${extras:+$extras,}pi"
fi
stamp="$VENV/.robinson-installed"
# compat: the checkout on sys.path by a .pth line, not setuptools' import finder (24 ms
# of every start, measured with -X importtime); the mode is part of what is installed.
EDITABLE="editable_mode=compat"
metadata=$( (cat "$ROOT/setup.cfg" "$ROOT/pyproject.toml"; echo "$EDITABLE") | cksum)
installed_metadata=$(sed -n 1p "$stamp" 2>/dev/null || true)
installed_extras=$(sed -n 2p "$stamp" 2>/dev/null || true)
missing=no
for extra in $(echo "$extras" | tr ',' ' '); do
    case ",$installed_extras," in *",$extra,"*) ;; *) missing=yes ;; esac
done
if [ "$installed_metadata" != "$metadata" ] || [ "$missing" = yes ]; then
    [ "$installed_metadata" = "$metadata" ] && extras=$(printf '%s,%s' "$installed_extras" "$extras" | tr ',' '\n' | sed '/^$/d' | sort -u | paste -sd, -)
    say "installing the package${extras:+ with [$extras]} into .venv"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
        --config-settings "$EDITABLE" -e "$ROOT${extras:+[$extras]}" \
        2>&1 | grep -v "^WARNING: Location" >&2 || true
    "$VENV/bin/python" -c "import firmware, gpiozero, luma.oled, PIL" || {
        say "installing into .venv failed; see the messages above."
        exit 1
    }
    printf '%s\n%s\n' "$metadata" "$extras" > "$stamp"
fi
# The tests run axe-core in Chromium on the companion page: fetched from npm's registry
# at a pinned version, checked, kept in .venv (tools/axe.py; no Node needed).
[ "$MODE" = test ] && "$VENV/bin/python" "$ROOT/tools/axe.py" "$VENV"
# The simulator's kernel compiled where it can be (mypyc, a C compiler): the pure one
# otherwise, said once a test run, never a failure.
quiet="--quiet"; [ "$MODE" = test ] && quiet=""
"$VENV/bin/python" "$ROOT/tools/compile_kernel.py" $quiet || true
# The editable install leaves the project's own modules to be compiled at their first
# import, and not at all where the checkout is not writable by the one who runs it
# (every start would compile them again): compiled here, once each change.
"$VENV/bin/python" -m compileall -q -j 0 "$ROOT/firmware" "$ROOT/robinson_core" >/dev/null 2>&1 || true
