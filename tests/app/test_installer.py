"""install.sh into a temporary root, with the system's tools replaced by recording stand-ins."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Each stand-in logs its call, and keeps just enough state to answer later questions.
STAND_INS = {
    "apt-get": 'while [ "$1" = -o ]; do shift 2; done; case "$1" in install) shift; '
               'for p in "$@"; do case "$p" in -*) ;; *) echo "$p" >> "$FAKE/debs";; esac; '
               'done;; esac',
    "dpkg-query": 'for p; do :; done; grep -qx "$p" "$FAKE/debs" 2>/dev/null || exit 1; '
                  'case "$2" in *Version*) cat "$FAKE/version-$p" 2>/dev/null || echo 1.0-1;; '
                  '*) printf "install ok installed";; esac',
    "dpkg": 'case "$1" in --print-architecture) cat "$FAKE/arch" 2>/dev/null || echo arm64;; '
            '*) exec /usr/bin/dpkg "$@";; esac',
    "apt-cache": 'for p; do :; done; if [ -e "$FAKE/no-pi-archive" ] && '
                 '[ "${p#python3-}" != "$p" ] && case $p in *lgpio) true;; *) false;; esac; '
                 'then echo "  Candidate: (none)"; else echo "  Candidate: 1.0-1"; fi',
    "raspi-config": 'case "$2" in get_*) [ -e "$FAKE/${2#get_}" ] && echo 0 || echo 1;; '
                    'do_*) touch "$FAKE/${2#do_}";; esac',
    "groupadd": 'r=""; [ "$1" = --root ] && r=$2; for n; do :; done; '
                'echo "$n:x:990:" >> "$r/etc/group"',
    "useradd": 'r=""; [ "$1" = --root ] && r=$2; for n; do :; done; '
               'echo "$n:x:999:999::/var/lib/robinson-table:/usr/sbin/nologin" >> "$r/etc/passwd"',
    "usermod": 'r=$2; g=$4; n=$5; sed -i "s/^$g:\\(.*\\):\\([^:]*\\)$/$g:\\1:\\2,$n/; '
               's/^$g:\\(.*\\):,$n$/$g:\\1:$n/" "$r/etc/group"',
    "userdel": 'r=$2; n=$3; sed -i "/^$n:/d" "$r/etc/passwd"',
    "systemctl": 'for u; do :; done; case "$1" in is-enabled) [ -e "$FAKE/enabled-$u" ];; '
                 'enable) touch "$FAKE/enabled-$u";; disable) rm -f "$FAKE"/enabled-*;; esac',
    "udevadm": ":",
    "shutdown": ":",
    # The venv's python records its calls; pip records what it was asked to build and
    # whether a build/ or egg-info would land there (it lists the source folder).
    "python3": 'if [ "$1" = -m ] && [ "$2" = venv ]; then for d; do :; done; mkdir -p "$d/bin"; '
               'printf "#!/bin/sh\\necho \\"venv-python \\$*\\" >> \\"$FAKE/calls\\"\\n'
               '[ \\"\\$1\\" = -c ] && exit 1\\nexit 0\\n" '
               '> "$d/bin/python"; chmod +x "$d/bin/python"; else exec "$REAL_PYTHON" "$@"; fi',
}


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, Path]:
    root, fake, bin_ = tmp_path / "root", tmp_path / "fake", tmp_path / "bin"
    for d in (root / "etc", root / "boot" / "firmware", fake, bin_):
        d.mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "etc" / "group").write_text("root:x:0:\ngpio:x:997:pi\ni2c:x:998:\nspi:x:999:pi\n")
    (root / "boot" / "firmware" / "config.txt").write_text("[all]\ndtparam=audio=on\n")
    for name, body in STAND_INS.items():
        script = bin_ / name
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "$FAKE/calls"\n{body}\n')
        script.chmod(0o755)
    return {"root": root, "fake": fake, "bin": bin_}


def install(machine: dict[str, Path], *args: str, env: dict[str, str] | None = None,
            script: Path = ROOT / "install.sh") -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{machine['bin']}:/usr/bin:/bin", "FAKE": str(machine["fake"]),
           "REAL_PYTHON": sys.executable, "HOME": str(machine["fake"]),
           "ROBINSON_PROC": str(machine["fake"] / "proc"), **(env or {})}
    return subprocess.run(["sh", str(script), "--root", str(machine["root"]), *args],
                          capture_output=True, text=True, env=env, check=False,
                          stdin=subprocess.DEVNULL)


def calls(machine: dict[str, Path]) -> list[str]:
    path = machine["fake"] / "calls"
    lines = path.read_text().splitlines() if path.exists() else []
    path.unlink(missing_ok=True)
    return lines


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_first_install_puts_everything_in_place(machine: dict[str, Path]) -> None:
    run = install(machine, "--fast-i2c")
    assert run.returncode == 0, run.stderr
    root, done = machine["root"], calls(machine)
    unit = root / "etc/systemd/system/robinson-table.service"
    assert unit.read_text() == (ROOT / "systemd/robinson-table.service").read_text()
    assert (root / "etc/robinson-table/config.toml").read_text() == \
        (ROOT / "systemd/config.toml").read_text()
    assert "TAG+=\"systemd\"" in (root / "etc/udev/rules.d/99-robinson-table.rules").read_text()
    apt = next(c for c in done if c.startswith("apt-get") and " install " in c)
    for package in ("fonts-misaki", "fonts-terminus-otb", "fonts-unifont", "python3-venv",
                    "python3-lgpio", "python3-rpi-lgpio", "python3-spidev", "python3-smbus2",
                    "i2c-tools"):
        assert package in apt.split()
    assert "raspi-config nonint do_i2c 0" in done
    assert (root / "boot/firmware/config.txt").read_text().endswith(
        "dtparam=i2c_arm_baudrate=400000\n")
    assert any(c.startswith("useradd") and "--system" in c and c.endswith("robinson")
               for c in done)
    group = (root / "etc/group").read_text()
    assert "gpio:x:997:pi,robinson" in group and "i2c:x:998:robinson" in group
    assert "spi:x:999:pi,robinson" in group
    venv = f"python3 -m venv --system-site-packages {root}/opt/robinson-table/venv"
    assert venv in done
    tools = [c for c in done if c.startswith("venv-python -m pip install") and "setuptools" in c]
    pip = [c for c in done if c.startswith("venv-python -m pip install") and c not in tools]
    assert len(tools) == 1 and tools[0].endswith('setuptools>=68 wheel')  # built in the venv
    assert len(pip) == 1 and "--prefer-binary" in pip[0] and str(ROOT) not in pip[0]
    assert "--no-build-isolation" in pip[0]
    assert "--no-index" not in pip[0] and "lgpio" not in pip[0]  # from apt, not pip
    assert (root / "usr/local/bin/robinson").readlink() == Path(
        "/opt/robinson-table/venv/bin/robinson")
    drop_in = root / "etc/systemd/system/robinson-table.service.d/panel-bus.conf"
    assert "After=dev-i2c\\x2d1.device" in drop_in.read_text()
    assert "systemctl enable robinson-table.service" in done
    assert "systemctl restart robinson-table.service" in done
    assert "systemctl status robinson-table" in run.stdout
    assert "journalctl -u robinson-table" in run.stdout


def test_the_companion_page_is_installed_socket_activated_and_can_be_switched_off(
        machine: dict[str, Path]) -> None:
    """On by default (the family asked for it first; changes need a phone paired on the
    panel): the page's unit and socket in place, the socket enabled, the address said."""
    root = machine["root"]
    units = root / "etc/systemd/system"
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    done = calls(machine)
    assert (units / "robinson-web.service").read_bytes() == (
        ROOT / "systemd/robinson-web.service").read_bytes()
    assert (units / "robinson-web.socket").read_bytes() == (
        ROOT / "systemd/robinson-web.socket").read_bytes()
    assert not (units / "robinson-web.socket.d").exists()  # port 80: as shipped
    assert "systemctl enable robinson-web.socket" in done
    assert "systemctl enable robinson-web.service" not in done  # the socket starts it
    assert "The table on every phone: open http://" in run.stdout
    config = root / "etc/robinson-table/config.toml"
    config.write_text(config.read_text().replace("port = 80", "port = 8080"))
    assert install(machine, "--no-fast-i2c").returncode == 0
    port = (units / "robinson-web.socket.d/port.conf").read_text()
    assert "ListenStream=\nListenStream=8080\n" in port
    config.write_text(config.read_text().replace("enabled = true\nport", "enabled = false\nport"))
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    assert not any(p.name.startswith("robinson-web") for p in units.iterdir())
    done = calls(machine)
    assert any(c.startswith("systemctl disable --now robinson-web.socket") for c in done)
    assert "every phone" not in run.stdout
    pip = [c for c in done if "pip install" in c and "setuptools" not in c]
    assert len(pip) == 1 and "web" not in pip[0].split("/")[-1], pip


