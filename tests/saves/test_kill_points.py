"""Kill at every system call that writes: the store is the game before the step or after it.

Each flow of tests/kill_flow.py (roll, decision, undo, abandon, new game, bring back,
import) is run once under strace to list its write-side calls (openat for
writing, write, pwrite64, fsync, fdatasync, rename*, unlink*, ftruncate), then once per
call with ``strace -e inject=CALL:signal=SIGKILL:when=N``: the process dies on entry to
that call. After each kill the directory is opened as the table opens it at start, and
it must hold the game before the step or after it, never anything else; a game put
away is among the finished exactly once and never in play again; every game replays to
itself; and the start reports no problem (a kill is not damage).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from firmware.saves.store import Store
from robinson_core import Game

from .. import host_packages, kill_flow

WRITE_CALLS = ("openat", "write", "pwrite64", "fsync", "fdatasync", "rename", "renameat",
               "renameat2", "unlink", "unlinkat", "ftruncate")
ROOT = Path(__file__).resolve().parents[2]
CALL = re.compile(r"^\d+ +(\w+)\((.*)")


def outcomes(flow: str) -> list[tuple[Game | None, list[Game]]]:
    """Every (game in play, finished games) a kill may leave: before, between, after."""
    before, after, put_away = kill_flow.before(flow), kill_flow.after(flow), \
        kill_flow.put_away(flow)
    earlier = kill_flow.finished_before(flow)
    if put_away is None:
        return [(before, earlier), (after, earlier)]
    # put away: newest first by the order games were begun (the one in play is newer)
    allowed = [(before, earlier), (after, [put_away, *[g for g in earlier if g != after]])]
    if flow == "new game":  # put away, then (a press later) begun: two steps
        allowed.append((None, [put_away]))
    return allowed


def write_points(flow: str, folder: Path) -> list[tuple[str, int]]:
    """(call, n): the n-th call of that name, for each write-side call of one clean run."""
    log = folder.with_name(folder.name + ".strace")
    run = subprocess.run(["strace", "-f", "-qq", "-o", str(log), "-e",
                          f"trace={','.join(WRITE_CALLS)}", *flow_command(flow, folder)],
                         capture_output=True, text=True, check=False, env=env(), cwd=ROOT)
    assert run.returncode == 0 and run.stdout == "done\n", run.stderr
    seen: Counter[str] = Counter()
    points = []
    for line in log.read_text().splitlines():
        match = CALL.match(line)
        if not match:
            continue
        name, args = match.groups()
        seen[name] += 1
        if name == "openat" and not re.search(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC", args):
            continue  # reading (imports, the fonts of nothing): not a write
        if name == "write" and re.match(r"[12], ", args):
            continue  # stdout, stderr: the "done" of the flow, not the disk
        points.append((name, seen[name]))
    return points


def flow_command(flow: str, folder: Path) -> list[str]:
    return [sys.executable, "-m", "tests.kill_flow", flow, str(folder)]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


def kill_at(flow: str, folder: Path, call: str, n: int) -> str | None:
    """Kill the flow on entry to the n-th ``call``, open what it left; a problem, or None."""
    run = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", f"trace={call}",
                          "-e", f"inject={call}:signal=SIGKILL:when={n}",
                          *flow_command(flow, folder)],
                         capture_output=True, text=True, check=False, env=env(), cwd=ROOT)
    if "done" in run.stdout:
        return f"{call} #{n}: not reached, the flow ran to its end"
    store = Store(folder)
    loaded = store.load()
    found = (loaded.game, [f.game for f in store.finished(1000)])
    store.close()
    if loaded.problem is not None:
        return f"{call} #{n}: the start reported {loaded.problem!r}"
    if found not in outcomes(flow):
        return f"{call} #{n}: left {found}"
    for game in (loaded.game, *found[1]):
        if game is not None and game.audit() is not None:
            return f"{call} #{n}: a game does not replay to itself: {game.audit()}"
    return None


@pytest.mark.parametrize("flow", kill_flow.FLOWS)
def test_a_kill_at_any_write_leaves_the_game_before_or_after(tmp_path: Path,
                                                             flow: str) -> None:
    if (why := host_packages.ensure("strace")) is not None:
        pytest.skip(why)
    # Once first, writing the byte code the flow imports: a module compiled from its source
    # in one run and read as byte code in the next opens one file more, and every later
    # point's number would name another call (a fresh clone, a source edited since).
    kill_flow.prepare(flow, tmp_path / "warm")
    writing = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(flow_command(flow, tmp_path / "warm"), capture_output=True, check=True,
                   cwd=ROOT, env=writing)
    kill_flow.prepare(flow, tmp_path / "clean")
    points = write_points(flow, tmp_path / "clean")
    assert len(points) >= 10, points  # an open and a commit cannot take fewer

    def one(index: int) -> str | None:
        call, n = points[index]
        folder = tmp_path / f"kill{index}"
        kill_flow.prepare(flow, folder)
        try:
            return kill_at(flow, folder, call, n)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        problems = [p for p in pool.map(one, range(len(points))) if p is not None]
    counts = Counter(call for call, _ in points)
    print(f"\nkill points, {flow}: {len(points)} ({dict(counts)}), "
          f"{len(problems)} with a problem")
    assert problems == []
