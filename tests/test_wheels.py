"""Every dependency installs on a Pi without a compiler: pip resolves the whole tree
(setup.cfg's requirements, the pi and TFT extras too) for 64-bit Arm with the Pythons of
Raspberry Pi OS Bookworm (3.11) and Trixie (3.13), binary wheels only. For 32-bit Arm it
says what has no wheel, which must be exactly what install.sh takes from Debian there.

It asks the package registry: where that cannot be reached it is skipped with one loud
line (never a quiet pass).
"""

from __future__ import annotations

import configparser
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tools.bundle import PYTHONS, download_command

from .conftest import SAY

ROOT = Path(__file__).resolve().parent.parent


def requirements() -> list[str]:
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    wanted = setup["options"]["install_requires"].split("\n")
    for extra in ("pi", "lcd"):  # what a table installs (dev is for this machine)
        wanted += setup["options.extras_require"][extra].split("\n")
    return [line.strip() for line in wanted if line.strip()]


def download(folder: Path, arch: str, python: str, *wanted: str,
             deps: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        download_command(folder, arch, python, *([] if deps else ["--no-deps"]), *wanted),
        capture_output=True, text=True, check=False, timeout=300)


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Skip the module, loudly, when the registry does not answer (a pure wheel of ours)."""
    probe = download(tmp_path_factory.mktemp("probe"), "aarch64", "3.11", "budoux",
                     deps=False)
    if probe.returncode != 0:
        why = (probe.stderr.strip().splitlines() or ["pip failed"])[-1]
        SAY.append(f"!!! WHEEL CHECK SKIPPED: the package registry cannot be reached ({why}) !!!")
        pytest.skip(f"wheel check skipped: {why}")


def names(folder: Path) -> dict[str, str]:
    """Each downloaded wheel's project (normalised) and file name."""
    found = {}
    for wheel in folder.glob("*.whl"):
        project = re.sub(r"[-_.]+", "-", wheel.name.split("-")[0]).lower()
        found[project] = wheel.name
    return found


@pytest.mark.parametrize("python", PYTHONS)
def test_every_dependency_is_a_wheel_for_64_bit_arm(registry: None, tmp_path: Path,
                                                    python: str) -> None:
    done = download(tmp_path, "aarch64", python, *requirements())
    assert done.returncode == 0, done.stderr[-2000:]
    wheels = names(tmp_path)
    # The direct ones and what they pull in: all there, all wheels (pip took no sdist).
    for needed in ("gpiozero", "colorzero", "pillow", "luma-core", "luma-oled", "luma-lcd",
                   "budoux", "smbus2", "cbor2"):
        assert needed in wheels, (needed, sorted(wheels))
    assert not list(tmp_path.glob("*.tar.gz")) and not list(tmp_path.glob("*.zip"))
    tag = f"cp{python.replace('.', '')}"
    compiled = {p: w for p, w in wheels.items() if "-none-any" not in w}
    assert "pillow" in compiled  # a compiled wheel, for this Python, for aarch64
    for wheel in compiled.values():
        assert re.search(rf"-({tag}-{tag}|cp3\d+-abi3|py3-none)-\S*aarch64", wheel), wheel
    SAY.append(f"wheels, aarch64 / Python {python}: {len(wheels)} projects, compiled: "
               + ", ".join(sorted(compiled.values())))


def test_32_bit_arm_lacks_a_wheel_only_for_what_install_sh_takes_from_debian(
        registry: None, tmp_path: Path) -> None:
    """armhf, Python 3.11: every project of the tree (as resolved for aarch64) but Pillow
    has a wheel; Pillow has none, and install.sh takes Debian's python3-pil there."""
    tree = tmp_path / "tree"
    assert download(tree, "aarch64", "3.11", *requirements()).returncode == 0
    projects = sorted(names(tree))
    assert len(projects) >= 9 and "pillow" in projects, projects
    others = [p for p in projects if p != "pillow"]
    armhf = tmp_path / "armhf"
    everything_else = download(armhf, "armv7l", "3.11", *others, deps=False)
    assert everything_else.returncode == 0, everything_else.stderr[-2000:]
    assert sorted(names(armhf)) == others
    pillow = download(armhf, "armv7l", "3.11", "pillow", deps=False)
    assert pillow.returncode != 0 and "pillow" not in names(armhf)
    install = (ROOT / "install.sh").read_text()
    assert re.search(r"armhf\|armel\) APT_PACKAGES=\"\$APT_PACKAGES python3-pil\"", install)
    SAY.append(f"wheels, armv7l / Python 3.11: {len(others)} projects have one, Pillow has "
               "none (install.sh takes Debian's python3-pil there: bookworm's 9.4 is "
               "refused, trixie's 11.1 taken)")


def test_the_bundle_holds_all_a_pi_installs_from_with_no_index(registry: None,
                                                             tmp_path: Path) -> None:
    """tools/bundle.py: one folder and its zip, the project's wheel and every wheel its
    requirements resolve to for each Pi Python (Pillow compiled for each), install.sh and
    its units, the first-boot files, the settings; pip then resolves the whole install
    from the folder alone (--no-index), as the first boot does."""
    out = tmp_path / "dist"
    made = subprocess.run([sys.executable, str(ROOT / "tools/bundle.py"), "--out", str(out)],
                          capture_output=True, text=True, check=False, timeout=600)
    assert made.returncode == 0, made.stderr[-2000:]
    folder = out / "robinson-table"
    from firmware import __version__
    assert (folder / "VERSION").read_text() == f"{__version__}\n"
    wheels = names(folder / "wheels")
    for needed in ("robinson-table", "gpiozero", "pillow", "luma-oled", "starlette",
                   "uvicorn", "budoux", "segno", "smbus2", "luma-lcd"):
        assert needed in wheels, (needed, sorted(wheels))
    pillows = sorted(w.name for w in (folder / "wheels").glob("pillow-*.whl"))
    assert [re.search(r"-(cp3\d+)-", w).group(1) for w in pillows] == ["cp311", "cp313"]  # type: ignore[union-attr]
    for name in ("install.sh", "first-boot.sh", "FIRST-BOOT.txt", "user-data.txt",
                 "systemd/robinson-table.service", "systemd/robinson-first-boot.service"):
        assert (folder / name).is_file(), name
    settings = (out / "robinson-table.toml").read_text()
    assert settings.endswith((ROOT / "systemd/config.toml").read_text())
    zipped = out / f"robinson-table-{__version__}.zip"
    with zipfile.ZipFile(zipped) as archive:
        inside = set(archive.namelist())
    assert "robinson-table.toml" in inside and "robinson-table/install.sh" in inside
    assert len([n for n in inside if n.startswith("robinson-table/wheels/")]) == len(
        list((folder / "wheels").iterdir()))
    wheel = next((folder / "wheels").glob("robinson_table-*.whl"))
    for python in PYTHONS:  # the whole install, resolved from the folder alone
        resolved = subprocess.run(
            [*download_command(tmp_path / f"again-{python}", "aarch64", python,
                               "--no-index", "--find-links", str(folder / "wheels"),
                               f"{wheel}[pi,web,lcd]")],
            capture_output=True, text=True, check=False, timeout=300)
        assert resolved.returncode == 0, resolved.stderr[-2000:]
    SAY.append(f"the bundle: {zipped.stat().st_size // 1024} KB, {len(wheels)} projects")