def test_a_second_run_changes_nothing(machine: dict[str, Path]) -> None:
    assert install(machine, "--fast-i2c").returncode == 0
    calls(machine)
    before = tree(machine["root"])
    run = install(machine, "--fast-i2c")
    assert run.returncode == 0, run.stderr
    assert tree(machine["root"]) == before
    done = calls(machine)
    for verb in ("apt-get", "do_i2c", "useradd", "usermod", "-m venv", "pip install", "restart"):
        assert not any(verb in c for c in done), (verb, done)
    assert "(0 changes)" in run.stdout


def test_an_existing_config_is_never_overwritten(machine: dict[str, Path]) -> None:
    config = machine["root"] / "etc/robinson-table/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('language = "fi"\n')
    assert install(machine, "--no-fast-i2c").returncode == 0
    assert config.read_text() == 'language = "fi"\n'
    assert "400000" not in (machine["root"] / "boot/firmware/config.txt").read_text()


def test_uninstall_keeps_saved_games_unless_purged(machine: dict[str, Path]) -> None:
    assert install(machine).returncode == 0
    root = machine["root"]
    saves = root / "var/lib/robinson-table"
    saves.mkdir(parents=True, exist_ok=True)  # (the owner code is in it already)
    (saves / "game.txt").write_text("a game")
    calls(machine)
    run = install(machine, "--uninstall")
    assert run.returncode == 0, run.stderr
    assert not (root / "etc/systemd/system/robinson-table.service").exists()
    assert not (root / "opt/robinson-table").exists()
    assert not (root / "etc/udev/rules.d/99-robinson-table.rules").exists()
    assert (saves / "game.txt").exists() and (root / "etc/robinson-table/config.toml").exists()
    assert "systemctl disable --now robinson-table.service" in calls(machine)
    assert "kept the saved games" in run.stdout
    run = install(machine, "--uninstall", "--purge")
    assert run.returncode == 0 and not saves.exists()
    assert not (root / "etc/robinson-table").exists()
    assert "robinson:" not in (root / "etc/passwd").read_text()


def test_bad_options_are_one_clear_line(machine: dict[str, Path]) -> None:
    run = install(machine, "--frobnicate")
    assert run.returncode == 2 and run.stderr.strip() == \
        "install.sh: unknown option --frobnicate (see --help)"


def test_without_root_it_says_to_use_sudo() -> None:
    # A copy nobody can read: the checkout may sit in a folder only root can (/root).
    folder = Path(tempfile.mkdtemp(prefix="robinson-install-"))
    try:
        folder.chmod(0o755)
        shutil.copy2(ROOT / "install.sh", folder / "install.sh")
        (folder / "install.sh").chmod(0o755)
        command = ["sh", str(folder / "install.sh")]
        if os.geteuid() == 0:  # CI runs as root: try it as nobody
            command = ["runuser", "-u", "nobody", "--", *command]
        run = subprocess.run(command, capture_output=True, text=True, check=False, cwd=folder)
    finally:
        shutil.rmtree(folder)
    assert run.returncode == 1 and "sudo ./install.sh" in run.stderr, run.stderr


