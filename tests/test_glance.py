"""Read at a glance: the first page says what matters, a quick press skips nothing, a
decision is headed by who decides, and no text is cut or broken inside a phrase."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from firmware.display import screens
from firmware.display.breaks import NO_ROW_START, phrases
from firmware.display.layout import CLASSIC, Layout
from firmware.display.render import body_width, box, clipped, essential_page, fit, pages, wrap
from firmware.display.words import Words
from firmware.table.machine import Draw, Effect
from robinson_core import CHOICES, Choice, Game, Roll, Status, parse_action
from robinson_core import events as ev
from robinson_core.narrate import describe
from robinson_core.texts import LANGUAGES, chip_nouns

from .rig import FONTS, Rig
from .screen_gallery import NAMES, gallery, menu_items

REFERENCE = Path(__file__).with_name("reference")
ROLLING = {Choice.ROLL, Choice.AGAIN}


def reference_game() -> Iterator[Game]:
    """Each state of the scripted 4-player reference game, after each action."""
    tokens = (REFERENCE / "game_4p.script").read_text().split()
    game = Game((1, 2, 3, 4))
    for token in tokens:
        game = game.play(parse_action(token))
        yield game


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def ends(pieces: Iterable[str]) -> list[int]:
    """Where each piece ends in the text they make, counted without white space (so a
    row's end and a phrase's end compare, however the spaces fell)."""
    return list(itertools.accumulate(len(squash(piece)) for piece in pieces))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_one_has_the_square_the_money_the_pot_and_who_is_next(lang: str) -> None:
    """Read from the screen model: the title, the first page's rows, the footer."""
    w = Words(lang, NAMES)
    compared = 0
    for game in reference_game():
        screen = screens.result_screen(w, game)
        seat = screens.mover(game)
        assert seat is not None
        player, state = game.state.player(seat), game.state
        if any(isinstance(e, ev.Eliminated) for e in game.events):
            assert screen.title == w("dead_title", name=w.name(seat))
        elif state.status is Status.WON:
            assert screen.title == w("won_title", name=w.name(seat))
        else:
            assert screen.title == w("moved_to", name=w.name(seat),
                                     square=w.square(player.position or 0))
        first = squash("".join(pages(screen, FONTS)[0]))
        assert squash(w("ledger", chips=player.chips, pot=state.pot)) in first, first
        if state.status is not Status.PLAYING:
            assert screen.footer == w("keys_new_game")
        else:
            assert state.to_move is not None
            assert w.name(state.to_move) in screen.footer or "\n" in screen.footer  # keys
        compared += 1
    assert compared == len((REFERENCE / "game_4p.script").read_text().split())


def test_no_text_is_cut_with_an_ellipsis_on_any_reference_screen() -> None:
    cut = {name: clipped(screen, FONTS) for name, screen in gallery()}
    assert {name: texts for name, texts in cut.items() if texts} == {}
    assert len(cut) > 100


def phrase_breaks(line: str, rows: list[str], width: int) -> list[str]:
    """The row breaks of ``line`` that fall inside a phrase, said independently of the
    breaker: a row may not start with a small kana or closing punctuation, nor with a
    number (it stays with the word before it, unless that is a separator: · or —), nor
    end on a number whose chips follow;
    and a Japanese line breaks only where BudouX's phrases do (unless a phrase is wider
    than a row)."""
    found = []
    japanese = any(ord(c) >= 0x2E80 for c in line)
    for before, after in itertools.pairwise(rows):
        if after[:1] in NO_ROW_START:
            found.append(f"{before!r} | {after!r}: a row starts with {after[0]!r}")
        separated = before.rstrip().endswith(("·", "—"))  # a separator ends a phrase
        if re.match(r"[\d→↔]", after) and not japanese and not separated:
            found.append(f"{before!r} | {after!r}: a number parted from the word before it")
        if re.search(r"\d\Z", before) and re.match(r"(chips?|žeton|merkk)", after):
            found.append(f"{before!r} | {after!r}: a count parted from its chips")
    if japanese:
        bounds = set(ends(phrases(line)))
        long_phrase = any(FONTS.width(p.strip()) > width for p in phrases(line))
        for row, at in zip(rows[:-1], ends(rows[:-1]), strict=True):
            if at not in bounds and not long_phrase:
                found.append(f"{row!r}: breaks inside a phrase")
    return found


