#!/bin/sh
# Install Robinson Table as a service on Raspberry Pi OS (Bookworm or later).
#
#   sudo ./install.sh                 install; run it again after `git pull` to update
#   sudo ./install.sh --fast-i2c      ... and set the I2C bus to 400 kHz (see hardware/)
#   sudo ./install.sh --wheelhouse DIR   install the Python packages from DIR, offline
#   sudo sh install.sh --first-boot   from a release bundle, unattended (the first boot)
#   sudo ./install.sh --uninstall     remove it; saved games and the config stay
#   sudo ./install.sh --uninstall --purge   remove saved games, config and user too
#   ./install.sh --root DIR           write under DIR instead of / (packaging, tests)
#
# Running it twice changes nothing the second time; after an update it restarts
# the service, and says so.
set -eu

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "install.sh: $*" >&2; exit 1; }

SRC=$(cd "$(dirname "$0")" && pwd)
ROOT=""
ACTION=install
PURGE=no
FAST_I2C=ask
WHEELHOUSE=""
FIRST_BOOT=no
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2:?--root needs a directory}; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        --wheelhouse) WHEELHOUSE=${2:?--wheelhouse needs a directory}; shift ;;
        --wheelhouse=*) WHEELHOUSE=${1#--wheelhouse=} ;;
        --uninstall) ACTION=uninstall ;;
        --purge) PURGE=yes ;;
        --fast-i2c) FAST_I2C=yes ;;
        --first-boot) FIRST_BOOT=yes FAST_I2C=yes ;;
        --no-fast-i2c) FAST_I2C=no ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
ROOT=${ROOT%/}
# A release bundle (tools/bundle.py) carries the project's wheel and its dependencies'
# in wheels/, and no source: installed from there, offline but for apt.
BUNDLE_WHEEL=""
if [ ! -d "$SRC/firmware" ] && [ -d "$SRC/wheels" ]; then
    for w in "$SRC"/wheels/robinson_table-*.whl; do [ -f "$w" ] && BUNDLE_WHEEL=$w; done
    [ -n "$BUNDLE_WHEEL" ] || { echo "install.sh: $SRC/wheels holds no robinson_table wheel: copy the whole bundle again" >&2; exit 2; }
    [ -n "$WHEELHOUSE" ] || WHEELHOUSE="$SRC/wheels"
fi
CODE=${BUNDLE_WHEEL:-$SRC}  # where python finds firmware/ (a wheel is a zip it imports)
if [ -n "$WHEELHOUSE" ]; then
    [ -d "$WHEELHOUSE" ] || { echo "install.sh: --wheelhouse $WHEELHOUSE is not a directory" >&2; exit 2; }
    WHEELHOUSE=$(cd "$WHEELHOUSE" && pwd)
fi

SERVICE=robinson-table
WEB_SERVICE=robinson-web
WEB_UNIT="$ROOT/etc/systemd/system/$WEB_SERVICE.service"
WEB_SOCKET="$ROOT/etc/systemd/system/$WEB_SERVICE.socket"
WEB_PORT_DROP_IN="$ROOT/etc/systemd/system/$WEB_SERVICE.socket.d/port.conf"
USER_NAME=robinson
OPT="$ROOT/opt/robinson-table"
VENV="$OPT/venv"
UNIT="$ROOT/etc/systemd/system/$SERVICE.service"
DROP_IN="$ROOT/etc/systemd/system/$SERVICE.service.d/panel-bus.conf"
OLD_DROP_IN="$ROOT/etc/systemd/system/$SERVICE.service.d/i2c-bus.conf"  # before SPI waited too
UDEV="$ROOT/etc/udev/rules.d/99-robinson-table.rules"
MODULES="$ROOT/etc/modules-load.d/robinson-table.conf"
RESTART_DROP_IN="$ROOT/etc/systemd/system/$SERVICE.service.d/restart-steps.conf"
CONFIG_DIR="$ROOT/etc/robinson-table"
STATE="$ROOT/var/lib/$SERVICE"
COMMAND="$ROOT/usr/local/bin/robinson"
WATCHDOG="$ROOT/etc/systemd/system.conf.d/robinson-table-watchdog.conf"
WIFI_POWERSAVE="$ROOT/etc/NetworkManager/conf.d/robinson-table-wifi.conf"
WIFI_CHECK="$ROOT/usr/local/lib/robinson-table/wifi-check"
WIFI_UNIT="$ROOT/etc/systemd/system/robinson-wifi-check.service"
WIFI_TIMER="$ROOT/etc/systemd/system/robinson-wifi-check.timer"
SETTINGS_UNIT="$ROOT/etc/systemd/system/robinson-settings.service"
BOOT_SETTINGS="$ROOT/boot/firmware/robinson-table.toml"
PROC=${ROBINSON_PROC:-/proc}
# From Debian (and Raspberry Pi OS): fonts, venv, the I2C and SPI bindings, bring-up tools.
APT_PACKAGES="fonts-misaki fonts-terminus-otb fonts-unifont python3-venv python3-smbus2 python3-spidev i2c-tools"
# From the Raspberry Pi archive: lgpio, and the RPi.GPIO module luma's SPI uses, on
# every model from the Zero to the Pi 5 (python3-rpi-lgpio). Never compiled by pip.
PI_PACKAGES="python3-lgpio python3-rpi-lgpio"
VOICE_PACKAGES="espeak-ng alsa-utils"
# PyPI has Pillow wheels for 64-bit Arm, none for 32-bit (armhf): there it is Debian's
# python3-pil, which must meet setup.cfg's floor (bookworm's 9.4 does not; trixie's 11.1
# does). Every other dependency has a wheel on both (tests/test_wheels.py checks).
ARCH=$(dpkg --print-architecture 2>/dev/null || echo unknown)
case "$ARCH" in armhf|armel) APT_PACKAGES="$APT_PACKAGES python3-pil" ;; esac