def test_nothing_is_built_in_the_checkout(tmp_path: Path, machine: dict[str, Path]) -> None:
    # A real pip, building the real package into a real venv, from a copy of the repo.
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "*.egg-info",
                                                              "build", "__pycache__", "tests"))
    (machine["bin"] / "python3").unlink()  # the real python3, venv and pip
    env = {"PATH": f"{machine['bin']}:{Path(sys.executable).parent}:/usr/bin:/bin",
           "FAKE": str(machine["fake"]), "HOME": str(machine["fake"])}
    run = subprocess.run(["sh", str(copy / "install.sh"), "--root", str(machine["root"]),
                          "--no-fast-i2c"], capture_output=True, text=True, env=env,
                         check=False, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stdout + run.stderr
    assert not list(copy.glob("*.egg-info")) and not (copy / "build").exists()
    venv = machine["root"] / "opt/robinson-table/venv"
    assert (venv / "bin/robinson").exists()


def test_an_update_restarts_the_service_and_says_so(tmp_path: Path,
                                                    machine: dict[str, Path]) -> None:
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".venv", ".git", "tests",
                                                              "__pycache__"))
    env = {"PATH": f"{machine['bin']}:/usr/bin:/bin", "FAKE": str(machine["fake"]),
           "REAL_PYTHON": sys.executable, "HOME": str(machine["fake"])}

    def again() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["sh", str(copy / "install.sh"), "--root", str(machine["root"]),
                               "--no-fast-i2c"], capture_output=True, text=True, env=env,
                              check=False, stdin=subprocess.DEVNULL)

    assert again().returncode == 0
    calls(machine)
    assert "(0 changes)" in again().stdout
    done = calls(machine)
    assert not any(" restart " in c for c in done), done
    engine = copy / "robinson_core" / "engine.py"
    engine.write_text(engine.read_text() + "\n# a new version\n")
    run = again()
    assert run.returncode == 0 and "restarted robinson-table.service" in run.stdout
    done = calls(machine)
    assert any("pip install" in c for c in done)
    assert "systemctl restart robinson-table.service" in done


def test_offline_from_a_wheelhouse(tmp_path: Path, machine: dict[str, Path]) -> None:
    (machine["fake"] / "no-pi-archive").touch()  # plain Debian: no python3-lgpio in apt
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    run = install(machine, "--wheelhouse", str(wheels), "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    done = calls(machine)
    apt = next(c for c in done if c.startswith("apt-get") and " install " in c)
    assert "python3-lgpio" not in apt and "python3-smbus2" in apt
    pip = [c for c in done if c.startswith("venv-python -m pip install")]
    assert len(pip) == 2 and all(f"--no-index --find-links {wheels}" in c for c in pip)
    assert pip[0].endswith("setuptools>=68 wheel") and pip[1].endswith("lgpio rpi-lgpio")


def test_without_the_pi_archive_or_a_wheelhouse_it_says_what_is_missing(
        machine: dict[str, Path]) -> None:
    (machine["fake"] / "no-pi-archive").touch()
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    assert "python3-lgpio is not in this system's package archives" in run.stdout
    assert "--wheelhouse DIR" in run.stdout


def test_missing_groups_are_made_before_the_user_joins_them(machine: dict[str, Path]) -> None:
    (machine["root"] / "etc" / "group").write_text("root:x:0:\ni2c:x:998:\n")  # like Debian
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    group = (machine["root"] / "etc/group").read_text()
    for name in ("gpio", "i2c", "spi"):
        assert f"{name}:x:" in group and group.split(f"{name}:x:")[1].split("\n")[0].endswith(
            "robinson"), group
    rules = (machine["root"] / "etc/udev/rules.d/99-robinson-table.rules").read_text()
    assert 'KERNEL=="gpiochip*", GROUP="gpio"' in rules
    assert 'SUBSYSTEM=="spidev", GROUP="spi"' in rules


def test_a_panel_on_spi_enables_spi_and_waits_for_its_spi_device(
        machine: dict[str, Path]) -> None:
    """Nothing waited for /dev/spidev0.0 at boot; now the SPI device the config names, as
    the I2C bus is (and an install from before, with i2c-bus.conf, loses it)."""
    assert install(machine, "--no-fast-i2c").returncode == 0
    units = machine["root"] / "etc/systemd/system/robinson-table.service.d"
    (units / "panel-bus.conf").rename(units / "i2c-bus.conf")  # as an older install left it
    config = machine["root"] / "etc/robinson-table/config.toml"
    config.write_text(config.read_text().replace('interface = "i2c"', 'interface = "spi"')
                      .replace("spi_device = 0", "spi_device = 1"))
    calls(machine)
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    assert "raspi-config nonint do_spi 0" in calls(machine)
    assert sorted(p.name for p in units.iterdir()) == ["panel-bus.conf"]
    drop_in = (units / "panel-bus.conf").read_text()
    assert "Wants=dev-spidev0.1.device" in drop_in and "After=dev-spidev0.1.device" in drop_in
    assert "i2c" not in drop_in
    rules = (machine["root"] / "etc/udev/rules.d/99-robinson-table.rules").read_text()
    assert 'SUBSYSTEM=="spidev", GROUP="spi", MODE="0660", TAG+="systemd"' in rules


def test_a_tft_in_the_config_installs_the_lcd_extra(machine: dict[str, Path]) -> None:
    assert install(machine, "--no-fast-i2c").returncode == 0
    first = [c for c in calls(machine) if "pip install" in c and "setuptools" not in c]
    assert len(first) == 1 and "[web]" in first[0]  # an OLED: luma.oled alone, and the page
    config = machine["root"] / "etc/robinson-table/config.toml"
    config.write_text(config.read_text().replace('display = "ssd1306"', 'display = "st7789"')
                      .replace('interface = "i2c"', 'interface = "spi"'))
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    pip = [c for c in calls(machine) if "pip install" in c and "setuptools" not in c]
    assert len(pip) == 1 and "[lcd,web]" in pip[0], pip  # the config changed: installed again
    assert install(machine, "--no-fast-i2c").returncode == 0
    assert not [c for c in calls(machine) if "pip install" in c]


def test_without_config_txt_it_says_so(machine: dict[str, Path]) -> None:
    (machine["root"] / "boot/firmware/config.txt").unlink()
    run = install(machine, "--fast-i2c")
    assert run.returncode == 0 and "no /boot/firmware/config.txt" in run.stdout


def test_help_is_the_usage_and_nothing_else(machine: dict[str, Path]) -> None:
    run = install(machine, "--help")
    lines = run.stdout.splitlines()
    assert run.returncode == 0 and lines[0].startswith("Install Robinson Table")
    assert lines[-1].startswith("the service") and all(not ln.startswith("set ") for ln in lines)


def test_a_failing_step_is_one_line(machine: dict[str, Path]) -> None:
    (machine["bin"] / "apt-get").write_text("#!/bin/sh\necho noise >&2\nexit 100\n")
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 1
    assert run.stderr.strip().count("\n") == 0 and "apt-get could not install" in run.stderr


HOLD = """import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(float(sys.argv[2]))
open(sys.argv[3], "w").close()  # (released as it exits, a moment after)
"""


def hold_lock(machine: dict[str, Path], lock: str, seconds: float) -> subprocess.Popen[str]:
    """Another process holds one of apt's fcntl locks under the root, for ``seconds``
    (apt's daily timers at a first boot); it leaves a file as it lets go."""
    path = machine["root"] / lock
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path), str(seconds),
                               str(machine["fake"] / "released")], stdout=subprocess.PIPE,
                              text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


