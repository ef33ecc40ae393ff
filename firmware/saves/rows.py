"""The saves' database as rows: its schema, a game as its rows and back, and SQLite's own
words for what went wrong (a fault outside the file, or damage inside it).

The bottom room of the store: it knows the schema and the rows, nothing of the folder
around the database or of what the table does with a game.
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import functools
import hashlib
import re
import secrets
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import robinson_core as core  # the game's modules load at its first game: the table's
from robinson_core.errors import SaveError, quote  # lock is taken before its first frame

if TYPE_CHECKING:
    from robinson_core import Game

APPLICATION_ID = 0x526F6269  # "Robi": a database of ours, not any SQLite file
SCHEMA_VERSION = 1
DATABASE = "robinson.db"
SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's own, kept with the database
KEEP_FINISHED = 100
MAX_VALUE = 100_000  # bytes: the longest value SQLite hands us (a game's actions: ~12 KB)

SCHEMA = """
CREATE TABLE game (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order games were begun in
    seats       TEXT NOT NULL,                      -- '1 2 3'
    first       INTEGER NOT NULL,
    rules       TEXT NOT NULL,                      -- 'purse=10 debt=false ...'
    ended       TEXT,    -- NULL while in play; won, no_winner, abandoned or damaged
    finished_at TEXT,    -- the clock's time when put away: a label, never an order
    digest      TEXT NOT NULL  -- sha256 of the game's export text: a flipped bit is seen
);
CREATE UNIQUE INDEX one_game_in_play ON game ((ended IS NULL)) WHERE ended IS NULL;
CREATE TABLE action (
    game  INTEGER NOT NULL REFERENCES game (id),
    seq   INTEGER NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE pref (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
BOOTSTRAP = (f"{SCHEMA}PRAGMA application_id = {APPLICATION_ID};"
             f"PRAGMA user_version = {SCHEMA_VERSION};")
"""A new database's tables and the marks that say it is ours (run in a transaction)."""


class Ended(enum.StrEnum):
    """How a game put away ended: the database's ``ended`` column (NULL while in play)."""

    WON = "won"
    NO_WINNER = "no_winner"  # everyone was eliminated
    ABANDONED = "abandoned"  # put away while still in play
    DAMAGED = "damaged"  # did not replay: kept for a person to look at, never listed


NEWEST = (f"SELECT id FROM game WHERE ended IS NOT NULL AND ended != '{Ended.DAMAGED}' ORDER "
          "BY id DESC LIMIT ?")
"""The rows of the newest finished games not marked damaged, at most ``?`` of them: those
a table keeps and lists (planted rows beyond them cost nothing)."""


def newest_finished(db: sqlite3.Connection, most: int) -> list[int]:
    """The rows of the ``most`` newest finished games not marked damaged, newest first."""
    return [row for (row,) in db.execute(NEWEST, (most,))]


def ending(game: Game) -> Ended:
    """How ``game``, put away now, ended."""
    status = game.state.status
    return Ended.ABANDONED if status is core.Status.PLAYING else Ended(status.value)


@dataclass(frozen=True)
class Standing:
    """What a database holds, in brief: its seal (and the one its last write replaced),
    the finished games it keeps (and the newest one's row), the game in play's row (0:
    none) and its actions."""

    seal: str
    sealed_after: str
    games: int
    row: int
    actions: int
    top: int = 0  # the newest finished game's row (0: none)


def standing(db: sqlite3.Connection) -> Standing:
    """The database's standing (raises sqlite3.Error if it cannot be read)."""
    seals = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('seal', "
                            "'sealed_after') AND typeof(value) = 'text'").fetchall())
    games, top = db.execute("SELECT count(*), max(id) FROM game WHERE ended IS NOT NULL "
                            "AND ended != ?", (Ended.DAMAGED,)).fetchone()
    row = row_in_play(db) or 0
    actions = db.execute("SELECT count(*) FROM action WHERE game = ?", (row,)).fetchone()[0]
    return Standing(str(seals.get("seal", "")), str(seals.get("sealed_after", "")),
                    int(games), row, int(actions), int(top or 0))


def kept_digest(db: sqlite3.Connection) -> str:
    """A fingerprint of every finished game as its rows hold it (each game's row and its
    actions): a bit flipped anywhere in them changes it. Read only when the finished
    games changed, and at opening (the ledger keeps it: ledger.py). "" (not known: no
    check at the next opening) if a damaged page keeps it from being read."""
    try:
        return _digest_of_finished(db)
    except sqlite3.Error:
        return ""


def _digest_of_finished(db: sqlite3.Connection) -> str:
    fingerprint = hashlib.sha256()  # as bytes: a flipped bit may leave text that is not UTF-8
    for fields in db.execute(
            "SELECT id, CAST(seats AS BLOB), first, CAST(rules AS BLOB), CAST(ended AS BLOB), "
            f"CAST(finished_at AS BLOB), CAST(digest AS BLOB) FROM game WHERE id IN ({NEWEST}) "
            "ORDER BY id", (KEEP_FINISHED,)):
        fingerprint.update(repr(fields).encode("ascii"))
    for fields in db.execute(
            f"SELECT game, seq, CAST(token AS BLOB) FROM action WHERE game IN ({NEWEST}) "
            "ORDER BY game, seq LIMIT ?",
            (KEEP_FINISHED, KEEP_FINISHED * (core.MAX_ACTIONS + 1))):
        fingerprint.update(repr(fields).encode("ascii"))
    return fingerprint.hexdigest()[:16]


def seal(db: sqlite3.Connection, old: str) -> str:
    """A new seal for the write in progress (inside its transaction): every commit
    changes it, and names the one it replaced."""
    new = secrets.token_hex(8)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('seal', ?), ('sealed_after', ?)",
               (new, old))
    return new