say() { printf '%s\n' "robinson: $*"; }
changed() { say "$*"; CHANGES=$((CHANGES + 1)); }
CHANGES=0
REBOOT=no

if [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root: sudo ./install.sh" >&2
    exit 1
fi

# Copy $1 to $2 (mode $3) only if it differs; say so when it did (PUT=yes).
put() {
    PUT=no
    if ! cmp -s "$1" "$2" 2>/dev/null; then
        mkdir -p "$(dirname "$2")"
        cp "$1" "$2.new" && chmod "$3" "$2.new" && mv "$2.new" "$2"
        changed "installed ${2#$ROOT}"
        PUT=yes
    fi
}

# Who listens on TCP port $1, other than systemd (PID 1, which holds our page's socket):
# "NAME (process PID)" and status 0; status 1 when nobody else does. Read from /proc:
# nothing to install, no packet sent.
port_holder() {
    python3 - "$PROC" "$1" <<'EOF'
import os, sys
proc, port = sys.argv[1], int(sys.argv[2])
inodes = set()
for table in ("tcp", "tcp6"):
    try:
        lines = open(f"{proc}/net/{table}").read().splitlines()[1:]
    except OSError:
        continue
    for line in lines:  # "0: 00000000:0050 00000000:0000 0A ... uid timeout inode"
        f = line.split()
        if len(f) > 9 and f[3] == "0A" and int(f[1].rsplit(":", 1)[1], 16) == port:
            inodes.add(f"socket:[{f[9]}]")
if not inodes:
    sys.exit(1)
holders = []
for pid in filter(str.isdigit, os.listdir(proc)):
    try:
        fds = os.listdir(f"{proc}/{pid}/fd")
        if any(os.readlink(f"{proc}/{pid}/fd/{fd}") in inodes for fd in fds):
            holders.append((pid, open(f"{proc}/{pid}/comm").read().strip()))
    except OSError:
        continue
if holders and all(pid == "1" for pid, _ in holders):
    sys.exit(1)  # systemd's socket: ours, robinson-web.socket
print(", ".join(f"{name} (process {pid})" for pid, name in holders if pid != "1")
      or "another program")
EOF
}

# Write the text on stdin to $1 (mode $2) only if it differs.
put_text() {
    tmp=$(mktemp)
    cat > "$tmp"
    put "$tmp" "$1" "$2"
    rm -f "$tmp"
}

# The least version of Python package $1 the table needs (setup.cfg, or the bundle's
# wheel's metadata).
requirement_floor() {
    python3 - "$1" "$CODE" <<'EOF'
import re, sys, zipfile
name, code = sys.argv[1], sys.argv[2]
if code.endswith(".whl"):
    with zipfile.ZipFile(code) as wheel:
        meta = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        text = wheel.read(meta).decode()
else:
    text = open(f"{code}/setup.cfg").read()
found = re.search(rf"^\s*(?:Requires-Dist:\s*)?{name}\s*[^\n]*?>=\s*([0-9.]+)", text,
                  re.I | re.M)
print(found.group(1) if found else "0")
EOF
}

boot_config() {
    for f in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        [ -f "$f" ] && { echo "$f"; return 0; }
    done
    return 0
}

# A line for every Pi at the end of config.txt: on a line of its own (the file may not
# end in a newline) and in an [all] section (the last one may be [pi4] or [cm5]).
boot_line() {
    [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" != '\n' ] && printf '\n' >> "$1"
    last=$(grep -E '^[[:space:]]*\[[^]]*\]' "$1" | tail -n 1 | tr -d '[:space:]')
    [ -n "$last" ] && [ "$last" != "[all]" ] && printf '[all]\n' >> "$1"
    printf '%s\n' "$2" >> "$1"
}

# apt's locks: the package lists' (apt-get update) and dpkg's (install). Both are fcntl
# locks; apt's DPkg::Lock::Timeout waits out dpkg's only, and at a first boot apt's daily
# timers hold one or the other for minutes. One bounded wait for both, whoever holds
# them (read from /proc/locks: nothing here takes a lock apt could then miss).
APT_WAIT=${ROBINSON_APT_WAIT:-300}
APT_DEADLINE=""
APT_BUSY=$(mktemp -u)
apt_wait() {
    [ -n "$APT_DEADLINE" ] || APT_DEADLINE=$(( $(date +%s) + APT_WAIT ))
    python3 - "$ROOT" "$APT_DEADLINE" "$APT_WAIT" "$APT_BUSY" <<'EOF'
import os, sys, time
root, deadline, wait, busy = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
paths = [root + p for p in ("/var/lib/apt/lists/lock", "/var/lib/dpkg/lock-frontend",
                            "/var/lib/dpkg/lock")]

def holder():
    inodes = {}
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        inodes[(os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)] = path
    try:
        locks = open("/proc/locks").read().splitlines()
    except OSError:
        return None
    for line in locks:  # "1: POSIX  ADVISORY  WRITE 1234 08:01:393219 0 EOF"
        f = line.split()
        if "->" in f or len(f) < 6:  # a waiter, not a holder
            continue
        try:
            major, minor, inode = f[5].split(":")
            key, pid = (int(major, 16), int(minor, 16), int(inode)), int(f[4])
        except ValueError:
            continue
        if key in inodes:
            try:
                name = open(f"/proc/{pid}/comm").read().strip()
            except OSError:
                name = "?"
            return inodes[key], pid, name
    return None

said = False
while (held := holder()) is not None:
    path, pid, name = held
    if time.time() >= deadline:
        open(busy, "w").write(
            f"apt has been busy for over {wait} s: process {pid} ({name}) holds "
            f"{path[len(root):]}; let it finish (a first boot's updates take minutes: "
            "systemctl status apt-daily.service apt-daily-upgrade.service), then run "
            "install.sh again")
        sys.exit(1)
    if not said:
        print(f"robinson: apt is busy (process {pid}, {name}, holds {path[len(root):]}): "
              f"waiting up to {wait} s", flush=True)
        said = True
    time.sleep(1)
EOF
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
available() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'; }

# What the config (or, before there is one, the default) drives the panel on, and the
# package extra its luma driver comes in ("-": none; luma.lcd for the TFTs); with the
# hardware settings a phone made laid over it where the table takes them (its checks).
panel_bus() {
    config="$CONFIG_DIR/config.toml"
    [ -f "$config" ] || config="$SRC/systemd/config.toml"
    python3 - "$config" "$CODE" "$STATE" <<'EOF' 2>/dev/null || echo "i2c 1 - 0.0 no no yes 80"
import sys, tomllib
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from firmware.display.panels import PANELS  # the one home of what each panel needs
with open(sys.argv[1], "rb") as file:
    config = tomllib.load(file)
try:  # a phone's settings, as the table lays them: only if it would take them
    from firmware.config.file import load
    from firmware.config.phone import PHONE_FILE, flat, layered
    phone = Path(sys.argv[3]) / PHONE_FILE
    if phone.exists() and not layered(load(Path(sys.argv[1])), phone)[1]:
        for key, value in flat(tomllib.loads(phone.read_text())).items():
            section, name = key.split(".")
            config.setdefault(section, {})[name] = value
except Exception:
    pass
display, voice, web = config.get("display", {}), config.get("voice", {}), config.get("web", {})
kind = PANELS.get(display.get("display", "ssd1306"), PANELS["ssd1306"])
yes = lambda on: "yes" if on is True else "no"
print(display.get("interface", kind.interfaces[0]), int(display.get("i2c_port", 1)),
      kind.extra or "-",
      f'{int(display.get("spi_port", 0))}.{int(display.get("spi_device", 0))}',
      yes(voice.get("enabled") or voice.get("i2s_amplifier")), yes(voice.get("i2s_amplifier")),
      yes(web.get("enabled", True)), int(web.get("port", 80)))
EOF
}

uninstall() {
    systemctl disable --now "$SERVICE.service" >/dev/null 2>&1 || true
    systemctl disable --now "$WEB_SERVICE.socket" "$WEB_SERVICE.service" >/dev/null 2>&1 || true
    systemctl disable --now robinson-wifi-check.timer robinson-settings.service >/dev/null 2>&1 || true
    for f in "$WEB_UNIT" "$WEB_SOCKET" "$WEB_PORT_DROP_IN" "$UNIT" "$DROP_IN" "$OLD_DROP_IN" \
            "$RESTART_DROP_IN" "$UDEV" "$MODULES" "$COMMAND" "$WATCHDOG" "$WIFI_POWERSAVE" \
            "$WIFI_CHECK" "$WIFI_UNIT" "$WIFI_TIMER" "$SETTINGS_UNIT"; do
        { [ -e "$f" ] || [ -L "$f" ]; } && rm -f "$f" && changed "removed ${f#$ROOT}"
    done
    rmdir "$(dirname "$DROP_IN")" "$(dirname "$WEB_PORT_DROP_IN")" "$(dirname "$WIFI_CHECK")" 2>/dev/null || true
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
    command -v python3 >/dev/null 2>&1 || die "python3 is missing: sudo apt-get install python3"
    # 0. The boot partition's settings file, if the owner wrote one: checked with the
    #    config's own checks (python imports them from the checkout or the bundle's
    #    wheel) and made the config only if good, before anything below reads it. Once
    #    robinson-settings.service is there it does this at every boot, before this runs
    #    again, and its report beside the file stands.
    if [ -f "$BOOT_SETTINGS" ] && ! systemctl is-enabled --quiet robinson-settings.service 2>/dev/null; then
        said=$(python3 - "$CODE" "$BOOT_SETTINGS" "$CONFIG_DIR/config.toml" \
                "$ROOT/run/robinson-table-settings-refused" <<'EOF' 2>&1
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from firmware.boot_settings import settle
print(settle(*map(Path, sys.argv[2:]))[1])
EOF
        ) || said="could not read the settings file: $said"
        say "$said"
    fi
    set -- $(panel_bus)
    INTERFACE=$1 I2C_PORT=$2 EXTRA=${3:--} SPI_DEVICE=${4:-0.0} VOICE=${5:-no} I2S=${6:-no}
    WEB=${7:-yes} WEB_PORT=${8:-80}
    [ "$EXTRA" = - ] && EXTRA=""
    # The companion page's framework and server come with the package's "web" extra.
    [ "$WEB" = yes ] && EXTRA="${EXTRA:+$EXTRA,}web"
    # The spoken banker: the synthesizer and ALSA's player, where the config wants a voice.
    [ "$VOICE" = yes ] && APT_PACKAGES="$APT_PACKAGES $VOICE_PACKAGES"

    # 1. Debian packages; the Raspberry Pi archive's where this system has it.
    missing=""
    for p in $APT_PACKAGES; do installed "$p" || missing="$missing $p"; done
    for p in $PI_PACKAGES; do
        installed "$p" && continue
        if available "$p"; then
            missing="$missing $p"
        elif [ -z "$WHEELHOUSE" ]; then
            say "$p is not in this system's package archives (it is in Raspberry Pi OS's):" \
                "on a Pi, use Raspberry Pi OS; elsewhere give --wheelhouse DIR with lgpio" \
                "and rpi-lgpio wheels"
        fi
    done
    if [ -n "$missing" ]; then
        # A fresh image has empty package lists, so the update runs; at first boot apt's
        # daily timers often hold its locks: one wait for both (apt_wait), then apt.
        log=$(mktemp)
        # shellcheck disable=SC2086
        { apt_wait && apt-get -o DPkg::Lock::Timeout=60 install -y -q $missing >/dev/null 2>"$log" || {
            apt_wait && apt-get -o DPkg::Lock::Timeout=60 update -q >/dev/null 2>"$log" &&
            apt_wait && apt-get -o DPkg::Lock::Timeout=60 install -y -q $missing >/dev/null 2>"$log"; }; } || {
            [ -e "$APT_BUSY" ] && { rm -f "$log"; die "$(cat "$APT_BUSY"; rm -f "$APT_BUSY")"; }
            why=$(grep -v '^W:' "$log" | tail -n 1 | cut -c 1-160); rm -f "$log"
            die "apt-get could not install$missing (${why:-it gave no reason}): check the network, then: sudo apt-get update && sudo apt-get install$missing"; }
        rm -f "$log"
        changed "installed Debian packages:$missing"
    fi
    case "$ARCH" in armhf|armel)
        floor=$(requirement_floor pillow)
        pil=$(dpkg-query -W -f='${Version}' python3-pil 2>/dev/null || true)
        dpkg --compare-versions "${pil:-0}" ge "$floor" ||
            die "32-bit Raspberry Pi OS: its Pillow ($pil) is older than the $floor the table needs, and PyPI has no 32-bit wheel to build from: flash 64-bit Raspberry Pi OS (or 32-bit Trixie)" ;;
    esac

    # 2. The panel's bus on, and the 400 kHz offer.
    if command -v raspi-config >/dev/null 2>&1; then
        if [ "$(raspi-config nonint "get_$INTERFACE")" != 0 ]; then
            raspi-config nonint "do_$INTERFACE" 0 || die "raspi-config could not enable $INTERFACE"
            changed "enabled $INTERFACE (takes effect after a reboot)"; REBOOT=yes
        fi
    else
        say "no raspi-config: enable $INTERFACE yourself (dtparam=$([ "$INTERFACE" = spi ] && echo spi || echo i2c_arm)=on in config.txt)"
    fi
    cfg=$(boot_config)
    # The MAX98357A's driver; the pins 18, 19, 21 are its. Without no-sdmode the overlay
    # also takes GPIO 4 for the amplifier's SD pin, for as long as the driver is bound
    # (the seat 4 LED's pin); the breakout's own resistor keeps SD on, so it stays unwired.
    # dtparam=audio stays as it is: the voice names the amplifier's card, so the jack
    # (or HDMI) being card 0 changes nothing, and an owner may want them.
    if [ "$I2S" = yes ]; then
        if [ -z "$cfg" ]; then
            say "no /boot/firmware/config.txt: add dtoverlay=max98357a,no-sdmode to it yourself for the I2S amplifier"
        elif grep -qx "dtoverlay=max98357a" "$cfg"; then  # an earlier install.sh's line
            sed -i 's/^dtoverlay=max98357a$/dtoverlay=max98357a,no-sdmode/' "$cfg"
            changed "wrote the I2S amplifier's overlay as dtoverlay=max98357a,no-sdmode in ${cfg#$ROOT}: GPIO 4 is free again (after a reboot)"; REBOOT=yes
        elif ! grep -q "^dtoverlay=max98357a" "$cfg"; then
            boot_line "$cfg" "dtoverlay=max98357a,no-sdmode"
            changed "added dtoverlay=max98357a,no-sdmode (the I2S amplifier) to ${cfg#$ROOT} (after a reboot)"; REBOOT=yes
        fi
    elif [ -n "$cfg" ] && grep -q "^dtoverlay=max98357a" "$cfg"; then
        # The amplifier switched off (the settings file, a phone): its driver would keep
        # GPIO 18, 19 and 21 from the seats and the buzzer the config may put there.
        sed -i '/^dtoverlay=max98357a/d' "$cfg"
        changed "removed the I2S amplifier's overlay from ${cfg#$ROOT}: its pins are free again (after a reboot)"; REBOOT=yes
    fi
    if [ -z "$cfg" ]; then
        say "no /boot/firmware/config.txt: not a Raspberry Pi OS boot partition; the bus speed stays as it is"
    elif [ "$INTERFACE" = i2c ] && ! grep -q "^dtparam=i2c_arm_baudrate=400000" "$cfg"; then
        if [ "$FAST_I2C" = ask ] && [ -t 0 ]; then
            printf 'robinson: set the I2C bus to 400 kHz (4x faster screen updates)? [Y/n] '
            read -r answer
            case "$answer" in [nN]*) FAST_I2C=no ;; *) FAST_I2C=yes ;; esac
        fi
        if [ "$FAST_I2C" = yes ]; then
            boot_line "$cfg" "dtparam=i2c_arm_baudrate=400000"
            changed "set the I2C bus to 400 kHz in ${cfg#$ROOT} (after a reboot)"; REBOOT=yes
        else
            say "I2C stays at 100 kHz; ./install.sh --fast-i2c sets 400 kHz"
        fi
    fi

    # 3. The groups that own the devices (Debian has no gpio or spi group), and the
    #    service user in them: a group missing at start fails the unit (216/GROUP).
    for group in gpio i2c spi audio; do
        if ! grep -q "^$group:" "$ROOT/etc/group" 2>/dev/null; then
            groupadd ${ROOT:+--root "$ROOT"} --system "$group" || die "could not create the group $group"
            changed "created the group $group"
        fi
    done
    if ! grep -q "^$USER_NAME:" "$ROOT/etc/passwd" 2>/dev/null; then
        useradd ${ROOT:+--root "$ROOT"} --system --no-create-home --home-dir /var/lib/$SERVICE \
            --shell /usr/sbin/nologin --user-group "$USER_NAME" || die "could not create the user $USER_NAME"
        changed "created the service user $USER_NAME"
    fi
    for group in gpio i2c spi audio; do
        line=$(grep "^$group:" "$ROOT/etc/group" 2>/dev/null || true)
        case ",${line##*:}," in
            *",$USER_NAME,"*) ;;
            *) usermod ${ROOT:+--root "$ROOT"} -aG "$group" "$USER_NAME" || die "could not add $USER_NAME to $group"
               changed "added $USER_NAME to the $group group" ;;
        esac
    done

    # 4. A venv that sees apt's packages; never pip into the system Python, and never
    #    build in the checkout (a root-owned build/ would stop the next ./table.sh).
    # A venv made by another python (bookworm's 3.11, then trixie's 3.13 after an
    # upgrade) runs no more: made again, and the package installed into it again.
    made_by=$(sed -n 's/^version *= *\([0-9]*\.[0-9]*\).*/\1/p' "$VENV/pyvenv.cfg" 2>/dev/null || true)
    system=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    if [ -n "$made_by" ] && [ "$made_by" != "$system" ]; then
        rm -rf "$VENV" "$OPT/installed"
        changed "removed ${VENV#$ROOT}: made by python $made_by, the system's is $system"
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        mkdir -p "$OPT"
        python3 -m venv --system-site-packages "$VENV" || die "python3 -m venv failed: sudo apt-get install python3-venv"
        changed "created ${VENV#$ROOT}"
    fi
    if [ -n "$BUNDLE_WHEEL" ]; then
        want=$({ echo "extra=$EXTRA"; cat "$BUNDLE_WHEEL"; } | cksum)
    else
        want=$(cd "$SRC" && { echo "extra=$EXTRA"; cat setup.cfg pyproject.toml $(find robinson_core firmware -name '*.py' | sort); } | cksum)
    fi
    if [ -n "$BUNDLE_WHEEL" ] && [ "$(cat "$OPT/installed" 2>/dev/null)" != "$want" ]; then
        # The simulator's kernel compiled for this Pi's Python (tools/pi_kernel.py), where
        # the bundle has one: its tag and architecture (Debian's multiarch triple, which
        # is the userland's: 32-bit Pi OS on a 64-bit kernel is armhf). None fits: the
        # pure-Python kernel runs, as it always can (robinson_core.compiled).
        KERNEL_WHEEL=""
        pi=$(python3 -c 'import sys, sysconfig; print("cp%d%d" % sys.version_info[:2], sysconfig.get_config_var("MULTIARCH") or "?")' 2>/dev/null || echo "? ?")
        case "${pi#* }" in
            aarch64-linux-gnu) arch=aarch64 ;;
            arm-linux-gnueabihf) arch=armv7l ;;
            x86_64-linux-gnu) arch=x86_64 ;;
            *) arch=none ;;
        esac
        version=$(basename "$BUNDLE_WHEEL" | cut -d- -f2)
        for w in "$SRC/wheels/robinson_table_kernel-$version-${pi%% *}-${pi%% *}-manylinux_"*"_$arch.whl"; do
            [ -f "$w" ] && KERNEL_WHEEL=$w
        done
        kernel="compiled for ${pi%% *} $arch"
        [ -n "$KERNEL_WHEEL" ] || kernel="pure Python (the bundle has none compiled for ${pi%% *} $arch)"
        # shellcheck disable=SC2086
        "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-warn-script-location \
            --no-index --find-links "$WHEELHOUSE" "$BUNDLE_WHEEL${EXTRA:+[$EXTRA]}" ${KERNEL_WHEEL:+"$KERNEL_WHEEL"} ||
            die "pip could not install the bundle's wheels (see above): is the whole bundle on the card? ($SRC/wheels)"
        printf '%s\n' "$want" > "$OPT/installed"
        changed "installed $(basename "$BUNDLE_WHEEL") into ${VENV#$ROOT}; the simulator's kernel $kernel"
    fi
    if [ -z "$BUNDLE_WHEEL" ] && [ "$(cat "$OPT/installed" 2>/dev/null)" != "$want" ]; then
        build=$(mktemp -d)
        cp -R "$SRC/setup.cfg" "$SRC/pyproject.toml" "$SRC/README.md" "$SRC/robinson_core" \
            "$SRC/firmware" "$build/"
        pip_opts="--disable-pip-version-check --prefer-binary --no-warn-script-location"
        [ -n "$WHEELHOUSE" ] && pip_opts="$pip_opts --no-index --find-links $WHEELHOUSE"
        extra=""
        "$VENV/bin/python" -c "import lgpio, RPi.GPIO" >/dev/null 2>&1 || [ -z "$WHEELHOUSE" ] ||
            extra="lgpio rpi-lgpio"
        # The package is built with the venv's own setuptools and wheel, put there once:
        # no isolated build environment each time, so an update needs no network and
        # no minutes of unpacking setuptools on a Pi Zero.
        # shellcheck disable=SC2086
        "$VENV/bin/python" -c "import sys, setuptools, wheel; sys.exit(int(setuptools.__version__.split('.')[0]) < 68)" \
            >/dev/null 2>&1 || "$VENV/bin/python" -m pip install -q $pip_opts "setuptools>=68" wheel ||
            { rm -rf "$build"; die "pip could not install setuptools and wheel (offline? give --wheelhouse DIR)"; }
        # shellcheck disable=SC2086
        "$VENV/bin/python" -m pip install -q $pip_opts --no-build-isolation "$build${EXTRA:+[$EXTRA]}" $extra ||
            { rm -rf "$build"; die "pip could not install the package (see above; offline? give --wheelhouse DIR)"; }
        rm -rf "$build"
        printf '%s\n' "$want" > "$OPT/installed"
        changed "installed the robinson package into ${VENV#$ROOT}"
    fi
    if [ "$(readlink "$COMMAND" 2>/dev/null)" != "/opt/robinson-table/venv/bin/robinson" ]; then
        mkdir -p "$(dirname "$COMMAND")"
        ln -sfn /opt/robinson-table/venv/bin/robinson "$COMMAND"
        changed "linked ${COMMAND#$ROOT}"
    fi

    # 5. Config: written once, never overwritten.
    if [ ! -e "$CONFIG_DIR/config.toml" ]; then
        mkdir -p "$CONFIG_DIR"
        cp "$SRC/systemd/config.toml" "$CONFIG_DIR/config.toml"
        chmod 0644 "$CONFIG_DIR/config.toml"
        changed "wrote ${CONFIG_DIR#$ROOT}/config.toml"
    fi

    # The owner code, at a first install only (no saves yet): it pairs the first phone
    # with no code asked of the panel (a panel set up wrong shows none), and no other.
    if [ ! -e "$STATE/robinson.db" ]; then
        if [ ! -s "$STATE/owner-code" ] || [ -z "$(tr -dc 0-9 < "$STATE/owner-code")" ]; then
            mkdir -p "$STATE"
            python3 -c 'import secrets; print(f"{secrets.randbelow(10 ** 10):010d}")' > "$STATE/owner-code.new"
            chmod 0600 "$STATE/owner-code.new"
            [ -n "$ROOT" ] || chown "$USER_NAME:$USER_NAME" "$STATE" "$STATE/owner-code.new"
            mv "$STATE/owner-code.new" "$STATE/owner-code"
            changed "made the owner code for the first phone"
        fi
        owner=$(tr -dc 0-9 < "$STATE/owner-code" | sed 's/^\(....\)\(....\)/\1 \2 /')
        if [ -d "$ROOT/boot/firmware" ]; then
            printf '%s\r\n' "Robinson Table's owner code: $owner" "" \
                "On a phone on the same Wi-Fi open the table's page (http://$(hostname).local/)," \
                "choose Pair, and type this code. It pairs the first phone, with nothing" \
                "asked of the panel, and then no other: pair more phones with the code the" \
                "panel shows (menu: Phone)." > "$ROOT/boot/firmware/robinson-table-owner-code.txt" ||
                say "could not write the owner code onto the boot partition"
        fi
        say "the owner code for the first phone: $owner (on the boot partition too: robinson-table-owner-code.txt)"
    fi

    # 6. udev: the devices belong to the groups the service runs in, and systemd
    #    sees the I2C buses (so the unit can wait for its bus).
    before=$CHANGES
    put_text "$UDEV" 0644 <<'EOF'