# apt-get records whether the other process had let go when it ran.
APT_AFTER = ('[ -e "$FAKE/released" ] || echo "apt-get ran while the lock was held" '
             '>> "$FAKE/calls"\n')


@pytest.mark.parametrize("lock", ["var/lib/apt/lists/lock", "var/lib/dpkg/lock-frontend"])
def test_apt_waits_for_both_of_its_locks_at_first_boot(machine: dict[str, Path],
                                                       lock: str) -> None:
    """Pi OS images ship with empty package lists, so apt-get update runs, and
    DPkg::Lock::Timeout does not cover the lists' lock: install.sh waits for each lock,
    says so, and runs apt once it is free."""
    apt = machine["bin"] / "apt-get"
    apt.write_text(apt.read_text().replace("\n", "\n" + APT_AFTER, 1))
    holder = hold_lock(machine, lock, 2.5)
    run = install(machine)
    holder.communicate(timeout=30)
    assert run.returncode == 0, run.stderr
    assert f"apt is busy (process {holder.pid}, python" in run.stdout
    assert f"holds /{lock}): waiting up to 300 s" in run.stdout
    done = [c for c in calls(machine) if c.startswith("apt-get")]
    assert done and "apt-get ran while the lock was held" not in done, done


def test_apt_busy_past_the_wait_is_one_true_line(machine: dict[str, Path]) -> None:
    holder = hold_lock(machine, "var/lib/apt/lists/lock", 30)
    try:
        run = install(machine, env={"ROBINSON_APT_WAIT": "2"})
    finally:
        holder.kill()
        holder.communicate()
    assert run.returncode == 1 and len(run.stderr.splitlines()) == 1, run.stderr
    assert (f"apt has been busy for over 2 s: process {holder.pid} (python" in run.stderr
            and "holds /var/lib/apt/lists/lock" in run.stderr), run.stderr
    assert not any(c.startswith("apt-get") for c in calls(machine))


def test_a_venv_of_another_python_is_made_again(machine: dict[str, Path]) -> None:
    """bookworm to trixie: the venv's python 3.11 is gone, the system's is 3.13. The
    venv is made again and the package installed into it again; the same python: kept."""
    assert install(machine).returncode == 0
    venv = machine["root"] / "opt/robinson-table/venv"
    system = ".".join(map(str, sys.version_info[:2]))
    (venv / "pyvenv.cfg").write_text(f"home = /usr/bin\nversion = {system}.2\n")
    calls(machine)
    assert install(machine).returncode == 0
    assert not any("-m venv" in c or "pip install" in c for c in calls(machine))
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.9.2\n")
    run = install(machine)
    assert run.returncode == 0, run.stderr
    done = calls(machine)
    assert f"made by python 3.9, the system's is {system}" in run.stdout
    assert any("-m venv" in c for c in done) and any("pip install" in c for c in done)


@pytest.mark.parametrize("before,after", [
    ("[all]\ndtparam=audio=on\n", "[all]\ndtparam=audio=on\n"),
    ("[pi4]\narm_boost=1", "[pi4]\narm_boost=1\n[all]\n"),
    ("dtparam=audio=on", "dtparam=audio=on\n"),
    ("[cm5]\ndtoverlay=dwc2\n[all]\n", "[cm5]\ndtoverlay=dwc2\n[all]\n"),
])
def test_config_txt_lines_go_on_their_own_line_in_an_all_section(
        machine: dict[str, Path], before: str, after: str) -> None:
    cfg = machine["root"] / "boot/firmware/config.txt"
    cfg.write_text(before)
    assert install(machine, "--fast-i2c").returncode == 0
    assert cfg.read_text() == after + "dtparam=i2c_arm_baudrate=400000\n"


@pytest.mark.parametrize(("debian_pillow", "fits"), [("11.1.0-5", True),
                                                     ("9.4.0-1.1+deb12u1", False)])
