"""The simulator's kernel compiled for a Pi: a wheel of its own, ``robinson_table_kernel``,
that the release bundle carries beside the product's, one for each architecture and
Python the bundle is made for (aarch64 with bookworm's 3.11 and trixie's 3.13).
install.sh installs the one that fits the Pi; where none does (32-bit Arm, another
Python) the pure-Python kernel runs, as it always can (``robinson_core.compiled``).

``.venv/bin/python tools/pi_kernel.py [--out DIR] [--arch A] [--python X.Y]`` builds one
by hand. Made with no Pi, no root and no cross toolchain from apt:

- mypyc writes the kernel's C (``tools/compile_kernel.py``'s module, its source digest
  in it) for the C API of the Python it is to run under;
- Zig's clang (the ``ziglang`` wheel, in the dev extra) compiles it for the Pi's
  architecture against glibc 2.17's symbols (so ``manylinux_2_17``);
- against the Pi's own Python headers: Raspberry Pi OS takes its Python from Debian, so
  they are Debian's ``libpython3.X-dev`` for that architecture and suite, fetched from
  the Debian mirror this machine's apt uses and checked against the archive's SHA-256.

Why our own few lines and not cibuildwheel or crossenv: both want a container runtime or
the target's Python to run, and the kernel is one C file with no dependency but Python.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import hashlib
import importlib.util
import io
import lzma
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware import __version__  # noqa: E402
from robinson_core.compiled import NAME, source_digest  # noqa: E402
from tools.compile_kernel import module_source  # noqa: E402

PROJECT = "robinson_table_kernel"
SUITES = {"3.11": "bookworm", "3.13": "trixie"}  # the Python each Raspberry Pi OS has
DEBIAN = {"aarch64": "arm64", "armv7l": "armhf", "x86_64": "amd64"}  # Debian's names
TRIPLES = {"aarch64": "aarch64-linux-gnu", "armv7l": "arm-linux-gnueabihf",
           "x86_64": "x86_64-linux-gnu"}  # the multiarch triple: extension suffix, headers
GLIBC = "2.17"  # the oldest glibc the kernel's symbols need: manylinux_2_17
CACHE = Path.home() / ".cache" / "robinson-table" / "pi-python"
DEFAULT_MIRROR = "http://deb.debian.org/debian"


class KernelBuildError(Exception):
    """Why a Pi's kernel could not be built, in one line."""


def wheel_name(arch: str, python: str) -> str:
    tag = "cp" + python.replace(".", "")
    return f"{PROJECT}-{__version__}-{tag}-{tag}-manylinux_{GLIBC.replace('.', '_')}_{arch}.whl"


def extension_name(arch: str, python: str) -> str:
    """The file name the Pi's Python imports ``NAME`` from (its EXT_SUFFIX)."""
    return f"{NAME}.cpython-{python.replace('.', '')}-{TRIPLES[arch]}.so"


def mirror() -> str:
    """The Debian archive this machine's apt uses (deb.debian.org where it names none)."""
    sources = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for path in sources:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if found := re.search(r"https?://\S+/debian/?(?=\s|$)", text):
            return found.group(0).rstrip("/")
    return DEFAULT_MIRROR


def _fetch(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=120) as answer:
            return answer.read()  # type: ignore[no-any-return]
    except OSError as error:
        raise KernelBuildError(f"cannot fetch {url}: {error}") from None


@functools.cache
def _index(base: str, suite: str, arch: str) -> bytes:
    """The archive's list of ``suite``'s packages for ``arch`` (some 10 MB packed): fetched
    once a run, however many of its packages are unpacked."""
    return lzma.decompress(_fetch(f"{base}/dists/{suite}/main/binary-{arch}/Packages.xz"))


def debian_package(package: str, suite: str, arch: str, cache: Path = CACHE) -> Path:
    """``package`` of Debian ``suite`` for ``arch`` (Debian's name), unpacked: its folder
    (kept in ``cache``: the headers of a released Python do not change)."""
    folder = cache / f"{suite}-{arch}" / package
    if (folder / ".done").is_file():
        return folder
    base = mirror()
    index = _index(base, suite, arch)
    stanza = re.search(rb"(?ms)^Package: " + re.escape(package.encode()) + rb"\n.*?(?=^\n|\Z)",
                       index)
    if stanza is None:
        raise KernelBuildError(f"Debian {suite} has no {package} for {arch}")
    fields = dict(re.findall(r"(?m)^(Filename|SHA256): (\S+)$", stanza.group(0).decode()))
    deb = _fetch(f"{base}/{fields['Filename']}")
    if hashlib.sha256(deb).hexdigest() != fields["SHA256"]:
        raise KernelBuildError(f"{fields['Filename']} does not match the archive's SHA-256")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with tempfile.NamedTemporaryFile(suffix=".deb") as file:
        file.write(deb)
        file.flush()
        subprocess.run(["dpkg-deb", "-x", file.name, str(folder)], check=True)
    (folder / ".done").write_text(fields["Filename"] + "\n")
    return folder


