"""Make the release bundle an owner copies onto a Pi's SD card:
``.venv/bin/python tools/bundle.py [--out DIR] [--arch A ...] [--python X.Y ...]``.

Writes, in ``DIR`` (``dist`` by default):

- ``robinson-table/``: ``install.sh``, ``systemd/``, ``first-boot.sh``,
  ``FIRST-BOOT.txt``, ``user-data.txt`` (the lines for cloud-init's user-data),
  ``VERSION``, and ``wheels/``: the project's wheel and the wheels of every Python
  package it needs that Raspberry Pi OS does not give (Pillow's for each Python and
  architecture asked for), so a first boot needs apt and nothing from PyPI; and for
  each of those the simulator's kernel compiled (``tools/pi_kernel.py``), which
  install.sh takes where it fits the Pi;
- ``robinson-table.toml``: the settings to edit, read from the boot partition at every
  boot;
- ``robinson-table-VERSION.zip``: both, as they go onto the boot partition (unzipped
  there, the folder and the file land where ``first-boot.sh`` and the table look).

What the Pi takes from apt (lgpio, RPi.GPIO, spidev, smbus2, the fonts) install.sh
installs as from a clone. The wheels are downloaded from the package index for the
Pis' platforms (``--arch aarch64`` and Python 3.11 and 3.13, bookworm's and
trixie's, by default); the project's own is built from this checkout.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware import __version__  # noqa: E402
from tools.pi_kernel import KernelBuildError  # noqa: E402
from tools.pi_kernel import build as build_kernel  # noqa: E402

EXTRAS = "pi,web,lcd"  # every extra an owner's settings may want (install.sh picks)
ARCHES = ("aarch64",)  # 64-bit Raspberry Pi OS; 32-bit takes Debian's Pillow
PYTHONS = ("3.11", "3.13")  # bookworm's, trixie's
GLIBC = (17, 24, 27, 28, 31, 34, 35, 36)  # manylinux tags up to bookworm's glibc 2.36
FOLDER = "robinson-table"  # its name on the boot partition: first-boot.sh's home
SETTINGS = "robinson-table.toml"
SETTINGS_HEAD = """\
# Robinson Table's settings, on the SD card's boot partition: edit them on any
# computer. They are read at every power-on: a setting that is wrong is not taken,
# the last good settings stay, and the panel says which line (so does
# robinson-table-settings.txt beside this file).
"""


def build_wheel(into: Path) -> Path:
    """The project's wheel, built from a copy of the checkout (nothing written in it)."""
    with tempfile.TemporaryDirectory() as build:
        for name in ("setup.cfg", "pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, build)
        for package in ("robinson_core", "firmware"):
            shutil.copytree(ROOT / package, Path(build) / package,
                            ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                        "--disable-pip-version-check", "-w", str(into), build], check=True)
    (wheel,) = into.glob("robinson_table-*.whl")
    return wheel


def download(wheel: Path, into: Path, arch: str, python: str) -> None:
    """Every wheel the project's needs (with its extras) for one platform, into ``into``."""
    subprocess.run(download_command(into, arch, python, f"{wheel}[{EXTRAS}]"), check=True)


def download_command(into: Path, arch: str, python: str, *wanted: str) -> list[str]:
    """pip's command for binary wheels of ``wanted`` (and what they need) for a Pi's
    platform: ``arch`` (aarch64, armv7l ...) and CPython ``python``."""
    platforms = [f"--platform=manylinux_2_{v}_{arch}" for v in GLIBC]
    return [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
            "--only-binary=:all:", *platforms, f"--platform=linux_{arch}",
            f"--python-version={python}", "--implementation=cp", "--dest", str(into),
            *wanted]


def make(out: Path, arches: tuple[str, ...], pythons: tuple[str, ...]) -> Path:
    """The bundle in ``out``; the zip's path."""
    folder = out / FOLDER
    if folder.exists():
        shutil.rmtree(folder)
    wheels = folder / "wheels"
    wheels.mkdir(parents=True)
    wheel = build_wheel(wheels)
    for arch in arches:
        for python in pythons:
            download(wheel, wheels, arch, python)
            build_kernel(arch, python, wheels)
    shutil.copy2(ROOT / "install.sh", folder)
    shutil.copytree(ROOT / "systemd", folder / "systemd")
    for name in ("first-boot.sh", "FIRST-BOOT.txt", "user-data.txt"):
        shutil.copy2(ROOT / "firstboot" / name, folder)
    (folder / "VERSION").write_text(f"{__version__}\n")
    (out / SETTINGS).write_text(SETTINGS_HEAD + (ROOT / "systemd/config.toml").read_text())
    zipped = out / f"robinson-table-{__version__}.zip"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted([*folder.rglob("*"), out / SETTINGS]):
            if path.is_file():
                archive.write(path, path.relative_to(out).as_posix())
    return zipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--arch", action="append", help="aarch64 (default), x86_64 ...")
    parser.add_argument("--python", action="append", help="3.11 and 3.13 (default)")
    args = parser.parse_args(argv)
    try:
        zipped = make(args.out, tuple(args.arch or ARCHES), tuple(args.python or PYTHONS))
    except KernelBuildError as why:
        print(f"bundle: the simulator's kernel for a Pi: {why}", file=sys.stderr)
        return 1
    wheels = sorted(p.name for p in (args.out / FOLDER / "wheels").iterdir())
    print(f"{zipped} ({zipped.stat().st_size // 1024} KB, {len(wheels)} wheels): unzip it "
          f"onto the SD card's boot partition; {FOLDER}/FIRST-BOOT.txt says what next")
    return 0


if __name__ == "__main__":
    sys.exit(main())