def test_32_bit_arm_takes_debians_pillow_if_it_meets_the_floor(
        machine: dict[str, Path], debian_pillow: str, fits: bool) -> None:
    """PyPI has no Pillow wheel for armhf (tests/test_wheels.py): there it is Debian's,
    and bookworm's 9.4 is below setup.cfg's floor: one line, not a pip build that fails
    minutes later for want of -dev packages."""
    (machine["fake"] / "arch").write_text("armhf\n")
    (machine["fake"] / "version-python3-pil").write_text(debian_pillow + "\n")
    run = install(machine)
    apt = next(c for c in calls(machine) if c.startswith("apt-get") and " install " in c)
    assert "python3-pil" in apt.split()
    if fits:
        assert run.returncode == 0, run.stderr
    else:
        assert run.returncode == 1 and len(run.stderr.splitlines()) == 1, run.stderr
        assert "9.4.0" in run.stderr and "10.4" in run.stderr and "64-bit" in run.stderr
        assert not (machine["root"] / "opt/robinson-table/venv").exists()


def test_64_bit_arm_takes_pillow_from_pypi(machine: dict[str, Path]) -> None:
    assert install(machine).returncode == 0
    apt = next(c for c in calls(machine) if c.startswith("apt-get") and " install " in c)
    assert "python3-pil" not in apt.split()


def test_the_amplifier_a_phone_switched_is_installed_and_switched_off_again(
        machine: dict[str, Path]) -> None:
    """The amplifier a paired phone switched on (hardware.toml in the state folder, laid
    over the config as the table lays it) gets its overlay; switched off, the overlay
    goes, or its driver would keep GPIO 18, 19 and 21 from the seats the config puts
    there. A phone's file the config cannot take changes nothing."""
    config = machine["root"] / "etc/robinson-table/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[pins]\nseats = [5, 6, 13, 16]\n")
    cfg = machine["root"] / "boot/firmware/config.txt"
    cfg.write_text("[all]\n")
    phone = machine["root"] / "var/lib/robinson-table/hardware.toml"
    phone.parent.mkdir(parents=True)
    phone.write_text("voice.i2s_amplifier = true\npins.seats = [2, 5]\n")  # refused: SDA
    run = install(machine)
    assert run.returncode == 0, run.stderr
    assert "max98357a" not in cfg.read_text()
    phone.write_text("voice.i2s_amplifier = true\n")
    run = install(machine)
    assert run.returncode == 0, run.stderr
    assert cfg.read_text() == "[all]\ndtoverlay=max98357a,no-sdmode\n"
    phone.write_text("voice.i2s_amplifier = false\n")
    run = install(machine)
    assert run.returncode == 0, run.stderr
    assert cfg.read_text() == "[all]\n" and "pins are free again" in run.stdout


def test_a_speaking_table_gets_its_voice_its_overlay_and_the_audio_group(
        machine: dict[str, Path]) -> None:
    """[voice] on with an I2S amplifier: espeak-ng and alsa-utils from apt, the
    amplifier's overlay once in config.txt's [all] section, the service user in audio."""
    config = machine["root"] / "etc/robinson-table/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[pins]\nseats = [5, 6, 13, 16]\n"
                      "[voice]\nenabled = true\ni2s_amplifier = true\n")
    cfg = machine["root"] / "boot/firmware/config.txt"
    cfg.write_text("[pi4]\narm_boost=1\n")
    run = install(machine)
    assert run.returncode == 0, run.stderr
    apt = [c for c in calls(machine) if c.startswith("apt-get") and " install " in c]
    assert apt and all(p in apt[0].split() for p in ("espeak-ng", "alsa-utils"))
    # no-sdmode: without it the overlay holds GPIO 4 (the seat 4 LED's) for its SD pin
    assert cfg.read_text() == "[pi4]\narm_boost=1\n[all]\ndtoverlay=max98357a,no-sdmode\n"
    assert "robinson" in next(line for line in (machine["root"] / "etc/group")
                              .read_text().splitlines() if line.startswith("audio:"))
    assert install(machine).returncode == 0  # again: nothing added twice
    assert cfg.read_text().count("dtoverlay=max98357a") == 1
    # an earlier install.sh's bare line is mended, and said
    cfg.write_text("[all]\ndtoverlay=max98357a\ndtparam=audio=on\n")
    run = install(machine)
    assert run.returncode == 0, run.stderr
    assert cfg.read_text() == "[all]\ndtoverlay=max98357a,no-sdmode\ndtparam=audio=on\n"
    assert "GPIO 4 is free again" in run.stdout


def test_alsas_core_loads_at_boot_so_a_later_card_is_allowed(machine: dict[str, Path]) -> None:
    """The unit's DeviceAllow=char-alsa is resolved from /proc/devices as the unit
    starts: with snd loaded by then, a card probed or plugged in later is allowed."""
    assert install(machine).returncode == 0
    modules = machine["root"] / "etc/modules-load.d/robinson-table.conf"
    assert [line for line in modules.read_text().splitlines()
            if not line.startswith("#")] == ["snd"]
    assert "DeviceAllow=char-alsa rw" in (
        machine["root"] / "etc/systemd/system/robinson-table.service").read_text()
    assert install(machine, "--uninstall").returncode == 0
    assert not modules.exists()


@pytest.mark.parametrize(("version", "steps"), [("252 (252.39-1~deb12u1)", False),
                                                ("257 (257.9-1~deb13u1)", True)])
def test_the_pause_between_failed_starts_grows_where_systemd_can(
        machine: dict[str, Path], version: str, steps: bool) -> None:
    systemctl = machine["bin"] / "systemctl"
    systemctl.write_text(systemctl.read_text().replace(
        "case \"$1\" in ", f"case \"$1\" in --version) echo 'systemd {version}';; ", 1))
    assert install(machine).returncode == 0
    drop_in = machine["root"] / "etc/systemd/system/robinson-table.service.d/restart-steps.conf"
    assert drop_in.exists() == steps
    if steps:
        assert "RestartSteps=" in drop_in.read_text()
        assert "RestartMaxDelaySec=60" in drop_in.read_text()


def test_a_quiet_table_installs_no_voice(machine: dict[str, Path]) -> None:
    assert install(machine).returncode == 0
    assert not any("espeak-ng" in c for c in calls(machine))
    assert "dtoverlay=max98357a" not in (machine["root"] / "boot/firmware/config.txt").read_text()


