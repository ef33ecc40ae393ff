"""install.sh into a temporary root, with the system's tools replaced by recording stand-ins."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Each stand-in logs its call, and keeps just enough state to answer later questions.
STAND_INS = {
    "apt-get": 'case "$1" in install) shift; for p in "$@"; do case "$p" in -*) ;; '
               '*) echo "$p" >> "$FAKE/debs";; esac; done;; esac',
    "dpkg-query": 'for p; do :; done; grep -qx "$p" "$FAKE/debs" 2>/dev/null && '
                  'printf "install ok installed" || exit 1',
    "raspi-config": 'case "$2" in get_i2c) [ -e "$FAKE/i2c" ] && echo 0 || echo 1;; '
                    'do_i2c) touch "$FAKE/i2c";; esac',
    "useradd": 'r=""; [ "$1" = --root ] && r=$2; for n; do :; done; '
               'echo "$n:x:999:999::/var/lib/robinson-table:/usr/sbin/nologin" >> "$r/etc/passwd"',
    "usermod": 'r=$2; g=$4; n=$5; sed -i "s/^$g:\\(.*\\):\\([^:]*\\)$/$g:\\1:\\2,$n/; '
               's/^$g:\\(.*\\):,$n$/$g:\\1:$n/" "$r/etc/group"',
    "userdel": 'r=$2; n=$3; sed -i "/^$n:/d" "$r/etc/passwd"',
    "systemctl": 'case "$1" in is-enabled) [ -e "$FAKE/enabled" ];; enable) touch '
                 '"$FAKE/enabled";; disable) rm -f "$FAKE/enabled";; esac',
    "udevadm": ":",
    "python3": 'if [ "$1" = -m ] && [ "$2" = venv ]; then for d; do :; done; mkdir -p "$d/bin"; '
               'printf "#!/bin/sh\\necho \\"venv-python \\$*\\" >> \\"$FAKE/calls\\"\\n" '
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


def install(machine: dict[str, Path], *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": f"{machine['bin']}:/usr/bin:/bin", "FAKE": str(machine["fake"]),
           "REAL_PYTHON": sys.executable, "HOME": str(machine["fake"])}
    return subprocess.run(["sh", str(ROOT / "install.sh"), "--root", str(machine["root"]), *args],
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
    apt = next(c for c in done if c.startswith("apt-get install"))
    for package in ("fonts-misaki", "fonts-terminus-otb", "fonts-unifont", "python3-venv",
                    "python3-lgpio", "i2c-tools"):
        assert package in apt
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
    assert any(c.startswith("venv-python -m pip install") and c.endswith(f"{ROOT}[pi]")
               for c in done)
    assert "systemctl enable robinson-table.service" in done
    assert "systemctl restart robinson-table.service" in done
    assert "systemctl status robinson-table" in run.stdout
    assert "journalctl -u robinson-table" in run.stdout


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
    saves.mkdir(parents=True)
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


def test_without_root_it_says_to_use_sudo(tmp_path: Path) -> None:
    command = ["sh", str(ROOT / "install.sh")]
    if os.geteuid() == 0:  # CI runs as root: try it as nobody
        command = ["runuser", "-u", "nobody", "--", *command]
    run = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert run.returncode == 1 and "sudo ./install.sh" in run.stderr