# Robinson Table: the devices its service drives belong to these groups (as on
# Raspberry Pi OS), and systemd sees the I2C and SPI buses (dev-i2c\x2d1.device,
# dev-spidev0.0.device), so the unit can wait for its panel's.
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="i2c-dev", GROUP="i2c", MODE="0660", TAG+="systemd"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660", TAG+="systemd"
EOF
    if [ "$CHANGES" != "$before" ]; then
        udevadm control --reload-rules || true
        udevadm trigger --subsystem-match=i2c-dev --subsystem-match=gpio --subsystem-match=spidev || true
    fi

    # ALSA's core at boot, before the unit starts: the unit allows the sound devices by
    # their group (DeviceAllow=char-alsa), which systemd resolves to major 116 from
    # /proc/devices when the unit starts; a card whose driver loads later (an I2S board
    # probed late, a USB speaker plugged in) then has that major and is allowed too.
    put_text "$MODULES" 0644 <<'EOF'
# Robinson Table: ALSA's core (snd, the "alsa" devices, major 116) before the table
# starts, so a sound card that comes later is one its unit allows.
snd
EOF

    # 7. The unit, and a drop-in that waits for the panel's bus device, the one the
    #    config names (a table on SPI does not wait out an I2C bus it never uses).
    put "$SRC/systemd/$SERVICE.service" "$UNIT" 0644
    if [ "$INTERFACE" = i2c ]; then
        bus_device="dev-i2c\\x2d$I2C_PORT.device" bus_path="/dev/i2c-$I2C_PORT"
    else
        bus_device="dev-spidev$SPI_DEVICE.device" bus_path="/dev/spidev$SPI_DEVICE"
    fi
    put_text "$DROP_IN" 0644 <<EOF