def test_the_pi_keeps_itself_well(machine: dict[str, Path]) -> None:
    """The SoC's watchdog on (a frozen Pi reboots by itself), Wi-Fi power saving off
    where NetworkManager runs, and the Wi-Fi check once a minute; uninstall takes
    them away again."""
    root = machine["root"]
    (root / "etc/NetworkManager/conf.d").mkdir(parents=True)
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    done = calls(machine)
    watchdog = (root / "etc/systemd/system.conf.d/robinson-table-watchdog.conf").read_text()
    assert "[Manager]\nRuntimeWatchdogSec=15\n" in watchdog  # the bcm2835's most is 15.99 s
    assert "systemctl daemon-reexec" in done  # systemd reads system.conf.d then, or at boot
    assert "wifi.powersave = 2" in (
        root / "etc/NetworkManager/conf.d/robinson-table-wifi.conf").read_text()
    check = root / "usr/local/lib/robinson-table/wifi-check"
    assert check.read_bytes() == (ROOT / "systemd/wifi-check").read_bytes()
    assert check.stat().st_mode & 0o777 == 0o755
    assert "systemctl enable robinson-wifi-check.timer" in done
    assert "ExecStart=/usr/local/lib/robinson-table/wifi-check" in (
        root / "etc/systemd/system/robinson-wifi-check.service").read_text()
    assert install(machine, "--no-fast-i2c").returncode == 0
    assert "systemctl daemon-reexec" not in calls(machine)  # unchanged: no re-exec
    assert install(machine, "--uninstall").returncode == 0
    for gone in ("etc/systemd/system.conf.d/robinson-table-watchdog.conf",
                 "etc/NetworkManager/conf.d/robinson-table-wifi.conf",
                 "usr/local/lib/robinson-table", "etc/systemd/system/robinson-wifi-check.timer"):
        assert not (root / gone).exists(), gone


def test_no_networkmanager_no_powersave_file(machine: dict[str, Path]) -> None:
    assert install(machine, "--no-fast-i2c").returncode == 0
    assert not (machine["root"] / "etc/NetworkManager").exists()


def fake_proc(machine: dict[str, Path], holders: dict[int, str]) -> None:
    """A /proc whose TCP table has a listener on port 80 (inode 4242), held by the
    processes ``holders`` names (PID: command)."""
    proc = machine["fake"] / "proc"
    (proc / "net").mkdir(parents=True)
    header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt" \
             "   uid  timeout inode\n"
    (proc / "net/tcp").write_text(
        header + "   0: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 "
        "00000000     0        0 4242 1 0000000000000000 100 0 0 10 0\n"
        "   1: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 "
        "00000000     0        0 77 1 0000000000000000 100 0 0 10 0\n")
    (proc / "net/tcp6").write_text(header)
    for pid, name in holders.items():
        (proc / str(pid) / "fd").mkdir(parents=True)
        (proc / str(pid) / "comm").write_text(name + "\n")
        (proc / str(pid) / "fd" / "7").symlink_to("socket:[4242]")


def test_port_80_taken_by_another_program_moves_the_page_to_8080(
        machine: dict[str, Path]) -> None:
    fake_proc(machine, {1: "systemd", 812: "lighttpd"})
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    assert "port 80 is taken by lighttpd (process 812): the page listens on port 8080" \
        in run.stdout
    port = machine["root"] / "etc/systemd/system/robinson-web.socket.d/port.conf"
    assert "ListenStream=\nListenStream=8080\n" in port.read_text()
    assert ":8080/" in run.stdout  # the address it gives says so too


def test_port_80_held_by_our_own_socket_stays_80(machine: dict[str, Path]) -> None:
    fake_proc(machine, {1: "systemd"})  # systemd holds robinson-web.socket's port
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    assert "taken" not in run.stdout
    assert not (machine["root"] / "etc/systemd/system/robinson-web.socket.d").exists()


WIFI_TOOLS = {
    # The default route's device and router come from $FAKE/route ("" for none).
    "ip": 'case "$1 $2" in "route show") [ -n "$4" ] && [ "$4" = dev ] && '
          '{ grep "dev $5" "$FAKE/route" || true; } || cat "$FAKE/route";; '
          '"link set") echo "ip $*" >> "$FAKE/calls";; esac',
    "ping": 'echo "ping $*" >> "$FAKE/calls"; [ -e "$FAKE/router-answers" ]',
    "nmcli": 'echo "nmcli $*" >> "$FAKE/calls"',
}


def test_the_wifi_check_joins_again_after_three_misses_in_a_row(tmp_path: Path) -> None:
    fake, bin_ = tmp_path / "fake", tmp_path / "bin"
    for d in (fake, bin_, fake / "sys/class/net/wlan0"):
        d.mkdir(parents=True)
    for name, body in WIFI_TOOLS.items():
        (bin_ / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_ / name).chmod(0o755)
    route = fake / "route"
    env = {"PATH": f"{bin_}:/usr/bin:/bin", "FAKE": str(fake),
           "ROBINSON_SYSFS": str(fake / "sys"), "ROBINSON_WIFI_COUNT": str(fake / "count")}

    def check() -> tuple[str, list[str]]:
        run = subprocess.run(["sh", str(ROOT / "systemd/wifi-check")], env=env, text=True,
                             capture_output=True, check=True)
        log = fake / "calls"
        said = log.read_text().splitlines() if log.exists() else []
        log.unlink(missing_ok=True)
        return run.stdout, [c for c in said if not c.startswith("ping")]

    route.write_text("default via 192.168.1.1 dev wlan0 proto dhcp metric 600\n")
    (fake / "router-answers").touch()
    assert check() == ("", [])
    (fake / "router-answers").unlink()  # the router goes away
    assert check() == ("", []) and check() == ("", [])
    said, did = check()  # the third miss in a row
    assert "wlan0 has not reached its router (192.168.1.1) in 3 checks" in said
    assert did == ["nmcli device disconnect wlan0", "nmcli device connect wlan0"]
    assert check() == ("", [])  # counting from nought again
    (fake / "router-answers").touch()
    assert check() == ("", [])  # an answer clears the count: three more misses to join
    (fake / "router-answers").unlink()
    assert [check()[1] for _ in range(3)] == [[], [], ["nmcli device disconnect wlan0",
                                                       "nmcli device connect wlan0"]]
    route.write_text("default via 10.0.0.1 dev eth0 proto dhcp metric 100\n")
    assert [check()[1] for _ in range(4)] == [[], [], [], []]  # a cable: none of its business