def test_no_line_on_any_reference_screen_breaks_inside_a_phrase() -> None:
    problems, lines = [], 0
    for name, screen in gallery():
        for line in screen.body:
            rows = wrap(line, body_width(screen), FONTS)
            problems += [f"{name}: {p}" for p in phrase_breaks(line, rows, body_width(screen))]
            lines += 1
    assert problems == []
    assert lines > 400


def test_the_checker_sees_a_bad_break() -> None:
    assert phrase_breaks("Seat 2 pays Seat 1 2 chips", ["Seat 2 pays Seat 1 2", "chips"], 99)
    assert phrase_breaks("Benは27番に進み", ["Benは2", "7番に進み"], 99)
    assert phrase_breaks("ヤギがついてくる", ["ヤギがついてく", "る"], 99)
    assert phrase_breaks("もらう。", ["もらう", "。"], 99)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_menu_row_fits_one_row_so_the_menu_never_pages(lang: str) -> None:
    w = Words(lang, NAMES)
    items = menu_items(w)
    for index in range(len(items)):
        screen = screens.menu_screen(w, items, index)
        assert len(pages(screen, FONTS)) == 1
        assert any(row.startswith("▶ ") for row in screen.body)  # the cursor, always
    assert all(FONTS.width("▶ " + item) <= CLASSIC.width for item in items)


# -- at the table: the manual clock, the real table --------------------------------------



def test_a_press_half_a_second_after_any_result_never_skips_a_transfer(
        rigs: list[Rig], tmp_path: Path) -> None:
    """The whole 4-player reference game, each press 0.5 s after the panel changed:
    every transfer line of every result was on the panel before the next action."""
    tokens = [parse_action(t) for t in (REFERENCE / "game_4p.script").read_text().split()]
    faces = [a.face for a in tokens if isinstance(a, Roll)]
    rig = Rig(tmp_path / "state", seats_on=(1, 2, 3, 4), faces=faces, animate=False)
    rigs.append(rig)
    table = rig.table
    shown: dict[int, set[str]] = {}  # actions taken -> every row drawn meanwhile
    run = table._run

    def running(effect: Effect) -> None:  # every page the shell draws, as it draws it
        if isinstance(effect, Draw):
            all_pages = pages(effect.screen, FONTS)
            taken = len(table.game.actions) if table.game else -1
            shown.setdefault(taken, set()).update(all_pages[effect.page % len(all_pages)])
        run(effect)

    table._run = running  # type: ignore[method-assign]
    rig.wait(2.5)
    rig.long()  # the game begins
    presses = index = 0
    while index < len(tokens):
        game = table.game
        assert game is not None
        action, before = tokens[index], len(game.actions)
        short = isinstance(action, Roll) or action is CHOICES[game.state.pending][0]
        while table.game is not None and len(table.game.actions) == before:
            rig.wait(0.5)  # a quick player
            rig.short(read=False) if short else rig.long(read=False)
            presses += 1
        assert table.game is not None
        index += len(table.game.actions) - before  # "roll" on 7 rolls at once: two actions
    game = table.game
    assert game is not None and len(game.actions) == len(tokens)
    skipped, checked = [], 0
    for taken in range(1, len(tokens) + 1):
        for event in game.history[taken][1]:
            if isinstance(event, ev.Transfer):
                line = describe(event, "en", table.words.name)
                checked += 1
                if not set(wrap(line, CLASSIC.width, FONTS)) <= shown.get(taken, set()):
                    skipped.append(f"after action {taken}: {line}")
    assert skipped == []
    assert checked >= 15 and presses > len(tokens)  # transfers met, extra presses taken


def test_a_quick_press_shows_the_unread_money_first_then_rolls(rigs: list[Rig],
                                                               tmp_path: Path) -> None:
    rig = Rig(tmp_path / "state", seats_on=(1, 2, 3), faces=[1, 6], animate=False)
    rigs.append(rig)
    rig.wait(2.5)
    rig.long()
    rig.short(read=False)  # seat 1 to 1: everyone pays the bank 1 (three transfers)
    screen = rig.table.screen
    unread = essential_page(screen, FONTS)
    assert unread >= 1 and rig.table.page == 0
    for page in range(1, unread + 1):
        rig.wait(0.5)
        rig.short(read=False)  # too quick: the rest of the money, not a roll
        assert rig.rolled == 1 and rig.table.page == page
        assert rig.showing(screen, page)
    rig.short(read=False)  # all of it read: now the press rolls
    assert rig.rolled == 2


