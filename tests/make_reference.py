"""Write the recorded reference game: ``.venv/bin/python -m tests.make_reference``.

The script was drawn once from a seeded generator, chosen because its game
passes Friday's oath, a swap on 36, a death on 42 and a win with a share-out;
what the engine makes of it is then pinned by tests/core/test_reference_game.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from firmware.commands.game import replay_game
from firmware.tools.summary import summary
from robinson_core import CHOICES, Action, Choice, Game, HouseRules, Pending, Roll, apply
from robinson_core import events as ev
from robinson_core.narrate import account, describe, waiting
from robinson_core.texts import LANGUAGES, fill

HERE = Path(__file__).with_name("reference")
SEATS = (1, 2, 3, 4)
WANTED = (ev.FridaySworn, ev.Swapped, ev.Eliminated, ev.Shared, ev.SatOut)


def draw_script(seed: int) -> tuple[str, set[type]]:
    rng = random.Random(seed)
    state, tokens, seen = Game(SEATS).state, list[str](), set[type]()
    while state.pending is not Pending.OVER:
        if state.pending is Pending.ROLL:
            action: Action = Roll(rng.randint(1, 6))
        else:
            action = rng.choice(CHOICES[state.pending])
        state, events = apply(state, action)
        tokens.append(action.token)
        seen.update(type(e) for e in events)
    return " ".join(tokens), seen


def narration() -> list[str]:
    """Every kind of event, in every language, said as the table says it: the events
    no single game meets (a short payment, dead chips, each choice, each way a game
    waits or ends), pinned word for word beside the reference game."""
    events: list[ev.Event] = [
        ev.Rolled(1, 4), ev.Moved(1, 0, 4), ev.Moved(1, 44, 43, bounced=True),
        ev.Moved(1, 4, 0, ev.Cause.SHIPWRECK), ev.Moved(1, 25, 14, ev.Cause.GO_BACK),
        ev.Moved(1, 23, 27, ev.Cause.JUMP), ev.Moved(1, 36, 41, ev.Cause.SWAP),
        ev.Transfer(1, None, 2, 2), ev.Transfer(1, None, 3, 1),
        ev.Transfer(None, 1, 2, 2), ev.Transfer(None, 1, 4, 1),
        ev.Transfer(1, 2, 2, 2), ev.Transfer(1, 2, 3, 1),
        ev.Transfer(2, None, 1, 1, ev.Why.FRIDAY), ev.Transfer(None, 2, 1, 1, ev.Why.FRIDAY),
        ev.Transfer(3, None, 7, 7, ev.Why.DEAD_CHIPS),
        *(ev.Decided(1, choice, square) for choice, square in (
            (Choice.ROLL, 7), (Choice.STAY, 7), (Choice.AGAIN, 20), (Choice.PASS, 20),
            (Choice.JUMP, 23), (Choice.STAY, 23), (Choice.RESTART, 4), (Choice.STAY, 4))),
        ev.WillSitOut(1), ev.SatOut(1), ev.Parrot(1), ev.NoNeighbour(1),
        ev.FridaySworn(1, 2), ev.BondEnded(1, 2, ev.BondEnd.TAKEN), ev.Swapped(1, 2),
        ev.Eliminated(3), ev.Won(1, 30), ev.Shared(1, 2, 15, False), ev.Shared(1, 2, 10, True),
        ev.NoWinner(12),
    ]
    lines = []
    for lang in LANGUAGES:
        lines += [f"{lang} {type(e).__name__}: {describe(e, lang)}" for e in events]
        for script in ("", "6 1 1 2", "3 6 5 6 6 6 6 4 5", "5 5 5 1 6 5 6 6 6 6"):
            state = replay_game((1, 2, 3), None, [], script).state
            lines.append(f"{lang} waiting after {script!r}: {waiting(state, lang)}")
        state = replay_game((1, 2, 3), None, [("square_4", "ask")], "4").state
        lines.append(f"{lang} waiting after '4' (square_4=ask): {waiting(state, lang)}")
        for count in (0, 1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 111, 112):
            lines.append(f"{lang} {count}: {fill(lang, '{n:chips}', n=count)}")
    return lines


def recorded() -> list[Game]:
    """The recorded reference game after each of its actions, the first to the last."""
    game = replay_game(SEATS, None, [], (HERE / "game_4p.script").read_text(
        encoding="utf-8").strip())
    return [Game(game.seats, game.first, game.rules, game.actions[:n])
            for n in range(1, len(game.actions) + 1)]


def seeded_kinds() -> list[tuple[int, Game]]:
    """The first result of each kind in seeded games of 2 to 8 (the glance checker's)
    under each house rule that changes money: a kind is what the game waits for, the
    kinds of event, whether a payment fell short, how many paid, how many were paid,
    whether more than two payments were made."""
    from tests.shell.test_glance import MONEY_RULES, played

    seeded, kinds = [], set()
    for seed in range(2 * len(MONEY_RULES)):
        for game in played(seed):
            paid = [e for e in game.events if isinstance(e, ev.Transfer)]
            kind = (seed % len(MONEY_RULES), game.state.pending,
                    frozenset(type(e).__name__ for e in game.events),
                    any(e.amount < e.asked for e in paid), len(paid) > 2,
                    len({e.payee for e in paid}), len({e.payer for e in paid}))
            if kind not in kinds:
                kinds.add(kind)
                seeded.append((seed, game))
    return seeded


def spoken() -> list[str]:
    """What the voice says at every moment worth hearing, in every language, pinned word
    for word (the voice's own test compares its sound with ``said`` itself; this reads
    ``said`` against what it should say): each result of the reference game, each kind
    of result of the screen gallery (storyteller too), results of seeded games of up
    to 8 under each house rule that changes money, every decision's question and odds,
    the setup, a game taken up, begun, a setting switched. The players are named
    (one name the voice cannot say: it says the seat instead) and by default."""
    from firmware.speech.said import Spoken
    from tests.screen_gallery import games as moments

    reference = recorded()
    seeded = seeded_kinds()
    lines = []
    for lang in LANGUAGES:
        for label, given in (("named", {1: "Ana", 2: "[[Ben]]", 3: "Cid", 4: "はなこ",
                                        5: "Ｈａｎａ", 6: "한나", 7: "ﾊﾅ", 8: "花子"}),
                             ("seats", {})):
            voice = Spoken(lang, given)
            at = f"{lang} {label}"
            for n, so_far in enumerate(reference, start=1):
                lines.append(f"{at} game {n}: {voice.result(so_far)}")
            for name, game in moments().items():
                lines.append(f"{at} {name}: {voice.result(game)}")
                lines.append(f"{at} {name} told: {voice.result(game, storyteller=True)}")
                if game.state.pending in CHOICES:
                    lines.append(f"{at} {name} odds: {voice.odds(game.state, (41, 38))}")
                lines.append(f"{at} {name} resumed: {voice.resumed(game)}")
            for seed, game in seeded:
                lines.append(f"{at} seed {seed} at {len(game.actions)}: {voice.result(game)}")
            lines.append(f"{at} begun: {voice.begun(Game((1, 2, 3)))}")
            for seats, first, ready in (((1, 2, 3), 2, True), ((1, 3), 1, True),
                                        ((2,), None, False), ((2,), 2, False),
                                        ((1, 2), None, True)):
                lines.append(f"{at} setup {seats}: {voice.setup(seats, first, ready)}")
            for key in ("voice_on", "story_on", "story_off", "odds_on", "odds_off"):
                lines.append(f"{at} {key}: {voice.switched(key)}")
    return lines


def shown() -> list[str]:
    """What every screen function makes, field by field (``Screen``'s repr), in every
    language, pinned (the PNG gallery shows a few dozen screens as drawn; this reads
    many more as made): after each action of the reference game its result, the turn
    and the standings (named, one seat by default); each kind of result of the
    gallery (by default) with the turn, the standings, the undo, the odds' prompt and a
    game over; the first result of each kind of the seeded games; the title, setup,
    recall, menu, messages and about screens."""
    import datetime

    from firmware.display import screens
    from firmware.display.words import Words
    from firmware.saves.rows import Ended, Summary, ending
    from tests.screen_gallery import games as moments
    from tests.screen_gallery import menu_items

    reference = recorded()
    seeded = seeded_kinds()
    gallery = moments()
    lines = []
    for lang in LANGUAGES:
        named, plain = Words(lang, {1: "Ana", 2: "Ben", 3: "Cid"}), Words(lang)
        for n, game in enumerate(reference, start=1):
            lines.append(f"{lang} game {n} result: {screens.result_screen(named, game)!r}")
            lines.append(f"{lang} game {n} turn: {screens.turn_screen(named, game.state)!r}")
            if n % 5 == 0:
                lines.append(f"{lang} game {n} standings: "
                             f"{screens.standings_screen(named, game.state)!r}")
        for name, game in gallery.items():
            state = game.state
            lines.append(f"{lang} {name} result: {screens.result_screen(plain, game)!r}")
            lines.append(f"{lang} {name} turn: {screens.turn_screen(plain, state)!r}")
            lines.append(f"{lang} {name} standings: {screens.standings_screen(plain, state)!r}")
            lines.append(f"{lang} {name} undo: {screens.undo_screen(plain, game)!r}")
            lines.append(f"{lang} {name} over: {screens.over_screen(plain, state)!r}")
            if state.pending in CHOICES:
                lines.append(f"{lang} {name} odds: {screens.odds_prompt(plain, state, (41, 38))!r}")
        for seed, game in seeded:
            lines.append(f"{lang} seed {seed} at {len(game.actions)}: "
                         f"{screens.result_screen(plain, game)!r}")
        for resume, over in ((False, False), (True, False), (True, True)):
            lines.append(f"{lang} title {resume} {over}: "
                         f"{screens.title_screen(named, resume, ('a note',), 'B', over)!r}")
        for w, seats, first, wired in ((named, (1, 2, 3), 2, 8), (plain, (1, 4), 4, 6),
                                       (plain, (2,), 2, 3), (plain, (1, 2), None, 8),
                                       (plain, (), None, 8),
                                       (plain, (1, 2, 3, 4, 5, 6, 7, 8), 8, 8)):
            lines.append(f"{lang} setup {seats} {first}: "
                         f"{screens.setup_screen(w, seats, first, HouseRules(), 'B', wired)!r}")
        put_away = [Summary(day, ending(gallery[kind]), datetime.datetime(2026, 11, day, 20, 15),
                            gallery[kind].state.winner)
                    for day, kind in ((30, "no_winner"), (29, "won_alone"), (28, "bounce"))]
        put_away.append(Summary(27, Ended.ABANDONED, None, None))
        lines.append(f"{lang} recall: {screens.recall_screen(named, reference[-1], put_away)!r}")
        lines.append(f"{lang} recall empty: {screens.recall_screen(named, None, [])!r}")
        short = gallery["everyone_pays"]  # one action: the recall shows it all
        lines.append(f"{lang} recall short: {screens.recall_screen(named, short, put_away)!r}")
        items = menu_items(named)
        for index in (0, 1, len(items) // 2, len(items) - 1):
            lines.append(f"{lang} menu {index}: {screens.menu_screen(named, items, index)!r}")
        for count, index in ((2, 0), (2, 1), (3, 2)):  # as long as the panel's rows, or less
            lines.append(f"{lang} menu of {count} at {index}: "
                         f"{screens.menu_screen(named, items[:count], index)!r}")
        lines.append(f"{lang} abandon: {screens.abandon_screen(named)!r}")
        lines.append(f"{lang} pairing: " + repr(screens.pairing_screen(
            named, "042917", "Xq3_kP9vLm2sT8wZ", "http://robinson.local:8080/")))
        lines.append(f"{lang} rolling: {screens.rolling_screen(named, 2, 5, 1, 'B')!r}")
        lines.append(f"{lang} panel on trial: " + repr(screens.trial_screen(
            named, ("sh1106 128x64", "0x3D 180°"), 15)))
        lines.append(f"{lang} about: "
                     f"{screens.about_screen(named, '1.0', '/var/lib/x', 'SSD1306', ('f',))!r}")
        lines.append(f"{lang} about, fonts: "
                     f"{screens.about_screen(named, '1.0', '/var/lib/x', 'SSD1306')!r}")
    return lines


def main() -> None:
    seed = next(s for s in range(10_000) if set(WANTED) <= draw_script(s)[1])
    script = draw_script(seed)[0]
    game = replay_game(SEATS, None, [], script)
    HERE.mkdir(exist_ok=True)
    (HERE / "game_4p.script").write_text(script + "\n", encoding="utf-8")
    for lang in LANGUAGES:  # every line the game says, in each language
        (HERE / f"game_4p.{lang}.txt").write_text("\n".join(account(game, lang)) + "\n",
                                                  encoding="utf-8")
    (HERE / "narration.txt").write_text("\n".join(narration()) + "\n", encoding="utf-8")
    (HERE / "spoken.txt").write_text("\n".join(spoken()) + "\n", encoding="utf-8")
    (HERE / "shown.txt").write_text("\n".join(shown()) + "\n", encoding="utf-8")
    (HERE / "game_4p.json").write_text(
        json.dumps(summary(game), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"seed {seed}: {len(game.actions)} actions written to {HERE}")


if __name__ == "__main__":
    main()