# Written by install.sh: the config drives the panel on $bus_path.
# Wants, not Requires: without the bus the table still starts, and says why it stops.
[Unit]
Wants=$bus_device
After=$bus_device
EOF
    # systemd 254 and later (trixie) lengthen the pause between failed starts; bookworm's
    # 252 keeps the unit's RestartSec (it would warn of keys it does not know).
    version=$(systemctl --version 2>/dev/null | sed -n '1s/^systemd \([0-9]*\).*/\1/p')
    if [ "${version:-0}" -ge 254 ]; then
        put_text "$RESTART_DROP_IN" 0644 <<'EOF'
# Written by install.sh (systemd 254 or later): a table that cannot start (no panel
# yet) tries again, ever less often: 5 s, then longer, up to a minute between tries.
[Service]
RestartSteps=6
RestartMaxDelaySec=60
EOF
    fi
    if [ -e "$OLD_DROP_IN" ]; then
        rm -f "$OLD_DROP_IN" && changed "removed ${OLD_DROP_IN#$ROOT} (now panel-bus.conf)"
    fi
    # 8. The companion page (config [web] enabled, the default): its own unit, started
    #    by its socket on the port (80 unless the config says otherwise).
    if [ "$WEB" = yes ]; then
        put "$SRC/systemd/$WEB_SERVICE.service" "$WEB_UNIT" 0644
        put "$SRC/systemd/$WEB_SERVICE.socket" "$WEB_SOCKET" 0644
        # Port 80 held by another program (Pi-hole, nginx): the page takes 8080, and
        # says so (the panel's pairing screen shows the address with its port).
        if [ "$WEB_PORT" = 80 ] && holder=$(port_holder 80); then
            say "port 80 is taken by $holder: the page listens on port 8080 instead"
            WEB_PORT=8080
        fi
        if [ "$WEB_PORT" != 80 ]; then
            put_text "$WEB_PORT_DROP_IN" 0644 <<EOF
