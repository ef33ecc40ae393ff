"""The board's revision, read without gpiozero, as gpiozero reads it: each case read by
both from the same files (gpiozero's reader pointed at them)."""

from __future__ import annotations

import io
import struct
from pathlib import Path
from typing import Any

import pytest
from gpiozero.exc import PinUnknownPi
from gpiozero.pins import local

from firmware.revision import CPUINFO, DEVICE_TREE, pi_revision

CASES: dict[str, tuple[bytes | None, str | None]] = {
    "a Pi 5's device tree": (bytes.fromhex("00d04170"), None),
    "a Pi 4, over-volted": (bytes.fromhex("1000a031"), None),
    "a device tree short of 4 bytes": (b"\x00\xa0", None),
    "cpuinfo alone (a Pi 3)": (None, "processor\t: 0\nHardware\t: BCM2835\nRevision\t: a02082\n"),
    "cpuinfo's last Revision line": (None, "Revision\t: 9000c1\nRevision\t: A22082\n"),
    "cpuinfo over-volted": (None, "Revision\t: 1000a0d3\n"),
    "cpuinfo with no Revision (a PC)": (None, "processor\t: 0\nmodel name\t: x86\n"),
    "cpuinfo's Revision not a number": (None, "Revision\t: unknown\n"),
    "neither file": (None, None),
}


def gpiozeros(tree: Path, cpuinfo: Path, monkeypatch: pytest.MonkeyPatch) -> int | None:
    """gpiozero's reading of these files, as the table read it through gpiozero before."""
    real, plain = {str(DEVICE_TREE): tree, str(CPUINFO): cpuinfo}, io.open

    def opened(path: str, *args: Any, **kwargs: Any) -> Any:
        return plain(real.get(path, path), *args, **kwargs)

    monkeypatch.setattr(local.io, "open", opened)
    try:
        revision: int = local.get_pi_revision()
    except (PinUnknownPi, OSError, ValueError, struct.error):  # struct's: a device tree
        return None  # short of 4 bytes, which went up through gpiozero as a traceback
    finally:
        monkeypatch.undo()
    return revision


def test_the_revision_is_read_as_gpiozero_reads_it(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, int | None] = {}
    for case, (tree_bytes, cpuinfo_text) in CASES.items():
        folder = tmp_path / str(len(seen))
        folder.mkdir()
        tree, cpuinfo = folder / "linux,revision", folder / "cpuinfo"
        if tree_bytes is not None:
            tree.write_bytes(tree_bytes)
        if cpuinfo_text is not None:
            cpuinfo.write_text(cpuinfo_text)
        ours = pi_revision(tree, cpuinfo)
        assert ours == gpiozeros(tree, cpuinfo, monkeypatch), case
        seen[case] = ours
    assert seen["a Pi 5's device tree"] == 0xD04170
    assert seen["cpuinfo alone (a Pi 3)"] == 0xA02082
    assert seen["cpuinfo over-volted"] == 0xA0D3
    assert [case for case, found in seen.items() if found is None] == [
        "a device tree short of 4 bytes", "cpuinfo with no Revision (a PC)",
        "cpuinfo's Revision not a number", "neither file"]
    assert len(seen) == len(CASES) == 9