def bundle(at: Path) -> Path:
    """A release bundle as tools/bundle.py lays it out, its wheel zipped here from the
    checkout (tests/test_wheels.py builds and resolves a real one from the registry)."""
    folder = at / "robinson-table"
    (folder / "wheels").mkdir(parents=True)
    shutil.copy2(ROOT / "install.sh", folder)
    shutil.copytree(ROOT / "systemd", folder / "systemd")
    for name in ("first-boot.sh", "FIRST-BOOT.txt", "user-data.txt"):
        shutil.copy2(ROOT / "firstboot" / name, folder)
    (folder / "VERSION").write_text("0.1.0\n")
    wheel = folder / "wheels/robinson_table-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for package in ("firmware", "robinson_core"):
            for path in sorted((ROOT / package).rglob("*.py")):
                archive.write(path, path.relative_to(ROOT).as_posix())
        archive.writestr("robinson_table-0.1.0.dist-info/METADATA",
                         "Name: robinson-table\nRequires-Dist: pillow<14,>=10.4\n")
    for other in ("gpiozero-2.0.1.post3-py3-none-any.whl", "luma_oled-3.16.0-py3-none-any.whl"):
        (folder / "wheels" / other).write_bytes(b"a wheel")
    return folder


def test_from_a_bundle_it_installs_its_wheel_offline_and_finishes_the_first_boot(
        tmp_path: Path, machine: dict[str, Path]) -> None:
    """The folder an owner copies to the boot partition: no source, a wheel; pip takes
    the project's wheel and its extras from wheels/ alone, builds nothing, and the first
    boot marks the bundle installed and restarts the Pi once for the bus it turned on."""
    folder = bundle(tmp_path / "bootfs")
    run = install(machine, "--first-boot", script=folder / "install.sh")
    assert run.returncode == 0, run.stderr
    root, done = machine["root"], calls(machine)
    pip = [c for c in done if c.startswith("venv-python -m pip install")]
    assert len(pip) == 1, pip  # no setuptools, no build: the wheel as it is
    wheels = folder / "wheels"
    assert f"--no-index --find-links {wheels} {wheels}/robinson_table-0.1.0-py3-none-any.whl[web]" \
        in pip[0]
    assert "raspi-config nonint do_i2c 0" in done  # --first-boot: unattended, 400 kHz too
    assert "dtparam=i2c_arm_baudrate=400000" in (root / "boot/firmware/config.txt").read_text()
    assert (root / "opt/robinson-table/bundle").read_text() == "0.1.0\n"
    assert any(c.startswith("shutdown -r +1") for c in done)
    assert (root / "etc/robinson-table/config.toml").read_bytes() == (
        folder / "systemd/config.toml").read_bytes()
    assert (root / "etc/systemd/system/robinson-table.service").is_file()
    run = install(machine, "--first-boot", script=folder / "install.sh")
    assert run.returncode == 0 and "(0 changes)" in run.stdout, run.stdout
    assert not any(c.startswith(("shutdown", "venv-python -m pip")) for c in calls(machine))
    (wheels / "robinson_table-0.1.0-py3-none-any.whl").unlink()
    run = install(machine, script=folder / "install.sh")
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert "holds no robinson_table wheel: copy the whole bundle again" in run.stderr


def test_a_bundle_installs_the_kernel_compiled_for_this_pis_python_and_none_other(
        tmp_path: Path, machine: dict[str, Path]) -> None:
    """The bundle's compiled kernels (tools/pi_kernel.py), one a Python and architecture:
    the one that fits the Pi's Python (its version and Debian's multiarch triple) goes
    into the same pip install as the product; where none fits, none, and install.sh says
    the kernel stays pure Python (robinson_core.compiled runs the pure one)."""
    folder = bundle(tmp_path / "bootfs")
    wheels = folder / "wheels"
    tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"  # install.sh asks python3: this
    arch = {"x86_64-linux-gnu": "x86_64", "aarch64-linux-gnu": "aarch64"}[
        str(sysconfig.get_config_var("MULTIARCH"))]
    other = "cp39" if tag != "cp39" else "cp38"
    for name in (f"{tag}-{tag}-manylinux_2_17_armv7l", f"{other}-{other}-manylinux_2_17_{arch}"):
        (wheels / f"robinson_table_kernel-0.1.0-{name}.whl").write_bytes(b"a wheel")
    run = install(machine, script=folder / "install.sh")
    assert run.returncode == 0, run.stderr
    (pip,) = [c for c in calls(machine) if c.startswith("venv-python -m pip install")]
    assert "robinson_table_kernel" not in pip, pip
    assert (f"the simulator's kernel pure Python (the bundle has none compiled for {tag} "
            f"{arch})") in run.stdout, run.stdout
    fits = wheels / f"robinson_table_kernel-0.1.0-{tag}-{tag}-manylinux_2_17_{arch}.whl"
    fits.write_bytes(b"a wheel")
    (machine["root"] / "opt/robinson-table/installed").unlink()
    run = install(machine, script=folder / "install.sh")
    assert run.returncode == 0, run.stderr
    (pip,) = [c for c in calls(machine) if c.startswith("venv-python -m pip install")]
    assert pip.endswith(f"robinson_table-0.1.0-py3-none-any.whl[web] {fits}"), pip
    assert f"the simulator's kernel compiled for {tag} {arch}" in run.stdout, run.stdout