# Written by install.sh: the config's [web] port.
[Socket]
ListenStream=
ListenStream=$WEB_PORT
EOF
        elif [ -e "$WEB_PORT_DROP_IN" ]; then
            rm -f "$WEB_PORT_DROP_IN" && changed "removed ${WEB_PORT_DROP_IN#$ROOT} (port 80 again)"
        fi
    else
        systemctl disable --now "$WEB_SERVICE.socket" "$WEB_SERVICE.service" >/dev/null 2>&1 || true
        for f in "$WEB_UNIT" "$WEB_SOCKET" "$WEB_PORT_DROP_IN"; do
            [ -e "$f" ] && rm -f "$f" && changed "removed ${f#$ROOT} ([web] enabled = false)"
        done
        rmdir "$(dirname "$WEB_PORT_DROP_IN")" 2>/dev/null || true
    fi
    # The settings file on the boot partition, at every boot before the table.
    put "$SRC/systemd/robinson-settings.service" "$SETTINGS_UNIT" 0644
    # 9. The Pi's own health: the SoC's watchdog, fed by systemd (a frozen Pi reboots
    #    by itself); Wi-Fi that neither naps nor stays lost (the phones' page).
    put "$SRC/systemd/watchdog.conf" "$WATCHDOG" 0644
    if [ "$PUT" = yes ]; then
        systemctl daemon-reexec || say "systemd takes the watchdog at the next boot"
    fi
    if [ -d "$ROOT/etc/NetworkManager" ]; then
        put "$SRC/systemd/wifi-powersave.conf" "$WIFI_POWERSAVE" 0644
        [ "$PUT" = yes ] && say "Wi-Fi power saving is off from the next time it joins"
    fi
    put "$SRC/systemd/wifi-check" "$WIFI_CHECK" 0755
    put "$SRC/systemd/robinson-wifi-check.service" "$WIFI_UNIT" 0644
    put "$SRC/systemd/robinson-wifi-check.timer" "$WIFI_TIMER" 0644
    if [ "$CHANGES" != 0 ]; then
        systemctl daemon-reload || true
    fi
    if ! systemctl is-enabled --quiet robinson-settings.service 2>/dev/null; then
        systemctl enable robinson-settings.service || die "systemctl could not enable robinson-settings.service"
        changed "enabled robinson-settings.service"
    fi
    if ! systemctl is-enabled --quiet robinson-wifi-check.timer 2>/dev/null; then
        systemctl enable robinson-wifi-check.timer || die "systemctl could not enable robinson-wifi-check.timer"
        systemctl start robinson-wifi-check.timer 2>/dev/null || true
        changed "enabled robinson-wifi-check.timer"
    fi
    if [ "$WEB" = yes ]; then
        if ! systemctl is-enabled --quiet "$WEB_SERVICE.socket" 2>/dev/null; then
            systemctl enable "$WEB_SERVICE.socket" || die "systemctl could not enable $WEB_SERVICE.socket"
            changed "enabled $WEB_SERVICE.socket"
        fi
        if [ "$CHANGES" != 0 ]; then
            systemctl try-restart "$WEB_SERVICE.service" >/dev/null 2>&1 || true
            systemctl restart "$WEB_SERVICE.socket" || say "the page's socket did not start: journalctl -u $WEB_SERVICE.socket -b"
        fi
    fi
    if ! systemctl is-enabled --quiet "$SERVICE.service" 2>/dev/null; then
        systemctl enable "$SERVICE.service" || die "systemctl could not enable $SERVICE.service"
        changed "enabled $SERVICE.service"
    fi
    if [ "$CHANGES" != 0 ]; then
        if systemctl restart "$SERVICE.service"; then
            say "restarted $SERVICE.service, as something changed"
        else
            say "the service did not start: journalctl -u $SERVICE -b"
        fi
    fi

    if [ "$FIRST_BOOT" = yes ]; then
        [ -f "$SRC/VERSION" ] && cp "$SRC/VERSION" "$OPT/bundle"  # robinson-first-boot's mark
        if [ "$REBOOT" = yes ]; then
            say "restarting the Pi in a minute, once, for the bus and config.txt to take effect"
            shutdown -r +1 "Robinson Table: restarting once to finish its install" ||
                say "could not schedule the restart: restart the Pi yourself"
        fi
    fi
    say "done ($CHANGES changes). Check it with:"
    say "  systemctl status $SERVICE"
    say "  journalctl -u $SERVICE -b"
    say "Config: /etc/robinson-table/config.toml (then: sudo systemctl restart $SERVICE)"
    if [ "$WEB" = yes ]; then
        say "The table on every phone: open $(page_address "$WEB_PORT") on the home network,"
        say "  then pair the phone with the code the panel shows (menu: Phone)."
    fi
}

# Where phones find the page: the Pi's .local name where avahi answers for it, its
# address on the network otherwise (as robinson web says it to the panel).
page_address() {
    suffix=""; [ "$1" != 80 ] && suffix=":$1"
    if systemctl is-active --quiet avahi-daemon 2>/dev/null; then
        printf 'http://%s.local%s/' "$(hostname)" "$suffix"
    else
        where=$(hostname -I 2>/dev/null | awk '{print $1}')
        printf 'http://%s%s/' "${where:-$(hostname)}" "$suffix"
    fi
}

"$ACTION"
