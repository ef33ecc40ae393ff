"""The simulator's kernel the bundle ships for a Pi (tools/pi_kernel.py), run by the Pi's
own Python: Debian's arm64 python3.11 (bookworm's) and python3.13 (trixie's), as
Raspberry Pi OS has them, under qemu-user. It loads, it is the one ``robinson_core``
chooses, it plays the pure kernel's games figure for figure, and it weighs the table's
odds at each decision as the pure one does (issue 63).

Where Debian's archive cannot be reached, or qemu-user cannot be installed, it is
skipped with one loud line (never a quiet pass).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from tools.bundle import PYTHONS
from tools.pi_kernel import (
    CACHE,
    DEBIAN,
    SUITES,
    KernelBuildError,
    build,
    debian_package,
    extension_name,
    wheel_name,
)

from .. import host_packages
from ..conftest import SAY

ROOT = Path(__file__).resolve().parents[2]
ARCH = "aarch64"
EVERY, GAMES = 12, 10  # 48 rule sets of the 576, 10 games each: 480 games a kernel


def skip(why: str) -> None:
    SAY.append(f"!!! A PI'S KERNEL NOT CHECKED: {why} !!!")
    pytest.skip(why)


def pi_python(python: str) -> tuple[Path, Path]:
    """Debian's ``python`` for the Pi's architecture, unpacked as a root folder with what
    it runs on (its C library, zlib and expat), kept beside the headers: the folder, and
    the interpreter's path in it."""
    suite, arch = SUITES[python], DEBIAN[ARCH]
    root = CACHE / f"{suite}-{arch}-python{python}"
    if not (root / ".done").is_file():
        shutil.rmtree(root, ignore_errors=True)
        for package in (f"python{python}-minimal", f"libpython{python}-minimal",
                        f"libpython{python}-stdlib", "libc6", "zlib1g", "libexpat1"):
            shutil.copytree(debian_package(package, suite, arch), root, symlinks=True,
                            dirs_exist_ok=True, ignore=shutil.ignore_patterns(".done"))
        if not (root / "lib").exists():  # trixie's merged /usr: the loader's /lib is usr/lib
            (root / "lib").symlink_to("usr/lib")
        (root / ".done").touch()
    return root, root / "usr" / "bin" / f"python{python}"


@pytest.mark.parametrize("python", PYTHONS)
def test_the_bundles_kernel_for_a_pi_plays_the_pure_kernels_games_on_the_pis_python(
        python: str, tmp_path: Path) -> None:
    if (why := host_packages.ensure("qemu-user-static")) is not None:
        skip(why)
    try:
        wheel = build(ARCH, python, tmp_path)
        root, interpreter = pi_python(python)
    except KernelBuildError as error:
        if "cannot fetch" in str(error):
            skip(str(error))
        raise
    assert wheel.name == wheel_name(ARCH, python)
    beside = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        assert sorted(archive.namelist()) == sorted([
            extension_name(ARCH, python),
            *(f"robinson_table_kernel-{wheel.name.split('-')[1]}.dist-info/{name}"
              for name in ("METADATA", "WHEEL", "RECORD"))])
        archive.extractall(beside)
    done = subprocess.run(
        ["qemu-aarch64-static", "-L", str(root), str(interpreter),
         "-m", "tests.core.pi_kernel_check", str(EVERY), str(GAMES)],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": f"{ROOT}:{beside}",
             # compiled modules kept beside it: none in the checkout, and Debian's stdlib
             # (shipped without them) compiled once under emulation, not at each run
             "PYTHONPYCACHEPREFIX": str(CACHE / f"pycache-{python}")})
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["python"].startswith(f"{python}.") and found["machine"] == ARCH, found
    assert found["file"] == str(beside / extension_name(ARCH, python)), found
    assert found["kernels"] == [["compiled", "pure"]], found  # every set: the compiled
    assert found["compared"] == 48 * GAMES and found["unequal"] == [], found
    assert found["odds_weighed"] == 4 and found["odds_unequal"] == [], found
