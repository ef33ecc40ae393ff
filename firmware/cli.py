"""The ``robinson`` command: one entry point, a subcommand per job.

Bad input of any kind ends in exit status 2 and one line on stderr; a part of the table
that is missing (the panel, the pins) in status 3, which the unit tries again.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from firmware.config import HARDWARE
from firmware.display.panels import PANELS
from firmware.errors import TableError, UsageError
from firmware.saves.folder import state_dir
from firmware.saves.rows import KEEP_FINISHED, Finished
from firmware.saves.store import Store
from firmware.table.prefs import PREF_KEYS
from firmware.tools.summary import replay_args, summary
from firmware.web.serve import add_arguments as web_arguments
from robinson_core import (
    BOARD,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEATS,
    Game,
    HouseRules,
    RobinsonError,
    Status,
    play_script,
    reference,
)
from robinson_core.errors import HouseRuleError, quote
from robinson_core.house_rules import NAMES, allowed_values, format_value, split_rule
from robinson_core.kernel import ROLLOUTS
from robinson_core.narrate import account, seat_names
from robinson_core.numbers import MAX_DIGITS, whole_number
from robinson_core.texts import DEFAULT, LANGUAGES, caption, instruction, texts, ui

MAX_SCRIPT_BYTES = 4_000_000
"""The longest script read from a file: far beyond any game (100,000 actions are ~600 KB)."""


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # No option of ours looks like a number: let "-1,2" reach --seats as a value
        # (and be refused there) instead of being taken for an unknown option. argparse
        # has no public switch for it (tests/test_private_internals.py pins the name).
        self._negative_number_matcher = re.compile(r"^-[\d,.]+$")

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see {self.prog} --help)")


def _players(text: str) -> tuple[int, ...]:
    number = whole_number(text)
    if number is None or not MIN_PLAYERS <= number <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"--players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, "
            f"not {quote(text)}")
    return tuple(range(1, number + 1))


def _seats(text: str) -> tuple[int, ...]:
    seats = [whole_number(p) for p in text.split(",")]
    if not all(s is not None and s in SEATS for s in seats):
        raise argparse.ArgumentTypeError(
            f"--seats takes seat numbers 1-{MAX_PLAYERS} separated by commas, not {quote(text)}")
    if len(set(seats)) != len(seats):
        raise argparse.ArgumentTypeError(f"--seats names a seat twice: {quote(text)}")
    return tuple(s for s in seats if s is not None)


def _seat(text: str) -> int:
    number = whole_number(text)
    if number is None or number not in SEATS:
        raise argparse.ArgumentTypeError(f"a seat is a number 1-{MAX_PLAYERS}, not {quote(text)}")
    return number


def _count(text: str) -> int:
    number = whole_number(text)
    if number is None or not 1 <= number <= 10_000_000:
        raise argparse.ArgumentTypeError(f"a number of games from 1 to 10000000, not {quote(text)}")
    return number


def _jobs(text: str) -> int:
    number = whole_number(text)
    if number is None or number > 256:
        raise argparse.ArgumentTypeError(f"--jobs takes 0 (all cores) to 256, not {quote(text)}")
    return number


def _rollouts(text: str) -> int:
    number = whole_number(text)
    if number is None or not 1 <= number <= 1_000_000:
        raise argparse.ArgumentTypeError(f"--rollouts takes 1 to 1000000, not {quote(text)}")
    return number


def _seed(text: str) -> int:
    number = whole_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(
            f"--seed takes a whole number of up to {MAX_DIGITS} digits, not {quote(text)}")
    return number


def _directory(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("--state-dir needs a folder, not an empty name")
    return text


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"seconds from 0 to 3600, not {quote(text)}")
    return value


def _rule(text: str) -> tuple[str, str]:
    try:
        return split_rule(text)
    except HouseRuleError:
        raise argparse.ArgumentTypeError(f"--rule takes NAME=VALUE, not {quote(text)}") from None


def _add_setup(command: argparse.ArgumentParser) -> None:
    """A game's setup, as replay and odds take it: who plays, who starts, house rules."""
    who = command.add_mutually_exclusive_group(required=True)
    who.add_argument("--players", type=_players, metavar="N", dest="seats",
                     help=f"seats 1..N play ({MIN_PLAYERS}-{MAX_PLAYERS})")
    who.add_argument("--seats", type=_seats, metavar="1,3,5", help="these seats play")
    command.add_argument("--first", type=_seat, metavar="SEAT",
                         help="who starts (default: the lowest seat)")
    command.add_argument("--rule", type=_rule, action="append", default=[],
                         metavar="NAME=VALUE", help="change a house rule (see robinson rules)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="robinson", description="Robinson Table: the banker of the dice race.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    replay = commands.add_parser("replay", help="play a scripted game and print its final state")
    _add_setup(replay)
    script = replay.add_mutually_exclusive_group(required=True)
    script.add_argument("--script", metavar="TOKENS",
                        help="die faces 1-6 and decision words, separated by spaces or commas")
    script.add_argument("--script-file", metavar="FILE",
                        help="the script from a file (- = standard input), for long scripts")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.add_argument("--pages", action="store_true",
                        help="print every result's screen as the panel shows it, page by page")
    replay.add_argument("--display", metavar="NAME[:WxH]",
                        help=f"with --pages: this panel ({', '.join(PANELS)}; "
                             "default ssd1306:128x64)")
    _add_lang(replay)

    odds = commands.add_parser("odds", help="a decision's chances to win, by rollouts (JSON)")
    _add_setup(odds)
    odds.add_argument("--script", metavar="TOKENS", required=True,
                      help="the game up to the decision: die faces 1-6 and decision words")
    odds.add_argument("--rollouts", type=_rollouts, default=ROLLOUTS, metavar="N",
                      help=f"games played out from here per option (default {ROLLOUTS:,})")
    odds.add_argument("--seed", type=_seed, default=1, metavar="N", help="(default 1)")

    rules = commands.add_parser("rules", help="print the board and the house rules")
    rules.add_argument("--format", choices=("text", "markdown"), default="text",
                       help="markdown: the full rules reference (RULES.md), in English only")
    _add_lang(rules)

    table = commands.add_parser("table", help="run the table (emulated where there is no Pi)")
    table.add_argument("--config", metavar="FILE", help="a TOML config file")
    table.add_argument("--state-dir", type=_directory, metavar="DIR", help="where games are saved")
    table.add_argument("--lang", choices=LANGUAGES, help="language (default: from config)")
    _add_hardware(table)
    table.add_argument("--seats", type=_seats, default=(), metavar="1,2,3",
                       help="emulated: switch these seats on")
    table.add_argument("--capture", metavar="DIR",
                       help="write every frame shown as a PNG (and, with the voice on, "
                            "every utterance as a WAV)")
    table.add_argument("--voice", action="store_true",
                       help="the banker speaks (espeak-ng through the config's ALSA device), "
                            "over the menu's saved choice")
    table.add_argument("--demo", action="store_true",
                       help="play one game unattended, then exit (in a folder of its own "
                            "unless --state-dir is given)")
    table.add_argument("--seed", type=_seed, metavar="N",
                       help="emulated demos only: a reproducible die")
    table.add_argument("--no-animation", action="store_true", help="show rolls at once")
    _add_display(table)

    selftest = commands.add_parser("selftest", help="show every input live, light every output")
    selftest.add_argument("--config", metavar="FILE", help="a TOML config file")
    selftest.add_argument("--lang", choices=LANGUAGES, help="language (default: from config)")
    _add_hardware(selftest)
    selftest.add_argument("--seats", type=_seats, default=(), metavar="1,2,3",
                          help="emulated: switch these seats on")
    selftest.add_argument("--capture", metavar="DIR", help="write every frame shown as a PNG")
    selftest.add_argument("--dice", action="store_true",
                          help="test the die's fairness (600,000 rolls, 99 %% confidence)")
    selftest.add_argument("--seed", type=_seed, metavar="N",
                          help="emulated, with --dice: test the seeded demo die instead")

    sim = commands.add_parser("sim", help="play many games by the rules, report")
    who = sim.add_mutually_exclusive_group()
    who.add_argument("--players", type=_players, metavar="N", dest="seats",
                     help="seats 1..N play (default 4)")
    who.add_argument("--seats", type=_seats, metavar="1,3,5", help="these seats play")
    sim.add_argument("--first", type=_seat, metavar="SEAT", help="who starts")
    sim.add_argument("--rule", type=_rule, action="append", default=[], metavar="NAME=VALUE")
    sim.add_argument("--games", type=_count, default=10_000, metavar="N",
                     help="how many games (default 10000)")
    sim.add_argument("--seconds-per-turn", type=_seconds, default=20.0, metavar="S",
                     help="to turn rolls into minutes (default 20)")
    sim.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                     help="processes to use; 0 = all cores (default 1)")
    sim.add_argument("--seed", type=_seed, default=1, metavar="N", help="(default 1)")
    sim.add_argument("--plot", metavar="FILE.png", help="also draw charts into FILE.png")

    bench = commands.add_parser("bench", help="measure the performance targets, print a table")
    bench.add_argument("--quick", action="store_true", help="a shorter run (for the tests)")
    bench.add_argument("--markdown", metavar="FILE.md",
                       help="also write the tables into FILE.md, between its bench markers "
                            "(docs/performance.md)")

    state = commands.add_parser("state", help="print the saved game")
    state.add_argument("--state-dir", type=_directory, metavar="DIR", help="where games are saved")
    state.add_argument("--json", action="store_true",
                       help="the robinson replay --json object, plus replay_args")
    _add_lang(state)

    history = commands.add_parser("history", help="list the games put away, newest first")
    history.add_argument("--state-dir", type=_directory, metavar="DIR",
                         help="where games are saved")
    history.add_argument("--json", action="store_true", help="print one JSON object")
    history.add_argument("--last", type=_count, default=10, metavar="N",
                         help=f"the newest N games (default 10; the table keeps {KEEP_FINISHED})")

    export = commands.add_parser("export", help="write the saved game (or the database) out")
    export.add_argument("--state-dir", type=_directory, metavar="DIR",
                        help="where games are saved")
    export.add_argument("--finished", type=_count, metavar="N",
                        help="the N-th newest game put away instead of the game in play")
    export.add_argument("--database", metavar="FILE",
                        help="a consistent copy of the whole database (a backup)")
    export.add_argument("--output", "-o", metavar="FILE", help="write here, not to stdout")

    names = commands.add_parser("names", help="name the players (kept in the state folder; "
                                              "a running table takes them at once)")
    names.add_argument("names", nargs="*", metavar="SEAT=NAME",
                       help="e.g. 1=Ana 2=Ben; SEAT= gives a seat its default name back")
    names.add_argument("--clear", action="store_true", help="every seat its default name")
    names.add_argument("--state-dir", type=_directory, metavar="DIR",
                       help="where games are saved")
    _add_lang(names)

    web = commands.add_parser("web", help="serve the companion page: the table on every "
                                          "phone at the table (pair a phone on the panel)")
    web.add_argument("--state-dir", type=_directory, metavar="DIR",
                     help="the table's state folder (read only: its seam and its saves)")
    web.add_argument("--config", metavar="FILE", help="a TOML config file")
    web_arguments(web)

    settings = commands.add_parser(
        "settings", help="take the boot partition's robinson-table.toml as the config, if "
                         "it is good (at every boot, before the table)")
    settings.add_argument("--from", dest="source", metavar="FILE",
                          help="the settings file (default /boot/firmware/robinson-table.toml)")
    settings.add_argument("--to", dest="target", metavar="FILE",
                          help="the config it becomes (default /etc/robinson-table/config.toml)")
    settings.add_argument("--refused", metavar="FILE",
                          help="where the table reads a refusal at start (default "
                               "/run/robinson-table-settings-refused)")

    import_ = commands.add_parser("import", help="make a file from robinson export the game "
                                                 "in play (the table must be stopped)")
    import_.add_argument("file", metavar="FILE", help="a saved game (- = standard input)")
    import_.add_argument("--state-dir", type=_directory, metavar="DIR",
                         help="where games are saved")

    restore = commands.add_parser("restore", help="put a copy from robinson export --database "
                                                  "back as the saves (the table must be stopped)")
    restore.add_argument("file", metavar="FILE", help="the copy")
    restore.add_argument("--state-dir", type=_directory, metavar="DIR",
                         help="where games are saved")
    return parser


