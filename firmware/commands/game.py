"""The commands about a game itself: ``replay`` (a scripted game, its pages), ``odds``
(a decision's chances), ``rules`` (the rules and the house rules in force) and ``sim``
(many games at once, tallied)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from firmware.errors import UsageError
from firmware.tools.summary import summary
from robinson_core import (
    BOARD,
    Game,
    HouseRules,
    play_script,
    reference,
)
from robinson_core.errors import quote
from robinson_core.house_rules import NAMES, allowed_values, format_value
from robinson_core.narrate import account
from robinson_core.texts import DEFAULT, caption, instruction, texts, ui


def replay_game(seats: Sequence[int], first: int | None, rules: Sequence[tuple[str, str]],
                script: str) -> Game:
    """The game a ``robinson replay`` command line describes."""
    changes = dict(rules)
    if len(changes) != len(rules):
        raise UsageError("a house rule is given twice with --rule")
    return play_script(Game(tuple(seats), first, HouseRules.from_strings(changes)), script)


def script(args: argparse.Namespace) -> str:
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


def run_replay(args: argparse.Namespace) -> int:
    if args.display and not args.pages:
        raise UsageError("--display is for --pages: which panel to show the pages on")
    game = replay_game(args.seats, args.first, args.rule, script(args))
    if args.pages:
        from firmware.config.reading import display_option
        from firmware.config.settings import Display
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


def run_odds(args: argparse.Namespace) -> int:
    from firmware.shell.die import rollouts
    from robinson_core import CHOICES
    from robinson_core.actions import DECISION_SQUARE
    from robinson_core.compiled import odds

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


def run_rules(args: argparse.Namespace) -> int:
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


def run_sim(args: argparse.Namespace) -> int:
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


MAX_SCRIPT_BYTES = 4_000_000
"""The longest script read from a file: far beyond any game (100,000 actions are ~600 KB)."""