def c_source(python: str, folder: Path) -> Path:
    """The kernel's C, as mypyc writes it for CPython ``python``'s C API, in ``folder``."""
    from mypyc.build import mypyc_build
    from mypyc.options import CompilerOptions

    module = folder / f"{NAME}.py"
    module.write_text(module_source(source_digest()), encoding="utf-8")
    major, minor = (int(part) for part in python.split("."))
    options = CompilerOptions(target_dir=str(folder / "build"), capi_version=(major, minor),
                              include_runtime_files=True)
    said = io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stdout(said):
        _, sources, _ = mypyc_build([module.name], compiler_options=options, separate=False)
    ((files, _),) = sources
    (c_file,) = files
    return folder / c_file


def compile_for(c_file: Path, arch: str, python: str, into: Path) -> Path:
    """``c_file`` compiled for a Pi's ``arch`` and ``python``: the extension's path."""
    from mypyc.build import get_cflags, include_dir

    headers = debian_package(f"libpython{python}-dev", SUITES[python], DEBIAN[arch])
    include = headers / "usr" / "include"
    flags = [flag for flag in get_cflags(compiler_type="unix", opt_level="3", debug_level="0")
             if flag != "-Werror"]  # (another compiler than mypyc's own: its warnings)
    target = into / extension_name(arch, python)
    done = subprocess.run(
        [sys.executable, "-m", "ziglang", "cc", "-target", f"{TRIPLES[arch]}.{GLIBC}",
         "-shared", "-fPIC", "-DNDEBUG", "-fwrapv", "-fno-strict-aliasing", "-s", *flags,
         f"-I{include_dir()}", f"-I{include}", f"-I{include / f'python{python}'}",
         str(c_file), "-o", str(target)],
        capture_output=True, text=True, check=False)
    if done.returncode != 0 or not target.is_file():
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["?"]
        raise KernelBuildError(f"zig cc failed for {arch} {python}: {last[0]}")
    return target


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def make_wheel(extension: Path, arch: str, python: str, into: Path) -> Path:
    """The wheel of one extension (PEP 427): it, its METADATA, WHEEL and RECORD."""
    tag = wheel_name(arch, python).removesuffix(".whl").split("-", 2)[2]
    info = f"{PROJECT}-{__version__}.dist-info"
    files = {
        extension.name: extension.read_bytes(),
        f"{info}/METADATA": (f"Metadata-Version: 2.1\nName: {PROJECT.replace('_', '-')}\n"
                             f"Version: {__version__}\nSummary: The Robinson table's simulator "
                             f"kernel, compiled (mypyc) for {arch}, Python {python}\n").encode(),
        f"{info}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: robinson-table tools/pi_kernel.py\n"
                          f"Root-Is-Purelib: false\nTag: {tag}\n").encode(),
    }
    record = [_record_line(name, data) for name, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = into / wheel_name(arch, python)
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return wheel


def build(arch: str, python: str, into: Path) -> Path:
    """The kernel's wheel for a Pi's ``arch`` and ``python``, into ``into``."""
    if arch not in DEBIAN or python not in SUITES:
        raise KernelBuildError(f"no Pi's kernel for {arch} {python}: the arches are "
                               f"{', '.join(DEBIAN)}, the Pythons {', '.join(SUITES)}")
    for needed in ("mypyc", "ziglang"):
        if importlib.util.find_spec(needed) is None:
            raise KernelBuildError(f"{needed} is missing: run this with the venv's python "
                                   "(sh tools/bootstrap.sh test installs the dev extra)")
    with tempfile.TemporaryDirectory(prefix="robinson-pi-kernel-") as work:
        folder = Path(work)
        extension = compile_for(c_source(python, folder), arch, python, folder)
        return make_wheel(extension, arch, python, into)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--arch", default="aarch64", choices=sorted(DEBIAN))
    parser.add_argument("--python", default="3.13", choices=sorted(SUITES))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        wheel = build(args.arch, args.python, args.out)
    except KernelBuildError as why:
        print(f"pi_kernel: {why}", file=sys.stderr)
        return 1
    print(wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