def test_a_decision_is_headed_by_who_decides_and_rolling_is_one_press(
        rigs: list[Rig], tmp_path: Path) -> None:
    # Ana climbs the tree on 7 (6, then 1); after Ben's and Cid's rolls she decides.
    rig = Rig(tmp_path / "state", seats_on=(1, 2, 3), faces=[6, 2, 3, 1, 2, 3, 5],
              animate=False)
    rigs.append(rig)
    rig.wait(2.5)
    rig.long()
    for _ in range(6):
        rig.short()
    game = rig.table.game
    assert game is not None and screens.decider(game.state) == 1
    assert screens.mover(game) == 3
    w = rig.table.words
    assert rig.table.screen.footer == w("next_decides", name=w.name(1))
    rolled = rig.rolled
    rig.short(read=False)  # shows Ana's screen: headed by her, not a choice yet
    assert rig.showing(screens.turn_screen(w, game.state))
    assert rig.table.screen.title.startswith(w.name(1)) and rig.rolled == rolled
    rig.short(read=False)  # "roll": one press, one roll
    after = rig.table.game
    assert after is not None and after.actions[-2:] == (Choice.ROLL, Roll(5))
    assert rig.rolled == rolled + 1


# -- a number never leaves its arrow or its unit: many games, every language and size --


MOVE = re.compile(r"[^\s:·]+(?: → [^\s:·]+)+")  # 43 → 45 → 41, start → 4, スタート → 4
COUNT = re.compile(r"\d+ ?(?:" + "|".join(sorted(map(re.escape, chip_nouns()), key=len,
                                                 reverse=True)) + ")")  # 3 chips, 3枚
LAYOUTS = {"128x64": CLASSIC, "128x32": Layout(128, 32), "256x64": Layout(256, 64, "RGB", True),
           "128x128": Layout(128, 128, "RGB")}


def held_together(line: str, rows: list[str]) -> tuple[list[str], int]:
    """Where ``rows`` (``line`` wrapped) break a move chain or a count from its noun;
    and how many chains and counts the line has."""
    spans = [m.span() for m in itertools.chain(MOVE.finditer(line),
                                               COUNT.finditer(line))]
    bounds = ends(rows[:-1])
    found = []
    for start, end in spans:  # in the squashed line's coordinates, as the bounds are
        first, last = len(squash(line[:start])), len(squash(line[:end]))
        if any(first < b < last for b in bounds):
            found.append(f"{line[start:end]!r} broken in {rows!r}")
    return found, len(spans)


def played(seed: int) -> Iterator[Game]:
    """Every state of one seeded game, 2 to 6 seats."""
    rng = random.Random(seed)
    seats = tuple(range(1, rng.randint(2, 6) + 1))
    game = Game(seats)
    while game.state.status is Status.PLAYING and len(game.actions) < 600:
        game = game.play(rng.choice(game.state.legal_actions()))
        yield game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_move_or_count_is_broken_across_rows_in_any_size(lang: str) -> None:
    w = Words(lang)
    problems: list[str] = []
    results = held = 0
    for seed in range(16):
        for game in played(seed):
            results += 1
            for size, layout in LAYOUTS.items():
                screen = fit(screens.result_screen(w, game), layout)
                width = body_width(screen, box(layout, screen, FONTS))
                for line in screen.body:
                    found, spans = held_together(line, wrap(line, width, FONTS))
                    problems += [f"{size}: {p}" for p in found]
                    held += spans
    assert problems == [], f"{len(problems)} of {held}: {problems[:3]}"
    assert results > 900 and held > 6000, (results, held)
    print(f"\n{lang}: {results} results, {held} moves and counts held on every size")


def test_the_move_checker_sees_a_broken_move() -> None:
    assert held_together("Mjesto 3: 43 → 45 → 43", ["Mjesto 3: 43 → 45 → 4", "3"])[0]
    assert held_together("Seat 2 pays 3 chips", ["Seat 2 pays 3", "chips"])[0]
    assert not held_together("Mjesto 3: 43 → 45 → 43", ["Mjesto 3:", "43 → 45 → 43"])[0]