def test_a_bundle_on_32_bit_arm_reads_the_pillow_floor_from_its_wheel(
        tmp_path: Path, machine: dict[str, Path]) -> None:
    folder = bundle(tmp_path / "bootfs")
    (machine["fake"] / "arch").write_text("armhf")
    (machine["fake"] / "debs").write_text("python3-pil\n")
    (machine["fake"] / "version-python3-pil").write_text("9.4.0-1+deb12u1")
    run = install(machine, script=folder / "install.sh")
    assert run.returncode == 1 and "older than the 10.4 the table needs" in run.stderr


def test_a_bundle_reads_what_to_install_from_its_own_wheel(tmp_path: Path,
                                                           machine: dict[str, Path]) -> None:
    """The config's panel decides the extras through the panel table inside the wheel
    (the system's python imports it from the zip): a TFT takes the lcd extra."""
    folder = bundle(tmp_path / "bootfs")
    settings = folder / "systemd/config.toml"
    settings.write_text(settings.read_text().replace('display = "ssd1306"', 'display = "st7789"')
                        .replace('interface = "i2c"', 'interface = "spi"'))
    assert install(machine, script=folder / "install.sh").returncode == 0
    pip = [c for c in calls(machine) if c.startswith("venv-python -m pip install")]
    assert len(pip) == 1 and pip[0].endswith("robinson_table-0.1.0-py3-none-any.whl[lcd,web]")


def test_first_boot_sh_puts_the_install_unit_in_place_and_starts_it_without_waiting(
        tmp_path: Path, machine: dict[str, Path]) -> None:
    """cloud-init's bootcmd runs it early at every boot: the unit copied (once), enabled,
    and started with --no-block (it waits for the network; bootcmd must not)."""
    folder = bundle(tmp_path / "bootfs")
    (machine["root"] / "etc/systemd/system").mkdir(parents=True)
    env = {"PATH": f"{machine['bin']}:/usr/bin:/bin", "FAKE": str(machine["fake"]),
           "ROBINSON_ROOT": str(machine["root"])}
    for _ in range(2):
        run = subprocess.run(["sh", str(folder / "first-boot.sh")], env=env, text=True,
                             capture_output=True, check=False)
        assert run.returncode == 0, run.stderr
    unit = machine["root"] / "etc/systemd/system/robinson-first-boot.service"
    assert unit.read_bytes() == (ROOT / "systemd/robinson-first-boot.service").read_bytes()
    assert calls(machine) == [
        "systemctl daemon-reload", "systemctl enable robinson-first-boot.service",
        "systemctl start --no-block robinson-first-boot.service",
        "systemctl enable robinson-first-boot.service",  # the second boot: no reload
        "systemctl start --no-block robinson-first-boot.service"]


def test_the_boot_partitions_settings_are_taken_before_anything_reads_the_config(
        machine: dict[str, Path]) -> None:
    """The owner's robinson-table.toml: good, it is the config (here a panel on SPI, so
    the install waits for SPI); wrong, the shipped config stays and the line is said.
    robinson-settings.service takes it again at every boot."""
    root = machine["root"]
    settings = root / "boot/firmware/robinson-table.toml"
    shipped = (ROOT / "systemd/config.toml").read_text()
    settings.write_text(shipped.replace('display = "ssd1306"', 'display = "sh1106"')
                        .replace('interface = "i2c"', 'interface = "spi"'))
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    assert "robinson: robinson-table.toml taken: the table runs with it" in run.stdout
    assert (root / "etc/robinson-table/config.toml").read_text() == settings.read_text()
    done = calls(machine)
    assert "raspi-config nonint do_spi 0" in done
    assert "systemctl enable robinson-settings.service" in done
    assert (root / "etc/systemd/system/robinson-settings.service").read_bytes() == (
        ROOT / "systemd/robinson-settings.service").read_bytes()
    assert (root / "boot/firmware/robinson-table-settings.txt").is_file()
    settings.write_text(shipped.replace("i2c_address = 0x3c", "i2c_address = 0x99"))
    run = install(machine, "--no-fast-i2c")  # the unit's now: it takes the file at boot
    assert run.returncode == 0 and "robinson-table.toml" not in run.stdout, run.stdout
    assert 'display = "sh1106"' in (root / "etc/robinson-table/config.toml").read_text()


def test_a_broken_settings_file_at_the_first_install_leaves_the_shipped_config(
        machine: dict[str, Path]) -> None:
    root = machine["root"]
    shipped = (ROOT / "systemd/config.toml").read_text()
    (root / "boot/firmware/robinson-table.toml").write_text(
        shipped.replace("i2c_address = 0x3c", "i2c_address = 0x99"))
    (root / "run").mkdir()
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    assert "robinson-table.toml NOT taken, line 22 is wrong: display.i2c_address" in run.stdout
    assert (root / "etc/robinson-table/config.toml").read_text() == shipped
    assert (root / "run/robinson-table-settings-refused").read_text().startswith("22\t")


def test_a_first_install_makes_the_owner_code_once(machine: dict[str, Path]) -> None:
    """Ten digits, the service user's alone, on the boot partition for the owner and said
    at the end; the same at a second run; none where the table has saves already."""
    root = machine["root"]
    run = install(machine, "--no-fast-i2c")
    assert run.returncode == 0, run.stderr
    code = root / "var/lib/robinson-table/owner-code"
    digits = code.read_text().strip()
    assert len(digits) == 10 and digits.isdigit() and code.stat().st_mode & 0o777 == 0o600
    shown = f"{digits[:4]} {digits[4:8]} {digits[8:]}"
    assert f"the owner code for the first phone: {shown}" in run.stdout
    on_card = (root / "boot/firmware/robinson-table-owner-code.txt").read_bytes().decode()
    assert on_card.startswith(f"Robinson Table's owner code: {shown}\r\n")
    again = install(machine, "--no-fast-i2c")
    assert code.read_text().strip() == digits and shown in again.stdout
    code.unlink()  # the first phone paired: the table deleted it
    (root / "var/lib/robinson-table/robinson.db").write_bytes(b"")
    run = install(machine, "--no-fast-i2c")
    assert not code.exists() and "owner code" not in run.stdout
