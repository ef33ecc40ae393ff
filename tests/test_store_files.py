"""The save files themselves: what a tester plants in the state directory is survived,
and reading never writes."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from firmware.table.store import Store
from robinson_core import Game, Roll

GAME = Game((1, 2)).play(Roll(3)).play(Roll(5))


def tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            if p.is_file() else "dir" for p in sorted(folder.rglob("*"))}


def test_a_folder_where_a_save_belongs_is_set_aside_and_the_save_goes_on(
        tmp_path: Path) -> None:
    for name in ("game.txt.tmp", "game.prev.txt"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "inside").write_text("kept")
    store = Store(tmp_path)
    store.save(GAME)
    store.save(GAME.play(Roll(2)))
    assert store.load().game == GAME.play(Roll(2))
    kept = sorted(p.name.split(".2")[0] for p in (tmp_path / "damaged").iterdir())
    assert kept == ["game.prev.txt", "game.txt.tmp"]


def test_a_planted_symlink_is_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not yours")
    state = tmp_path / "state"
    state.mkdir()
    (state / "game.txt.tmp").symlink_to(outside)
    Store(state).save(GAME)
    assert outside.read_text() == "not yours"
    assert Store(state).load().game == GAME


def test_saves_are_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        Store(tmp_path).save(GAME)
    finally:
        os.umask(old)
    assert (tmp_path / "game.txt").stat().st_mode & 0o777 == 0o600


def test_a_huge_save_is_refused_unread(tmp_path: Path) -> None:
    with open(tmp_path / "game.txt", "wb") as file:
        file.truncate(100_000_000)  # 100 MB of nothing, sparse
    loaded = Store(tmp_path).load()
    assert loaded.game is None and "larger than 1 MB" in (loaded.problem or "")


def test_reading_for_robinson_state_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(GAME)
    store.save(GAME.play(Roll(2)))
    (tmp_path / "game.txt").write_text("robinson-game 1\ndamaged\n")  # game.prev.txt is good
    before = tree(tmp_path)
    loaded = Store(tmp_path).load(repair=False)
    assert loaded.game == GAME and "game.txt" in (loaded.problem or "")
    assert tree(tmp_path) == before
    assert Store(tmp_path).load().game == GAME  # the table itself repairs
    assert tree(tmp_path) != before


def test_reading_an_unreadable_save_for_robinson_state_moves_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(GAME)
    store.save(GAME.play(Roll(2)))
    (tmp_path / "game.txt").write_bytes(b"\xff\xfe not text")
    before = tree(tmp_path)
    assert Store(tmp_path).load(repair=False).game == GAME
    assert tree(tmp_path) == before


def test_junk_in_the_preferences_is_ignored_not_a_crash(tmp_path: Path) -> None:
    from .rig import Rig

    state = tmp_path / "state"
    state.mkdir()
    (state / "prefs.txt").write_text("language=xx\ncontrast=²\n", encoding="utf-8")
    rig = Rig(state)
    try:
        assert rig.table.lang == "en" and rig.panel.contrast == 255
    finally:
        rig.close()