def _add_hardware(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hardware", choices=HARDWARE,
                        help="pi: the wired pins and panel; emulate: mock pins and the panel in "
                             "the terminal; auto (the config's default): the Pi if this is one")
    parser.add_argument("--emulate", action="store_true", help="the same as --hardware emulate")


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT,
                        help="language of the texts (default: en)")


def replay_game(seats: Sequence[int], first: int | None, rules: Sequence[tuple[str, str]],
                script: str) -> Game:
    """The game a ``robinson replay`` command line describes."""
    changes = dict(rules)
    if len(changes) != len(rules):
        raise UsageError("a house rule is given twice with --rule")
    return play_script(Game(tuple(seats), first, HouseRules.from_strings(changes)), script)


def _script(args: argparse.Namespace) -> str:
    """The replay script: from --script, or from the file (or stdin) --script-file names."""
    if args.script is not None:
        script: str = args.script
        return script
    name = args.script_file
    try:
        if name == "-":
            text = sys.stdin.read(MAX_SCRIPT_BYTES + 1)
        else:
            with open(name, encoding="utf-8") as file:
                text = file.read(MAX_SCRIPT_BYTES + 1)
    except OSError as error:
        raise UsageError(f"cannot read --script-file {quote(name)}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"--script-file {quote(name)} is not UTF-8 text") from None
    if len(text) > MAX_SCRIPT_BYTES:
        raise UsageError(f"--script-file {quote(name)} is longer than "
                         f"{MAX_SCRIPT_BYTES:,} characters; no game is that long")
    return text


def _replay(args: argparse.Namespace) -> int:
    if args.display and not args.pages:
        raise UsageError("--display is for --pages: which panel to show the pages on")
    game = replay_game(args.seats, args.first, args.rule, _script(args))
    if args.pages:
        from firmware.config import Display, display_option
        from firmware.tools import pages  # Pillow and the fonts load only for the pages

        display = display_option(args.display) if args.display else Display()
        shown = pages.results(game, args.lang, display.layout)
        if args.json:
            print(json.dumps({"screens": [pages.as_json(*result) for result in shown]},
                             ensure_ascii=False))
        else:
            for result in shown:
                print("\n".join(pages.as_text(*result)))
        return 0
    if args.json:
        print(json.dumps(summary(game), ensure_ascii=False))
    else:
        print("\n".join(account(game, args.lang)))
    return 0


def _odds(args: argparse.Namespace) -> int:
    from firmware.table.die import rollouts
    from robinson_core import CHOICES
    from robinson_core.actions import DECISION_SQUARE
    from robinson_core.kernel import odds

    game = replay_game(args.seats, args.first, args.rule, args.script)
    state = game.state
    if state.pending not in CHOICES:
        raise UsageError(f"after this script {state.waiting_for()}: odds are for a decision "
                         "(on 7, 20 or 23)")
    chances = odds(state, args.rollouts, rollouts(args.seed).random)
    print(json.dumps({
        "seat": state.to_move, "square": DECISION_SQUARE[state.pending],
        "rollouts": args.rollouts, "seed": args.seed,
        "options": {choice.value: {"win": round(chance.win, 4), "error": round(chance.error, 4)}
                    for choice, chance in zip(CHOICES[state.pending], chances, strict=True)}}))
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.format == "markdown":
        if args.lang != DEFAULT:
            raise UsageError(f"the full rules reference (--format markdown) is in English only; "
                             f"robinson rules --lang {args.lang} says the board, how a game "
                             "goes and the house rules in that language")
        print(reference.markdown(), end="")
        return 0
    lang = args.lang
    print(ui(lang, "board_title"))
    for square in BOARD[1:]:
        told = instruction(lang, square.number)
        line = f"{square.number:>3}  {caption(lang, square.number)}"
        print(line + (f" — {told}" if told else ""))
    print()
    print(texts(lang).HOW_TITLE)
    for said in texts(lang).HOW:
        print(f"  {said}")
    print()
    print(ui(lang, "house_rules_title"))
    default = HouseRules()
    for name in NAMES:
        options = "|".join(allowed_values(name))
        value = format_value(getattr(default, name))
        print(f"  {name}: {ui(lang, 'rule_' + name)} ({options + '; ' if options else ''}"
              f"{ui(lang, 'rule_default', value=value)})")
    return 0


def _add_display(parser: argparse.ArgumentParser) -> None:
    names = ", ".join(PANELS)
    parser.add_argument("--display", metavar="NAME[:WxH]",
                        help=f"emulated: this panel instead of the config's ({names}; "
                             "e.g. ssd1306:128x32)")


def _table(args: argparse.Namespace) -> int:
    from firmware.app import run_table  # gpiozero and luma load only for the table

    return run_table(args)


def _sim(args: argparse.Namespace) -> int:
    from firmware.tools import sim

    seats = tuple(args.seats or (1, 2, 3, 4))
    game = replay_game(seats, args.first, args.rule, "")  # validates seats, first and rules
    jobs = sim.jobs_wanted(args.jobs)
    if args.plot and not args.plot.lower().endswith(".png"):
        raise UsageError(f"--plot writes a PNG: give a FILE.png, not {args.plot!r}")
    tally, seconds = sim.simulate(game.seats, game.first or seats[0], game.rules, args.games,
                                  seed=args.seed, jobs=jobs, progress=sys.stderr.isatty())
    text = sim.report(tally, game.seats, game.rules, args.seconds_per_turn, seconds, jobs,
                      args.seed)
    print(text)
    if args.plot:
        try:
            sim.plot(tally, game.seats, args.plot, text.splitlines()[0])
        except OSError as error:
            raise UsageError(f"cannot write {args.plot}: {error.strerror}") from None
        print(f"charts: {args.plot}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from firmware.tools import bench

    text = bench.run(quick=args.quick)
    print(text)
    if args.markdown:
        try:
            bench.write_markdown(Path(args.markdown), text)
        except OSError as error:
            raise UsageError(f"cannot write {args.markdown}: {error.strerror}") from None
        except ValueError as error:
            raise UsageError(str(error)) from None
        print(f"written into {args.markdown}")
    return 0


def _selftest(args: argparse.Namespace) -> int:
    from firmware.tools.selftest import run_selftest

    return run_selftest(args)


def _reader(given: str | None) -> Any:
    """The state directory opened read-only: nothing in it is made, moved or changed."""
    from firmware.devices import on_raspberry_pi

    return Store(state_dir(given, on_raspberry_pi()), read_only=True, pref_keys=PREF_KEYS)


def _state(args: argparse.Namespace) -> int:
    store = _reader(args.state_dir)
    loaded = store.load()  # the table may be running: read, never write
    if loaded.game is None:
        raise UsageError(loaded.problem or f"no saved game in {store.directory}")
    if loaded.problem:
        _say(f"robinson state: warning: {loaded.problem}")
    if args.json:
        print(json.dumps({**summary(loaded.game), "replay_args": replay_args(loaded.game)},
                         ensure_ascii=False))
    else:
        print("\n".join(account(loaded.game, args.lang)))
    return 0


def _history(args: argparse.Namespace) -> int:
    from firmware.saves.rows import ending

    store = _reader(args.state_dir)
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
    for f in games:
        when = (f.finished_at.strftime("%Y-%m-%d %H:%M") if f.finished_at
                else "on the table    " if not f.number else "?")
        who = f"seat {f.winner} won" if f.winner is not None else f.ended.replace("_", " ")
        print(f"{when}  seats {','.join(map(str, f.game.seats))}  "
              f"{len(f.game.actions)} actions  {who}")
    return 0


def _export(args: argparse.Namespace) -> int:
    store = _reader(args.state_dir)
    target = args.database or args.output
    if target and target != "-" and _inside(Path(target), store.directory):
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


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` (made absolute, links followed) is ``folder`` or under it."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a loop of links: not a place to write either
        return True


MAX_SAVE_BYTES = 1_000_000  # a saved game's text: 2,000 actions are about 12 KB


def _import(args: argparse.Namespace) -> int:
    from firmware.devices import on_raspberry_pi

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


def _restore(args: argparse.Namespace) -> int:
    from firmware.devices import on_raspberry_pi
    from firmware.saves.restore import restore

    done = restore(state_dir(args.state_dir, on_raspberry_pi()), Path(args.file))
    count = f"{done.finished} finished game" + ("" if done.finished == 1 else "s")
    game = (f"the game in play (seats {','.join(map(str, done.game.seats))}, "
            f"{len(done.game.actions)} action{'' if len(done.game.actions) == 1 else 's'})"
            if done.game else "no game in play")
    print(f"restored {quote(args.file, 60)}: {count} and {game} kept now"
          + (f"; the database it replaced is in damaged/ as {done.kept}" if done.kept else ""))
    return 0


def _names(args: argparse.Namespace) -> int:
    from firmware.devices import on_raspberry_pi
    from firmware.table import names

    given: dict[int, str] = {}
    for text in args.names:
        seat, equals, name = text.partition("=")
        number = whole_number(seat)
        if not equals or number is None:
            raise UsageError(f"give names as SEAT=NAME, e.g. 1=Ana, not {quote(text)}")
        if why := names.problem(number, name):
            raise UsageError(why)
        given[number] = name
    changing = bool(given) or args.clear
    directory = state_dir(args.state_dir, on_raspberry_pi())
    if changing and (answer := _names_to_the_table(directory, given, args.clear)) is not None:
        return answer
    store = Store(directory, read_only=not changing,  # listing them makes and moves nothing
                  pref_keys=PREF_KEYS)
    if changing:
        store.lock()  # not beside a running table: it would not see them until it starts
    try:
        kept, wrong = names.from_pref(store.prefs().get(names.PREF, ""))
        for why in wrong:
            _say(f"robinson names: left out: {why}")
        now = {} if args.clear else dict(kept)
        now.update(given)
        now = {seat: name for seat, name in now.items() if name}
        if changing:
            store.save_prefs({names.PREF: names.to_pref(tuple(now.items()))})
    except OSError as error:
        raise UsageError(f"cannot save in {store.directory}: {error.strerror}") from None
    finally:
        store.close()
        store.unlock()
    for seat, name in sorted(now.items()):
        print(f"{seat}  {name}")
    if not now:
        print(f"no names kept: the config's [table] seat_names, else {seat_names(args.lang)(1)}, "
              f"{seat_names(args.lang)(2)} …")
    if changing:
        print("the table shows them from its next start")
    return 0


def _names_to_the_table(directory: Path, given: dict[int, str], clear: bool) -> int | None:
    """The names through the seam of the table that runs on ``directory`` (it keeps them,
    and shows them at once); None if no table runs there."""
    from firmware.seam.client import ask

    names = {str(seat): "" for seat in SEATS} if clear else {}
    names.update({str(seat): name for seat, name in given.items()})
    answer = ask(directory, "names", names=names)
    if answer is None:
        return None
    why, view = answer
    if why is not None:
        raise UsageError(f"the table refused the names: {why}")
    now = (view or {}).get("given") or {}
    for seat, name in sorted(now.items(), key=lambda item: int(item[0])):
        print(f"{seat}  {name}")
    if not now:
        print("no names kept: the default names")
    print("the table shows them now")
    return 0


def _web(args: argparse.Namespace) -> int:
    from firmware.devices import on_raspberry_pi
    from firmware.web.serve import serve

    return serve(state_dir(args.state_dir, on_raspberry_pi()), args.config, args.host,
                 args.port)


def _settings(args: argparse.Namespace) -> int:
    from firmware import boot_settings

    source = Path(args.source) if args.source else boot_settings.BOOT_FILE
    target = Path(args.target) if args.target else boot_settings.CONFIG
    refused = Path(args.refused) if args.refused else boot_settings.REFUSED
    outcome, said = boot_settings.settle(source, target, refused)
    print(f"robinson settings: {said}", flush=True)
    amplifier = boot_settings.amplifier_to_switch(target)
    if ((outcome is not None and outcome.changed) or amplifier) \
            and boot_settings.INSTALLED.exists():
        # A bundle's install: robinson-first-boot runs it again after this, for what the
        # new settings change beyond the config (the panel's bus, the voice, the port; the
        # amplifier a phone switched, whose overlay only the install writes).
        boot_settings.INSTALLED.unlink()
        print("robinson settings: the install runs again for "
              + ("the amplifier" if amplifier else "them"), flush=True)
    if outcome is not None and not outcome.taken:
        boot_settings.beep(target, outcome.line or 0)
        return 1
    return 0


_COMMANDS = {"replay": _replay, "odds": _odds, "rules": _rules, "table": _table,
             "selftest": _selftest, "state": _state, "history": _history, "export": _export,
             "import": _import, "sim": _sim, "bench": _bench, "names": _names, "restore": _restore,
             "web": _web, "settings": _settings}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as error:
        _say(str(error))
        return 2
    try:
        return _COMMANDS[args.command](args)
    except (TableError, RobinsonError) as error:
        _say(f"robinson {args.command}: error: {error}")
        return error.status if isinstance(error, TableError) else 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _say(message: str) -> None:
    """One line on stderr, whatever the message quotes (a path, an argument)."""
    printable = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    print(printable, file=sys.stderr)


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())
