"""The emulator on its own: the stand-in panel, the terminal view, the hands, frame capture."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from firmware.config.settings import Config
from firmware.display.layout import CLASSIC
from firmware.emulate.capture import Capture
from firmware.emulate.rig import emulate
from firmware.emulate.terminal import TerminalPanel, braille, half_blocks
from firmware.errors import ConfigError


def test_half_blocks_put_two_pixel_rows_in_one_character() -> None:
    image = Image.new("1", (CLASSIC.width, CLASSIC.height))
    image.putpixel((0, 0), 1)  # top half of the first character
    image.putpixel((1, 1), 1)  # bottom half of the second
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)  # both halves of the third
    rows = half_blocks(image)
    assert len(rows) == CLASSIC.height // 2 and all(len(r) == CLASSIC.width for r in rows)
    assert rows[0][:4] == "▀▄█ " and set(rows[1]) == {" "}


def test_the_terminal_view_redraws_only_what_changed() -> None:
    out = io.StringIO()
    terminal = TerminalPanel(out, size=lambda: (200, 60))
    image = Image.new("1", (CLASSIC.width, CLASSIC.height))
    terminal.draw(image, True, False)
    first = out.getvalue()
    terminal.draw(image, True, False)
    assert out.getvalue() == first  # nothing changed, nothing written
    image.putpixel((5, 40), 1)
    terminal.draw(image, True, False)
    assert 0 < len(out.getvalue()) - len(first) < len(first)


def test_the_emulated_rig_is_the_real_driver_on_the_stand_in_bus() -> None:
    rig = emulate(Config(), seats_on=(1, 3))
    try:
        rig.panel.show(Image.new("1", (CLASSIC.width, CLASSIC.height), 1))
        assert rig.bus.on and rig.bus.image().getbbox() == (0, 0, CLASSIC.width, CLASSIC.height)
        assert [bool(p.state) for p in rig.hands.seat_pins[:3]] == [False, True, False]
        rig.hands.toggle_seat(2)
        assert not rig.hands.seat_pins[1].state  # low: closed to ground, someone sits
    finally:
        rig.close()


def test_a_seat_with_no_switch_is_one_clear_line() -> None:
    with pytest.raises(ConfigError, match=r"no switch for seat 7; seats 1-6 are wired"):
        emulate(Config(), seats_on=(1, 7))


def test_capture_numbers_frames_and_logs_what_the_table_held(tmp_path: Path) -> None:
    capture = Capture(tmp_path)
    capture.note = lambda: "actions=3,5"
    capture(Image.new("1", (CLASSIC.width, CLASSIC.height)))
    capture(Image.new("1", (CLASSIC.width, CLASSIC.height), 1))
    capture.close()
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["frame-00001.png",
                                                               "frame-00002.png"]
    assert (tmp_path / "frames.log").read_text().splitlines() == [
        "frame-00001.png actions=3,5", "frame-00002.png actions=3,5"]
    again = Capture(tmp_path)
    again.close()
    assert again.count == 2  # a restart goes on numbering


def test_a_terminal_too_small_says_how_big_and_a_resize_draws_it_all() -> None:
    out = io.StringIO()
    size = [(60, 20)]
    terminal = TerminalPanel(out, size=lambda: size[0])
    image = Image.new("1", (CLASSIC.width, CLASSIC.height), 1)
    terminal.draw(image)
    terminal.draw(image)  # said once, not at every frame
    assert out.getvalue().count("Make the terminal at least 66×19 to see the panel "
                                "(130×35 to see every pixel; it is 60×20).") == 1
    assert "█" not in out.getvalue()
    size[0] = (140, 45)  # the user widens it; SIGWINCH brings resize()
    terminal.resize()
    drawn = out.getvalue().split("it is 60×20).")[1]
    assert drawn.count("█" * CLASSIC.width) == CLASSIC.height // 2 and "┌" in drawn and "└" in drawn


def test_an_80_by_24_terminal_shows_the_panel_in_braille_cells() -> None:
    """2x4 pixels a character: a 128x64 panel is 16 lines of 64 cells, framed, with the
    keys under it, in a terminal of 80x24; each pixel is its own dot."""
    out = io.StringIO()
    terminal = TerminalPanel(out, "space/enter: press", size=lambda: (80, 24))
    image = Image.new("1", (CLASSIC.width, CLASSIC.height))
    for x, y in ((0, 0), (1, 3), (127, 63), (64, 32), (65, 33)):
        image.putpixel((x, y), 1)
    terminal.draw(image)
    drawn = out.getvalue()
    assert "Make the terminal" not in drawn and "┌" + "─" * 64 + "┐" in drawn
    rows = braille(image)
    assert len(rows) == 16 and {len(row) for row in rows} == {64}
    assert rows[0][0] == chr(0x2800 | 0x01 | 0x80)  # dot 1 (0, 0) and dot 8 (1, 3)
    assert rows[8][32] == chr(0x2800 | 0x01 | 0x10)  # (64, 32): dot 1; (65, 33): dot 5
    assert rows[15][63] == chr(0x2800 | 0x80) and rows[1][1] == chr(0x2800)
    assert all(row in drawn for row in rows) and "space/enter: press" in drawn
    assert sum(bin(ord(c) - 0x2800).count("1") for row in rows for c in row) == 5


def test_under_a_braille_panel_the_page_is_text_where_the_terminal_has_the_lines() -> None:
    """At 80x24 a letter is some 3x2 braille cells of dots: a Croatian result read
    "c" for "č" (issue 61, item 11). Under the panel and its keys, the page as text, as
    many of its lines as the terminal has (5 at 80x24), each cut to its width; a page
    of fewer lines clears the ones left; a terminal with room for every pixel shows no
    text."""
    from firmware.display.fonts import Fonts
    from firmware.display.screens import result_screen
    from firmware.display.words import Words
    from firmware.session import _page_words
    from robinson_core import Game, Roll

    out = io.StringIO()
    terminal = TerminalPanel(out, "space/enter: press", size=lambda: (80, 24))
    image = Image.new("1", (CLASSIC.width, CLASSIC.height))
    terminal.draw(image)
    game = Game((1, 2)).play(Roll(3)).play(Roll(6)).play(Roll(4))
    screen = result_screen(Words("hr", {1: "Čedo", 2: "Ivo"}), game)
    _page_words(terminal.words, Fonts(), CLASSIC, screen, 0)
    said = out.getvalue().split("space/enter: press")[1]
    assert "\x1b[20;1H┌ Čedo" in said and "Čedo" in said and "└ ▶" in said, said
    lines = [part.split("H", 1)[1].rstrip() for part in said.split("\x1b[")[1:]]
    assert len(lines) == 5 and all(len(line) <= 80 for line in lines), lines
    out.truncate(0)
    terminal.words(["┌ Ivo", "└ ▶ Čedo"])  # a shorter page: the lines left are cleared
    cleared = out.getvalue()
    assert "\x1b[22;1H" + " " * 80 in cleared and "\x1b[24;1H" + " " * 80 in cleared
    wide = io.StringIO()
    roomy = TerminalPanel(wide, "keys", size=lambda: (140, 45))
    roomy.draw(image)
    roomy.words(["┌ Čedo → 4"])
    assert "Čedo" not in wide.getvalue()


def test_a_demo_plays_in_a_folder_of_its_own_and_leaves_the_game_in_play(
        tmp_path: Path) -> None:
    """``--demo`` without ``--state-dir``: the game in play in the usual folder is not put
    away (the demo's first long press would have done that, unasked)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from firmware.saves.store import Store
    from robinson_core import Game, Roll

    usual = tmp_path / "state" / "robinson-table"
    in_play = Game((1, 2)).play(Roll(3)).play(Roll(5))
    store = Store(usual)
    store.save(in_play)
    store.close()
    frames = tmp_path / "frames"
    table = subprocess.Popen(
        [Path(sys.executable).with_name("robinson"), "table", "--emulate", "--demo",
         "--seed", "1", "--no-animation", "--capture", str(frames)],
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with table:
        began = time.monotonic()  # until the demo has begun its game and rolled a few times
        while len(list(frames.glob("*.png"))) < 12 and time.monotonic() - began < 90:
            if table.poll() is not None:
                break
            time.sleep(0.2)
        table.send_signal(signal.SIGTERM)
        _, errors = table.communicate(timeout=30)
    assert table.returncode == 0, errors
    assert len(list(frames.glob("*.png"))) >= 12
    after = Store(usual, read_only=True)
    assert after.load().game == in_play and after.finished() == []
    after.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frames", "state"]


def test_a_piped_press_waits_until_the_table_has_taken_the_last() -> None:
    """From a pipe each press waits for the table: after a press, until the table has
    taken it, not merely until the flag is set (it was set from before the press, while
    the release was still on its way through the debounce: two presses ran together)."""
    import threading

    from firmware.emulate.keyboard import read_keys
    from firmware.shell.pace import Pace

    pace = Pace()
    pace.took(pressed=False, animating=False)  # the table is idle: ready
    presses = [threading.Event(), threading.Event()]
    stopped = threading.Event()

    class Hands:
        long = 0.01

        def press(self, seconds: float) -> None:
            next(p for p in presses if not p.is_set()).set()

    class Loop:
        def post(self, call: object) -> None:
            stopped.set()

        def stop(self) -> None: ...

    reader = threading.Thread(target=read_keys, daemon=True,
                              args=(io.StringIO("hh"), Hands(), pace, Loop()))
    reader.start()
    assert presses[0].wait(5)
    pace.took(pressed=False, animating=False)  # a timer's input, not the press
    assert not presses[1].wait(0.5)  # the first press is not taken yet: the second waits
    pace.took(pressed=True, animating=False)  # the table takes it
    assert presses[1].wait(5)
    pace.took(pressed=True, animating=False)
    assert stopped.wait(5)
    reader.join(5)


def test_the_readmes_piped_example_begins_with_seat_1_and_rolls_three_times(
        tmp_path: Path) -> None:
    """The README's ``printf '…' | ./table.sh --seats 1,2`` does what its words say: the
    example once spent a long press on the title, so its next key passed the start to
    seat 2 (issue 61, item 11)."""
    import re
    import subprocess
    import sys

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    [(keys, seats)] = re.findall(r"`printf '([^']*)' \| \./table\.sh --seats ([\d,]+)`", readme)
    run = subprocess.run(
        [Path(sys.executable).with_name("robinson"), "table", "--emulate", "--seats", seats,
         "--state-dir", str(tmp_path / "state"), "--no-animation"],
        input=keys, capture_output=True, text=True, timeout=60, check=True)
    titles = [line for line in run.stdout.splitlines() if line.startswith("┌ ")]
    began = titles.index("┌ Player 1 · start")  # seat 1 starts, as the README says
    assert "Player 2" not in "".join(titles[:began])  # no other starter was shown first
    rolls = [t for t in titles[began + 1:] if re.match(r"┌ Player \d → ", t)]
    assert len(rolls) == 3, titles
