"""A game as rows (firmware/saves/rows.py): the words it has for a row that does not
check out, for a schema that is not ours, and a damaged row as text, each compared whole."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware.saves.rows import (
    SCHEMA,
    BadRow,
    as_text,
    connect,
    digest,
    insert,
    our_schema,
    replayed,
    shown,
    unlike,
)
from firmware.saves.store import Store
from firmware.table.prefs import PREF_KEYS
from robinson_core import Choice, Game, Roll
from robinson_core.game import MAX_ACTIONS

GAME = Game((1, 2)).play(Roll(6)).play(Roll(2))


def schema_of(script: str) -> frozenset[tuple[object, ...]]:
    db = sqlite3.connect(":memory:")
    db.executescript(script)
    found = frozenset(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
    db.close()
    return found


def test_a_schema_not_ours_is_said_in_a_few_words() -> None:
    ours = SCHEMA
    assert unlike(schema_of(ours + "CREATE TABLE fired (x);")) == "a table 'fired' that is not ours"
    assert unlike(schema_of(ours.replace("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT "
                                         "NOT NULL);", ""))) == \
        "no index sqlite_autoindex_meta_1, no table meta"
    assert unlike(schema_of(ours.replace("value TEXT NOT NULL);\nCREATE TABLE meta",
                                         "value TEXT);\nCREATE TABLE meta"))) == \
        "table pref changed, a table 'pref' that is not ours"
    three = ours + "CREATE TABLE a (x); CREATE TABLE b (x); CREATE TABLE c (x);"
    assert unlike(schema_of(three)) == ("a table 'a' that is not ours, a table 'b' that is not "
                                        "ours, a table 'c' that is not ours")
    long = ours + "CREATE TABLE abcdefghijklmnopqrstuvwxyz0123456789 (x);"
    assert unlike(schema_of(long)) == ("a table 'abcdefghijklmnop…' (36 characters) "
                                      "that is not ours")
    many = ours + "CREATE TABLE a (x); CREATE TABLE b (x); CREATE TABLE c (x); CREATE TABLE d (x);"
    assert unlike(schema_of(many)) == ("a table 'a' that is not ours, a table 'b' that is not "
                                       "ours, a table 'c' that is not ours and 1 more")


@pytest.mark.parametrize(("values", "why"), [
    (("1 2", "1", "rules", "digest"), "a value of the wrong type"),  # first as text
    ((12, 1, "rules", "digest"), "a value of the wrong type"),  # seats as a number
    (("1 2", 1, "rules", b"digest"), "a value of the wrong type"),
])
def test_a_row_of_the_wrong_types_says_so(values: tuple[object, object, object, object],
                                          why: str) -> None:
    seats, first, rules, stored = values
    with pytest.raises(BadRow) as raised:
        replayed(7, seats, first, rules, stored, [])
    assert (raised.value.row, raised.value.reason) == (7, why)


def test_a_row_of_too_many_or_disordered_actions_says_so() -> None:
    rules = GAME.rules.as_text()
    with pytest.raises(BadRow) as raised:
        replayed(3, "1 2", 1, rules, "0" * 64, [(n, "1") for n in range(MAX_ACTIONS + 1)])
    assert raised.value.reason == f"more than {MAX_ACTIONS} actions"
    stuck = Game((1, 2)).play(Roll(6)).play(Roll(6)).play(Roll(1)).play(Roll(1))  # both on 7
    for _ in range(MAX_ACTIONS - 4):
        stuck = stuck.play(Choice.STAY)  # each stays on the tree, turn after turn
    tokens: list[tuple[object, object]] = [(n, a.token) for n, a in enumerate(stuck.actions)]
    assert len(tokens) == MAX_ACTIONS
    assert replayed(3, "1 2", 1, rules, digest(stuck), tokens) == stuck  # the longest kept
    disordered: list[list[tuple[object, object]]] = [[(1, "6"), (0, "2")], [(0, "6"), (1, 2)],
                                                     [(0, "6"), (1, "ß")]]
    for tokens in disordered:
        with pytest.raises(BadRow) as raised:
            replayed(3, "1 2", 1, rules, "0" * 64, tokens)
        assert raised.value.reason == "its actions are out of order or not actions", tokens


def test_a_damaged_row_as_text_names_every_field_and_shows_every_byte(tmp_path: Path) -> None:
    db = connect(f"file:{tmp_path / 'r.db'}?mode=rwc")
    db.executescript(SCHEMA)
    row = insert(db, GAME, None, None)
    db.execute("UPDATE game SET finished_at = CAST(X'41FF01' AS TEXT) WHERE id = ?", (row,))
    text = as_text(db, row)
    db.close()
    names = [line.split(" ", 1)[0] for line in text.splitlines()]
    assert names == ["seats", "first", "rules", "ended", "finished_at", "digest", "actions"]
    assert text.splitlines()[0] == "seats 1 2" and text.endswith("\nactions 6 2\n")
    assert "finished_at A\\xff\\x01\n" in text
    assert shown("a\x01b") == "a\\x01b" and shown(b"\xff") == "\\xff"
    assert shown("r" * 2500) == "r" * 2000  # a field is shown to its first 2,000 characters


def test_every_save_seals_with_sixteen_hex_characters_and_a_long_value_is_refused(
        tmp_path: Path) -> None:
    store = Store(tmp_path, pref_keys=PREF_KEYS)
    store.save(GAME)
    db = store._connection()
    seal, = db.execute("SELECT value FROM meta WHERE key = 'seal'").fetchone()
    assert len(seal) == 16 and int(seal, 16) >= 0
    writer = sqlite3.connect(tmp_path / "robinson.db")
    writer.execute("INSERT INTO pref VALUES ('language', ?), ('voice', ?)",
                   ("x" * 100_000, "y" * 100_001))
    writer.commit()
    writer.close()
    store.close()
    reader = Store(tmp_path, read_only=True, pref_keys=PREF_KEYS)
    found = reader.prefs()
    reader.close()
    assert found == {"language": "x" * 100_000}  # the longest SQLite hands us, and no more


def test_knowing_our_schema_leaves_no_file_behind(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Our schema is read from a database in memory: nothing written where the table
    runs (the service's working directory)."""
    monkeypatch.chdir(tmp_path)
    assert {name for _, name, *_ in our_schema()} >= {"game", "action", "pref", "meta"}
    assert list(tmp_path.iterdir()) == []