class BadRow(Exception):
    """A row that does not replay or check out: ``reason`` says why."""

    def __init__(self, row: int, reason: str) -> None:
        super().__init__(reason)
        self.row, self.reason = row, reason


WRITER_WAIT = 0.05  # s: the longest the table's loop waits on another program's lock
READER_WAIT = 5.0  # s: a command reading beside the table may wait out a checkpoint


def connect(uri: str, wait: float = READER_WAIT) -> sqlite3.Connection:
    # Autocommit: every write below opens its own transaction (BEGIN IMMEDIATE).
    # check_same_thread off: the loop thread and the runner share it, never at once.
    # ``wait``: SQLite's busy timeout, slept in the calling thread.
    db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                         timeout=wait)
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE)  # a planted 200 MB value: an error
    db.execute("PRAGMA trusted_schema = OFF")
    return db


# SQLite's primary result codes that say the file could not be reached, not that it is
# bad: a full disk, an I/O error, permissions, locking, a read-only mount, memory.
FAULTS = frozenset({sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN,
                    sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_BUSY,
                    sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_NOLFS,
                    sqlite3.SQLITE_AUTH, sqlite3.SQLITE_PROTOCOL})


def is_fault(error: sqlite3.Error) -> bool:
    """A fault outside the file; else (corrupt, not a database, a bad byte) damage."""
    return primary(error) in FAULTS


def primary(error: sqlite3.Error) -> int:
    """SQLite's primary result code of ``error`` (0 for one raised by Python's module,
    as a text that is not UTF-8 is)."""
    return getattr(error, "sqlite_errorcode", 0) & 0xFF


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


@functools.cache
def our_schema() -> frozenset[tuple[object, ...]]:
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    try:
        return schema_of(db)
    finally:
        db.close()


class Kind(enum.Enum):
    """What a database file is, by its header and its schema (``identify``): the one
    reading of "ours" the store, a read-only open and a restore's copy each act on."""

    EMPTY = "empty"  # ours before its first commit (or all of it lost): nothing in it
    FOREIGN = "foreign"  # neither our id nor our tables: another program's file
    NEWER = "newer"  # ours, from a newer version of the table
    UNLIKE = "unlike"  # our id, and tables not ours: damaged
    NO_ID = "no id"  # our tables, and a header not ours: its header is damaged
    OURS = "ours"


@dataclass(frozen=True)
class Identity:
    """Whose a database says it is (``kind``), with its version and sqlite_schema."""

    kind: Kind
    version: int
    schema: frozenset[tuple[object, ...]]


def identify(db: sqlite3.Connection) -> Identity:
    """Whose the file says it is: its application id, schema version and sqlite_schema,
    read as data (nothing in it runs, and WAL mode has not yet rewritten the header)."""
    app, version = (int(db.execute(f"PRAGMA {name}").fetchone()[0])
                    for name in ("application_id", "user_version"))
    schema = schema_of(db)
    ours = our_schema()
    if (app, version, schema) == (0, 0, frozenset()):
        kind = Kind.EMPTY
    elif app != APPLICATION_ID and schema != ours:
        kind = Kind.FOREIGN
    elif app == APPLICATION_ID and version > SCHEMA_VERSION:
        kind = Kind.NEWER
    elif schema != ours:
        kind = Kind.UNLIKE
    elif app != APPLICATION_ID:
        kind = Kind.NO_ID
    else:
        kind = Kind.OURS
    return Identity(kind, version, schema)


