"""The ``robinson`` command: one entry point, a subcommand per job.

Bad input of any kind ends in exit status 2 and one line on stderr; a part of the table
that is missing (the panel, the pins) in status 3, which the unit tries again.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from firmware.commands import say, values
from firmware.errors import TableError, UsageError
from robinson_core import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RobinsonError,
)
from robinson_core.texts import DEFAULT, LANGUAGES


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: error: {message} (see {self.prog} --help)")


def _add_setup(command: argparse.ArgumentParser) -> None:
    """A game's setup, as replay and odds take it: who plays, who starts, house rules."""
    who = command.add_mutually_exclusive_group(required=True)
    who.add_argument("--players", type=values.players, metavar="N", dest="seats",
                     help=f"seats 1..N play ({MIN_PLAYERS}-{MAX_PLAYERS})")
    who.add_argument("--seats", type=values.seats, metavar="1,3,5", help="these seats play")
    command.add_argument("--first", type=values.seat, metavar="SEAT",
                         help="who starts (default: the lowest seat)")
    command.add_argument("--rule", type=values.rule, action="append", default=[],
                         metavar="NAME=VALUE", help="change a house rule (see robinson rules)")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, that command's arguments alone (the others
    named, for the usage line): a command loads no other command's choices and defaults
    (``robinson sim`` neither the config's, the store's nor the page's modules)."""
    parser = _Parser(prog="robinson", description="Robinson Table: the banker of the dice race.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for name, (helped, arguments) in ARGUMENTS.items():
        command = commands.add_parser(name, help=helped)
        if only is None or only == name:
            arguments(command)
    return parser


def _replay_arguments(replay: argparse.ArgumentParser) -> None:
    from firmware.display.panels import PANELS

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


def _odds_arguments(odds: argparse.ArgumentParser) -> None:
    from robinson_core.kernel import ROLLOUTS

    _add_setup(odds)
    odds.add_argument("--script", metavar="TOKENS", required=True,
                      help="the game up to the decision: die faces 1-6 and decision words")
    odds.add_argument("--rollouts", type=values.rollouts, default=ROLLOUTS, metavar="N",
                      help=f"games played out from here per option (default {ROLLOUTS:,})")
    odds.add_argument("--seed", type=values.seed, default=1, metavar="N", help="(default 1)")


def _rules_arguments(rules: argparse.ArgumentParser) -> None:
    rules.add_argument("--format", choices=("text", "markdown"), default="text",
                       help="markdown: the full rules reference (RULES.md), in English only")
    _add_lang(rules)


def _table_arguments(table: argparse.ArgumentParser) -> None:
    table.add_argument("--config", metavar="FILE", help="a TOML config file")
    table.add_argument("--state-dir", type=values.directory, metavar="DIR",
                       help="where games are saved")
    table.add_argument("--lang", choices=LANGUAGES, help="language (default: from config)")
    _add_hardware(table)
    table.add_argument("--seats", type=values.seats, default=(), metavar="1,2,3",
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
    table.add_argument("--seed", type=values.seed, metavar="N",
                       help="emulated demos only: a reproducible die")
    table.add_argument("--no-animation", action="store_true", help="show rolls at once")
    _add_display(table)


def _selftest_arguments(selftest: argparse.ArgumentParser) -> None:
    selftest.add_argument("--config", metavar="FILE", help="a TOML config file")
    selftest.add_argument("--lang", choices=LANGUAGES, help="language (default: from config)")
    _add_hardware(selftest)
    selftest.add_argument("--seats", type=values.seats, default=(), metavar="1,2,3",
                          help="emulated: switch these seats on")
    selftest.add_argument("--capture", metavar="DIR", help="write every frame shown as a PNG")
    selftest.add_argument("--dice", action="store_true",
                          help="test the die's fairness (600,000 rolls, 99 %% confidence)")
    selftest.add_argument("--seed", type=values.seed, metavar="N",
                          help="emulated, with --dice: test the seeded demo die instead")


def _sim_arguments(sim: argparse.ArgumentParser) -> None:
    who = sim.add_mutually_exclusive_group()
    who.add_argument("--players", type=values.players, metavar="N", dest="seats",
                     help="seats 1..N play (default 4)")
    who.add_argument("--seats", type=values.seats, metavar="1,3,5", help="these seats play")
    sim.add_argument("--first", type=values.seat, metavar="SEAT", help="who starts")
    sim.add_argument("--rule", type=values.rule, action="append", default=[], metavar="NAME=VALUE")
    sim.add_argument("--games", type=values.count, default=10_000, metavar="N",
                     help="how many games (default 10000)")
    sim.add_argument("--seconds-per-turn", type=values.seconds, default=20.0, metavar="S",
                     help="to turn rolls into minutes (default 20)")
    sim.add_argument("--jobs", type=values.jobs, default=1, metavar="N",
                     help="processes to use; 0 = all cores (default 1)")
    sim.add_argument("--seed", type=values.seed, default=1, metavar="N", help="(default 1)")
    sim.add_argument("--plot", metavar="FILE.png", help="also draw charts into FILE.png")


def _bench_arguments(bench: argparse.ArgumentParser) -> None:
    bench.add_argument("--quick", action="store_true", help="a shorter run (for the tests)")
    bench.add_argument("--markdown", metavar="FILE.md",
                       help="also write the tables into FILE.md, between its bench markers "
                            "(docs/performance.md)")


def _state_arguments(state: argparse.ArgumentParser) -> None:
    state.add_argument("--state-dir", type=values.directory, metavar="DIR",
                       help="where games are saved")
    state.add_argument("--json", action="store_true",
                       help="the robinson replay --json object, plus replay_args")
    state.add_argument("--lang", choices=LANGUAGES,
                       help="language of the texts (default: the table's, as it keeps it)")


def _history_arguments(history: argparse.ArgumentParser) -> None:
    from firmware.saves.rows import KEEP_FINISHED

    history.add_argument("--state-dir", type=values.directory, metavar="DIR",
                         help="where games are saved")
    history.add_argument("--json", action="store_true", help="print one JSON object")
    history.add_argument("--last", type=values.count, default=10, metavar="N",
                         help=f"the newest N games (default 10; the table keeps {KEEP_FINISHED})")


def _export_arguments(export: argparse.ArgumentParser) -> None:
    export.add_argument("--state-dir", type=values.directory, metavar="DIR",
                        help="where games are saved")
    export.add_argument("--finished", type=values.count, metavar="N",
                        help="the N-th newest game put away instead of the game in play")
    export.add_argument("--database", metavar="FILE",
                        help="a consistent copy of the whole database (a backup)")
    export.add_argument("--output", "-o", metavar="FILE", help="write here, not to stdout")


def _names_arguments(names: argparse.ArgumentParser) -> None:
    names.add_argument("names", nargs="*", metavar="SEAT=NAME",
                       help="e.g. 1=Ana 2=Ben; SEAT= gives a seat its default name back")
    names.add_argument("--clear", action="store_true", help="every seat its default name")
    names.add_argument("--state-dir", type=values.directory, metavar="DIR",
                       help="where games are saved")
    _add_lang(names)


def _web_arguments(web: argparse.ArgumentParser) -> None:
    from firmware.web.serve import add_arguments as web_arguments

    web.add_argument("--state-dir", type=values.directory, metavar="DIR",
                     help="the table's state folder (read only: its seam and its saves)")
    web.add_argument("--config", metavar="FILE", help="a TOML config file")
    web_arguments(web)


def _settings_arguments(settings: argparse.ArgumentParser) -> None:
    settings.add_argument("--from", dest="source", metavar="FILE",
                          help="the settings file (default /boot/firmware/robinson-table.toml)")
    settings.add_argument("--to", dest="target", metavar="FILE",
                          help="the config it becomes (default /etc/robinson-table/config.toml)")
    settings.add_argument("--refused", metavar="FILE",
                          help="where the table reads a refusal at start (default "
                               "/run/robinson-table-settings-refused)")


def _import_arguments(import_: argparse.ArgumentParser) -> None:
    import_.add_argument("file", metavar="FILE", help="a saved game (- = standard input)")
    import_.add_argument("--state-dir", type=values.directory, metavar="DIR",
                         help="where games are saved")


def _restore_arguments(restore: argparse.ArgumentParser) -> None:
    restore.add_argument("file", metavar="FILE", help="the copy")
    restore.add_argument("--state-dir", type=values.directory, metavar="DIR",
                         help="where games are saved")


ARGUMENTS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "replay": ("play a scripted game and print its final state", _replay_arguments),
    "odds": ("a decision's chances to win, by rollouts (JSON)", _odds_arguments),
    "rules": ("print the board and the house rules", _rules_arguments),
    "table": ("run the table (emulated where there is no Pi)", _table_arguments),
    "selftest": ("show every input live, light every output", _selftest_arguments),
    "sim": ("play many games by the rules, report", _sim_arguments),
    "bench": ("measure the performance targets, print a table", _bench_arguments),
    "state": ("print the saved game", _state_arguments),
    "history": ("list the games put away, newest first", _history_arguments),
    "export": ("write the saved game (or the database) out", _export_arguments),
    "names": ("name the players (kept in the state folder; a running table takes them "
              "at once)",
              _names_arguments),
    "web": ("serve the companion page: the table on every phone at the table (pair "
            "a phone on the panel)",
            _web_arguments),
    "settings": ("take the boot partition's robinson-table.toml as the config, if it is "
                 "good (at every boot, before the table)",
                 _settings_arguments),
    "import": ("make a file from robinson export the game in play (the table must be "
               "stopped)",
               _import_arguments),
    "restore": ("put a copy from robinson export --database back as the saves (the "
                "table must be stopped)",
                _restore_arguments),
}
"""Each command: its help, and what adds its arguments."""


def _add_hardware(parser: argparse.ArgumentParser) -> None:
    from firmware.config.settings import HARDWARE

    parser.add_argument("--hardware", choices=HARDWARE,
                        help="pi: the wired pins and panel; emulate: mock pins and the panel in "
                             "the terminal; auto (the config's default): the Pi if this is one")
    parser.add_argument("--emulate", action="store_true", help="the same as --hardware emulate")


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, default=DEFAULT,
                        help="language of the texts (default: en)")


def _add_display(parser: argparse.ArgumentParser) -> None:
    from firmware.display.panels import PANELS

    names = ", ".join(PANELS)
    parser.add_argument("--display", metavar="NAME[:WxH]",
                        help=f"emulated: this panel instead of the config's ({names}; "
                             "e.g. ssd1306:128x32)")


COMMANDS = {"replay": "game", "odds": "game", "rules": "game", "sim": "game",
            "state": "saves", "history": "saves", "export": "saves", "import": "saves",
            "restore": "saves", "names": "names", "table": "running", "web": "running",
            "selftest": "running", "bench": "running", "settings": "running"}
"""Each command's room (``firmware.commands``), loaded only for its own command: its body
is ``run_<command>`` there."""


NUMBERS = re.compile(r"-[\d,.]+")
"""A value that begins with a minus and holds only numbers ("-1,2"): no option of ours
looks like one."""


def _joined(argv: Sequence[str]) -> list[str]:
    """``--seats -1,2`` as ``--seats=-1,2``: argparse would take "-1,2" for an option it
    does not know; joined, it reaches --seats, which refuses it in its own words."""
    joined: list[str] = []
    for word in argv:
        if joined and joined[-1].startswith("--") and "=" not in joined[-1] \
                and NUMBERS.fullmatch(word):
            joined[-1] += "=" + word
        else:
            joined.append(word)
    return joined


def main(argv: Sequence[str] | None = None) -> int:
    words = _joined(sys.argv[1:] if argv is None else argv)
    chosen = next((word for word in words if not word.startswith("-")), None)
    parser = build_parser(chosen if chosen in ARGUMENTS else None)
    try:
        args = parser.parse_args(words)
    except UsageError as error:
        say(str(error))
        return 2
    try:
        room = importlib.import_module(f"firmware.commands.{COMMANDS[args.command]}")
        command: Callable[[argparse.Namespace], int] = getattr(room, f"run_{args.command}")
        return command(args)
    except (TableError, RobinsonError) as error:
        say(f"robinson {args.command}: error: {error}")
        return error.status if isinstance(error, TableError) else 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())
