"""The commands about the saves: ``state`` (the game in play), ``history`` (the games
put away), ``export`` and ``import`` (a game as text, or the database whole) and
``restore`` (a copy made the saves). Each reads read-only unless it must write, and may
run beside the table."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from firmware.commands import say
from firmware.config.file import default_path, load
from firmware.config.settings import Config
from firmware.errors import ConfigError, UsageError
from firmware.saves.folder import state_dir
from firmware.saves.rows import Finished
from firmware.saves.store import Store
from firmware.table.prefs import PREF_KEYS, in_force
from firmware.table.prefs import seat_names as table_names
from firmware.tools.summary import replay_args, summary
from robinson_core import (
    Game,
    RobinsonError,
    Status,
)
from robinson_core.errors import quote
from robinson_core.narrate import account, seat_names


def reader(given: str | None) -> Any:
    """The state directory opened read-only: nothing in it is made, moved or changed."""
    from firmware.revision import on_raspberry_pi

    return Store(state_dir(given, on_raspberry_pi()), read_only=True, pref_keys=PREF_KEYS)


def kept(store: Store) -> tuple[str, dict[int, str]]:
    """The language and the players' names as the table shows them (what it keeps in the
    folder, over the config's), so the transcripts say the same."""
    try:
        config = load(default_path())
    except ConfigError:  # the table would not start on it: say it there, not here
        config = Config()
    prefs, _ = in_force(store.prefs(), config)
    return prefs.language, dict(table_names(prefs, config))


def run_state(args: argparse.Namespace) -> int:
    store = reader(args.state_dir)
    loaded = store.load()  # the table may be running: read, never write
    if loaded.game is None:
        raise UsageError(loaded.problem or f"no saved game in {store.directory}")
    if loaded.problem:
        say(f"robinson state: warning: {loaded.problem}")
    if args.json:
        print(json.dumps({**summary(loaded.game), "replay_args": replay_args(loaded.game)},
                         ensure_ascii=False))
    else:
        language, names = kept(store)
        lang = args.lang or language
        print("\n".join(account(loaded.game, lang, seat_names(lang, names))))
    return 0


def run_history(args: argparse.Namespace) -> int:
    from firmware.saves.rows import ending

    store = reader(args.state_dir)
    games = store.finished(args.last)
    loaded = store.load()
    if loaded.problem and not games and loaded.game is None:
        raise UsageError(loaded.problem)  # a file that cannot be read says so, once
    over = loaded.game  # a game over but not yet put away: finished too
    if over is not None and over.state.status is not Status.PLAYING:
        games = [Finished(over, ending(over), None, 0), *games][:args.last]
    if args.json:
        print(json.dumps({"games": [
            {"ended": f.ended, "winner": f.winner, "put_away": bool(f.number),
             "actions": [a.token for a in f.game.actions], "replay_args": replay_args(f.game),
             "finished_at": f.finished_at.isoformat() if f.finished_at else None}
            for f in games]}, ensure_ascii=False))
        return 0
    if not games:
        print(f"no games finished in {store.directory}")
    _, names = kept(store)
    for f in games:
        when = (f.finished_at.strftime("%Y-%m-%d %H:%M") if f.finished_at
                else "on the table    " if not f.number else "?")
        who = (f"{names[f.winner]} (seat {f.winner}) won" if f.winner in names
               else f"seat {f.winner} won" if f.winner is not None
               else f.ended.replace("_", " "))
        print(f"{when}  seats {','.join(map(str, f.game.seats))}  "
              f"{len(f.game.actions)} actions  {who}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    store = reader(args.state_dir)
    target = args.database or args.output
    if target and target != "-" and inside(Path(target), store.directory):
        raise UsageError(f"{quote(target, 60)} is in the state folder {store.directory}: "
                         "export to a file elsewhere (the table's own files are never "
                         "written over)")
    if args.database:
        if not store.database.is_file():
            raise UsageError(f"no database to copy in {store.directory}")
        try:
            store.backup(Path(args.database))
        except Exception as error:  # sqlite3.Error, OSError, SaveError: one line
            raise UsageError(f"cannot copy the database to {quote(args.database, 60)}: "
                             f"{quote(str(error) or type(error).__name__, 80)}") from None
        return 0
    if args.finished:
        finished = store.finished(args.finished)
        if len(finished) < args.finished:
            problem = store.load().problem  # none could be read: say why, not "0 games"
            count = f"{len(finished)} game" + ("" if len(finished) == 1 else "s")
            raise UsageError(problem if problem and not finished
                             else f"only {count} put away in {store.directory}")
        game = finished[-1].game
    else:
        loaded = store.load()
        game = loaded.game
        if game is None:
            raise UsageError(loaded.problem or f"no saved game in {store.directory}")
    if args.output:
        try:
            Path(args.output).write_text(game.save(), encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror}") from None
    else:
        sys.stdout.write(game.save())
    return 0


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` (made absolute, links followed) is ``folder`` or under it."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a loop of links: not a place to write either
        return True


MAX_SAVE_BYTES = 1_000_000  # a saved game's text: 2,000 actions are about 12 KB


def run_import(args: argparse.Namespace) -> int:
    from firmware.revision import on_raspberry_pi

    try:
        if args.file == "-":
            data = sys.stdin.buffer.read(MAX_SAVE_BYTES + 1)
        else:
            with open(args.file, "rb") as file:
                data = file.read(MAX_SAVE_BYTES + 1)
    except OSError as error:
        raise UsageError(f"cannot read {args.file}: {error.strerror}") from None
    if len(data) > MAX_SAVE_BYTES:
        raise UsageError(f"{args.file} is larger than {MAX_SAVE_BYTES // 1_000_000} MB: "
                         "not a saved game")
    try:
        game = Game.load(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"{args.file} is not a saved game (not UTF-8 text)") from None
    except RobinsonError as error:
        raise UsageError(f"{args.file}: {error}") from None
    store = Store(state_dir(args.state_dir, on_raspberry_pi()), pref_keys=PREF_KEYS)
    store.lock()  # not beside a running table: it would not know
    replaced = store.load().game
    try:
        store.import_game(game)
    except OSError as error:
        raise UsageError(f"cannot save in {store.directory}: {error.strerror}") from None
    print(f"imported: seats {','.join(map(str, game.seats))}, {len(game.actions)} actions: "
          "the game in play now" + ("; the one it replaced is put away (robinson history)"
                                    if replaced is not None else ""))
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from firmware.revision import on_raspberry_pi
    from firmware.saves.restore import restore

    done = restore(state_dir(args.state_dir, on_raspberry_pi()), Path(args.file), PREF_KEYS)
    count = f"{done.finished} finished game" + ("" if done.finished == 1 else "s")
    game = (f"the game in play (seats {','.join(map(str, done.game.seats))}, "
            f"{len(done.game.actions)} action{'' if len(done.game.actions) == 1 else 's'})"
            if done.game else "no game in play")
    print(f"restored {quote(args.file, 60)}: {count} and {game} kept now"
          + (f"; the database it replaced is in damaged/ as {done.kept}" if done.kept else ""))
    return 0