def damage(db: sqlite3.Connection) -> str | None:
    """What SQLite's quick check finds wrong in a database of ours, or None: it is whole."""
    found = str(db.execute("PRAGMA quick_check").fetchone()[0])
    return None if found == "ok" else found


def schema_of(db: sqlite3.Connection) -> frozenset[tuple[object, ...]]:
    """Everything sqlite_schema lists (tables, indexes, views, triggers), read as data."""
    return frozenset(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))


def unlike(schema: frozenset[tuple[object, ...]]) -> str:
    """How ``schema`` differs from ours, in a few words."""
    ours = our_schema()
    extra = [f"{kind} {quote(str(name), 24)}" for kind, name, *_ in sorted(schema - ours,
                                                                         key=str)]
    ours_names = {(kind, name) for kind, name, *_ in schema}
    missing = [f"no {kind} {name}" for kind, name, *_ in sorted(ours, key=str)
               if (kind, name) not in ours_names]
    changed = [f"{kind} {name} changed" for kind, name, *_ in sorted(ours - schema, key=str)
               if (kind, name) in ours_names]
    said = [*missing, *changed, *(f"a {x} that is not ours" for x in extra)]
    return ", ".join(said[:3]) + (f" and {len(said) - 3} more" if len(said) > 3 else "")


def row_in_play(db: sqlite3.Connection) -> int | None:
    found = db.execute("SELECT id FROM game WHERE ended IS NULL").fetchone()
    return None if found is None else int(found[0])


def game_of(db: sqlite3.Connection, row: int) -> Game:
    """The game in row ``row``, replayed and checked (BadRow if it does not). A fault (an
    I/O error) is raised as SQLite's error: it is not the row's."""
    try:
        fields = db.execute("SELECT seats, first, rules, digest FROM game WHERE id = ?",
                            (row,)).fetchone()
        if fields is None:
            raise BadRow(row, "it is gone")
        tokens = db.execute("SELECT seq, token FROM action WHERE game = ? ORDER BY seq",
                            (row,)).fetchmany(core.MAX_ACTIONS + 1)
    except sqlite3.Error as error:
        if is_fault(error):
            raise
        raise BadRow(row, quote(str(error), 60)) from None
    seats, first, rules, stored = fields
    return replayed(row, seats, first, rules, stored, tokens)


@dataclass(frozen=True)
class Finished:
    """A game put away: how it ended, and when (the clock's time, a label only)."""

    game: Game
    ended: Ended
    finished_at: datetime.datetime | None
    number: int  # its row id: the order games were begun in

    @property
    def winner(self) -> int | None:
        return self.game.state.winner

    @property
    def summary(self) -> Summary:
        return Summary(self.number, self.ended, self.finished_at, self.winner,
                       finals(self.game))


def finished_of(db: sqlite3.Connection, row: int) -> Finished:
    """The finished game in row ``row``, how it ended and when. BadRow if the game does
    not check out; ValueError or TypeError if how it ended cannot be read; a fault as
    SQLite's error."""
    ended, when = db.execute("SELECT ended, finished_at FROM game WHERE id = ?",
                             (row,)).fetchone()
    return Finished(game_of(db, row), Ended(ended), label(when), row)


def insert(db: sqlite3.Connection, game: Game, ended: Ended | None, finished_at: str | None,
           row: int | None = None) -> int:
    """A new row for ``game`` (numbered ``row``, if given: a salvaged game keeps its
    number); returns its number."""
    rules = game.rules.as_text()
    row = db.execute("INSERT INTO game (id, seats, first, rules, ended, finished_at, "
                     "digest) VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (row, " ".join(map(str, game.seats)), game.first, rules, ended,
                      finished_at, digest(game))).lastrowid
    assert row is not None
    db.executemany("INSERT INTO action VALUES (?, ?, ?)",
                   ((row, n, a.token) for n, a in enumerate(game.actions)))
    if ended in (Ended.WON, Ended.NO_WINNER, Ended.ABANDONED):
        summarise(db, row, game)
    return row


def delete(db: sqlite3.Connection, row: int) -> None:
    db.execute("DELETE FROM action WHERE game = ?", (row,))
    db.execute("DELETE FROM game WHERE id = ?", (row,))
    db.execute("DELETE FROM meta WHERE key = ?", (SUMMARY + str(row),))


def end(db: sqlite3.Connection, row: int, game: Game, when: datetime.datetime) -> None:
    """Row ``row`` put away as ``game`` ended, ``when`` (the clock's: a label only); only
    the newest KEEP_FINISHED are kept."""
    db.execute("UPDATE game SET ended = ?, finished_at = ? WHERE id = ?",
               (ending(game), when.isoformat(timespec="seconds"), row))
    db.execute("DELETE FROM action WHERE game IN (SELECT id FROM game WHERE ended IS NOT "
               "NULL AND id NOT IN (SELECT id FROM game WHERE ended IS NOT NULL "
               "ORDER BY id DESC LIMIT ?))", (KEEP_FINISHED,))
    db.execute("DELETE FROM game WHERE ended IS NOT NULL AND id NOT IN (SELECT id FROM "
               "game WHERE ended IS NOT NULL ORDER BY id DESC LIMIT ?)", (KEEP_FINISHED,))
    db.execute(f"DELETE FROM meta WHERE key GLOB '{SUMMARY}*' AND CAST(substr(key, "
               f"{len(SUMMARY) + 1}) AS INTEGER) NOT IN (SELECT id FROM game)")
    summarise(db, row, game)


# -- a finished game in brief -------------------------------------------------------
# What the table lists of the games put away (who won, how it ended, when) must not
# cost a replay of each (ten 2,000-action games: 185 ms here, seconds on a Zero). So a
# game put away leaves a summary beside its row, in meta under 'summary ROW': who won,
# sealed to the row's digest and number. A summary that is missing (a game put away by
# an older version, or brought back from a salvage's copy), unsealed or not this row's
# is not trusted: that game is replayed, as before.

SUMMARY = "summary "  # meta's key: SUMMARY + the row's number


class Final(NamedTuple):
    """A player as a game ended: seat, chips, the seat of their Friday, their square
    (0 the start, None out of the game)."""

    seat: int
    chips: int
    friday: int | None
    square: int | None


def finals(game: Game) -> tuple[Final, ...]:
    """How each player of ``game`` stands at its end."""
    return tuple(Final(p.seat, p.chips, p.friday, p.position) for p in game.state.players)


@dataclass(frozen=True)
class Summary:
    """A game put away, in brief: its row, how it ended, when, who won, and how each
    player stood at the end (none from a summary written before they were kept)."""

    number: int
    ended: Ended
    finished_at: datetime.datetime | None
    winner: int | None
    standings: tuple[Final, ...] = ()


def summarise(db: sqlite3.Connection, row: int, game: Game) -> None:
    """Row ``row``'s summary, as ``game`` ended, sealed to the digest the row holds."""
    stored, = db.execute("SELECT digest FROM game WHERE id = ?", (row,)).fetchone()
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
               (SUMMARY + str(row), _sealed(row, str(stored), game.state.winner,
                                            _said(finals(game)))))


def _sealed(row: int, stored: str, winner: int | None, stood: str | None = None) -> str:
    """A summary's value: who won (and how each stood: ``_said``), sealed to the row.
    (One without the standings is an older version's, trusted for who won.)"""
    said = "-" if winner is None else str(winner)
    told = said if stood is None else f"{said} {stood}"
    return f"{told} {hashlib.sha256(f'{row} {stored} {told}'.encode()).hexdigest()[:16]}"


def _said(stood: tuple[Final, ...]) -> str:
    """Standings as a summary keeps them: seat:chips:friday:square;… ("-" for none)."""
    def one(value: int | None) -> str:
        return "-" if value is None else str(value)
    return ";".join(f"{s.seat}:{s.chips}:{one(s.friday)}:{one(s.square)}" for s in stood)


_STOOD = re.compile(r"(\d{1,2}):(-?\d{1,6}):(\d{1,2}|-):(\d{1,2}|-)")
"""One player of ``_said``: seat, chips (below zero with house rule debt), their Friday's
seat or "-", their square or "-" (out)."""


def _stood(text: str) -> tuple[Final, ...] | None:
    """``_said``'s standings read back, or None if they are not such."""
    found = []
    for part in text.split(";"):
        if (one := _STOOD.fullmatch(part)) is None:
            return None
        seat, chips, friday, square = one.groups()
        found.append(Final(int(seat), int(chips), None if friday == "-" else int(friday),
                           None if square == "-" else int(square)))
    return tuple(found)


def summaries(db: sqlite3.Connection, count: int) -> list[Summary | int]:
    """The newest ``count`` games put away, newest first, each as its summary, or as
    its row's number where it has none to trust (the caller replays that one). Rows of
    a kind this version does not know are left out."""
    found: list[Summary | int] = []
    for row, ended, when, stored, value in db.execute(
            "SELECT g.id, g.ended, g.finished_at, g.digest, m.value FROM game AS g LEFT JOIN "
            f"meta AS m ON m.key = '{SUMMARY}' || g.id WHERE g.ended IS NOT NULL AND "
            "g.ended != ? ORDER BY g.id DESC LIMIT ?", (Ended.DAMAGED, count)):
        try:
            how = Ended(ended)
        except ValueError:
            continue
        parts = value.split(" ") if isinstance(value, str) else []
        said = parts[0] if parts else ""
        stood = _stood(parts[1]) if len(parts) == 3 else () if len(parts) == 2 else None
        if stood is not None and (said == "-" or (said.isdecimal() and len(said) <= 2)):
            winner = None if said == "-" else int(said)
            if value == _sealed(row, str(stored), winner, parts[1] if stood else None):
                found.append(Summary(row, how, label(when), winner, stood))
                continue
        found.append(row)
    return found


def replayed(row: int, seats: object, first: object, rules: object, stored: object,
              tokens: list[tuple[object, object]]) -> Game:
    """A game from its row's values, each checked before use (BadRow says what is wrong)."""
    if not all(isinstance(value, str) for value in (seats, rules, stored)) \
            or not isinstance(first, int):
        raise BadRow(row, "a value of the wrong type")
    if len(tokens) > core.MAX_ACTIONS:
        raise BadRow(row, f"more than {core.MAX_ACTIONS} actions")
    if [seq for seq, _ in tokens] != list(range(len(tokens))) \
            or not all(isinstance(token, str) and token.isascii() for _, token in tokens):
        raise BadRow(row, "its actions are out of order or not actions")
    try:
        game = core.Game.from_fields(seats=str(seats), first=str(first), rules=str(rules),
                                     actions=" ".join(str(token) for _, token in tokens))
    except SaveError as error:
        raise BadRow(row, str(error)) from None
    if not matches(digest(game), str(stored)):
        raise BadRow(row, "its checksum does not match: damaged or edited")
    return game


def matches(computed: str, stored: str) -> bool:
    """The stored digest is the game's, or is one flipped bit from it: then the bit is
    in the digest's own text (a game edited to within one bit of its sha256 is not a
    thing that happens), and the game is whole."""
    if computed == stored:
        return True
    if len(computed) != len(stored) or not stored.isascii():
        return False
    differ = int.from_bytes(computed.encode(), "big") ^ int.from_bytes(stored.encode(), "big")
    return differ.bit_count() == 1


def digest(game: Game) -> str:
    return hashlib.sha256(game.save().encode("utf-8")).hexdigest()


def shown(value: object) -> str:
    """A value read from a damaged row, as printable text whatever its bytes."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(value))[:2000]


def as_text(db: sqlite3.Connection, row: int) -> str:
    """Row ``row`` as text for a person to look at, whatever its bytes."""
    values = db.execute("SELECT CAST(seats AS BLOB), CAST(first AS BLOB), "
                        "CAST(rules AS BLOB), CAST(ended AS BLOB), "
                        "CAST(finished_at AS BLOB), CAST(digest AS BLOB) "
                        "FROM game WHERE id = ?", (row,)).fetchone() or ()
    tokens = db.execute("SELECT CAST(token AS BLOB) FROM action WHERE game = ? "
                        "ORDER BY seq LIMIT ?", (row, core.MAX_ACTIONS)).fetchall()
    text = "\n".join(f"{name} {shown(value)}" for name, value in zip(
        ("seats", "first", "rules", "ended", "finished_at", "digest"), values, strict=False))
    return text + "\nactions " + " ".join(shown(t) for (t,) in tokens) + "\n"


def label(when: object) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromisoformat(str(when))
    except ValueError:
        return None
