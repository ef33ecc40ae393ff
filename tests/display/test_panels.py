"""Every panel luma drives that the table supports, through its real driver.

Each plays a whole game on the emulated table; after every press the bytes the
driver sent are decoded by the model of its controller's memory
(``firmware.emulate.bus``) and compared with the screen drawn for its size
class. Reference PNGs per size class and language pin the look
(``python -m tests.make_panels`` writes them again, after a deliberate change).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image

from firmware.config.reading import display_option, parse
from firmware.config.settings import Config, Display
from firmware.display.layout import Layout, Size
from firmware.display.paging import fit
from firmware.display.panels import PANELS
from firmware.display.render import render
from firmware.display.screens import result_screen
from firmware.display.words import Words
from firmware.emulate.bus import SpiBus
from firmware.errors import ConfigError
from robinson_core import Status
from robinson_core import events as ev
from robinson_core.texts import LANGUAGES

from ..make_panels import PANELS_TRIED, REFERENCE, reference_images
from ..rig import FONTS, Rig
from ..screen_gallery import NAMES, gallery, games


@pytest.mark.parametrize("option", PANELS_TRIED)
def test_a_whole_game_on_each_panel_decodes_to_its_screens(tmp_path: Path, option: str) -> None:
    play_a_whole_game(tmp_path, display_option(option))


@pytest.mark.parametrize("option,rotate", [("ili9341", 1), ("ssd1306:128x32", 2),
                                           ("sh1107", 3), ("ssd1322", 2)])
def test_a_panel_mounted_turned_shows_its_screens_upright(tmp_path: Path, option: str,
                                                          rotate: int) -> None:
    display = dataclasses.replace(display_option(option), rotate=rotate)
    play_a_whole_game(tmp_path, display)


def play_a_whole_game(tmp_path: Path, display: Display) -> None:
    """Play until someone wins, comparing every screen with the panel's memory."""
    rig = Rig(tmp_path, config=Config(display=display), seats_on=(1, 2, 3),
              faces=[1, 2, 3, 4, 5, 6] * 60, animate=False)
    try:
        rig.wait(2.5)  # the title, then setup by itself
        rig.long()  # start
        compared = 0
        for _ in range(200):
            game = rig.table.game
            if game is None or game.state.status is not Status.PLAYING:
                break
            if game.state.pending.name == "ROLL":
                rig.short()
            else:
                rig.long()
            assert rig.showing(rig.table.screen, rig.table.page), (display, len(game.actions))
            assert rig.shown().size == (display.layout.width, display.layout.height)
            compared += 1
        assert rig.table.game is not None
        assert rig.table.game.state.status is not Status.PLAYING, "the game did not end"
        assert compared >= 20, compared
    finally:
        rig.close()


@pytest.mark.parametrize("name", sorted(p.stem for p in REFERENCE.glob("*.png")))
def test_reference_screens_per_size_class(name: str) -> None:
    made = reference_images()
    assert sorted(made) == sorted(p.stem for p in REFERENCE.glob("*.png"))
    expected = Image.open(REFERENCE / f"{name}.png").convert("RGB")
    assert made[name].convert("RGB").tobytes() == expected.tobytes(), name


def test_every_size_class_and_language_has_references() -> None:
    names = {p.stem for p in REFERENCE.glob("*.png")}
    for option in PANELS_TRIED:
        for lang in LANGUAGES:
            assert any(n.startswith(f"{option.replace(':', '-')}.{lang}.") for n in names), \
                (option, lang)
    assert len(names) == len(PANELS_TRIED) * len(LANGUAGES) * 3


def test_on_a_strip_the_first_screen_of_a_result_says_the_square_and_the_money() -> None:
    """The title says the square; the first row the mover's chips and the pot, unless
    no chip moved: then that ledger is no news and comes after what happened. On a
    strip, two rows a page, the first row says what changed for the mover in one row
    (their chips as they changed: "+2 → 11 chips") beside the prompt, and the chips and
    the pot come last."""
    strip = Layout(128, 32)
    assert strip.size is Size.STRIP
    compared = moved = quiet = 0
    for lang in LANGUAGES:
        w = Words(lang, NAMES)
        for game in games().values():
            screen = result_screen(w, game)
            shown = fit(screen, strip)
            seat = next(e.seat for e in game.events if hasattr(e, "seat"))
            player = game.state.player(seat)
            assert shown.title == screen.title
            assert w.square(player.position or 0) in shown.title or seat in [
                p.seat for p in game.state.players if p.position is None] or \
                game.state.status is not Status.PLAYING
            ledger = w("ledger", chips=player.chips, pot=game.state.pot)
            won = next((e for e in game.events if isinstance(e, ev.Won)), None)
            if won is not None:  # the title says who: the pot they took, first
                ledger = w("won_pot", pot=won.pot)
            hints = "\n" in screen.footer  # a choice's two hints fill the strip's page 1
            if any(isinstance(e, (ev.Transfer, ev.Shared, ev.Won)) and getattr(e, "amount", 1)
                   for e in game.events):
                assert screen.body[0] == ledger  # the chips moved: first
                assert hints or won or shown.body[0] == screen.glance != ledger
                assert shown.body[-1] == ledger or won  # on the strip: last
                moved += 1
            elif screen.body[0] != ledger:  # no news: after what happened
                assert screen.body[screen.essential] == ledger
                assert hints or shown.body[0] != ledger
                quiet += 1
            image = render(screen, FONTS, 0, strip)
            assert image.size == (128, 32)
            compared += 1
    assert compared == len(LANGUAGES) * len(games())
    assert moved >= 4 * len(LANGUAGES) and quiet >= 4 * len(LANGUAGES), (moved, quiet)


@pytest.mark.parametrize("table,wrong", [
    ({"display": "hd44780"}, "display.display must be one of"),
    ({"display": "ssd1322", "interface": "i2c"}, "must be one of spi for ssd1322"),
    ({"display": "st7789", "width": 320, "height": 240}, "must be one of 240x240 for st7789"),
    ({"display": "ili9341", "spi_bus_speed": 3_000_000}, "one of luma's SPI speeds"),
    ({"display": "ssd1351", "bgr": "yes"}, "display.bgr must be true or false"),
    ({"display": "st7789", "gpio_backlight": 40}, "display.gpio_backlight must be a BCM GPIO"),
])
def test_a_wrong_display_key_is_one_clear_line(table: dict[str, object], wrong: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse({"display": table})
    assert wrong in str(raised.value) and "\n" not in str(raised.value)


def test_a_tft_backlight_on_the_buzzer_pin_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"GPIO 18 is taken by display\.gpio_backlight"):
        parse({"display": {"display": "st7789"}, "pins": {"use_buzzer": True}})


def test_the_terminal_draws_any_size_in_colour_where_it_can() -> None:
    import io

    from firmware.emulate.terminal import TerminalPanel, half_blocks

    image = Image.new("RGB", (240, 240), (255, 64, 64))
    out = io.StringIO()
    TerminalPanel(out, size=lambda: (300, 200), colour=True).draw(image)
    assert out.getvalue().count("\x1b[38;2;255;64;64m\x1b[48;2;255;64;64m▀") == 240 * 120
    plain = io.StringIO()
    TerminalPanel(plain, size=lambda: (300, 200), colour=False).draw(image)
    assert "38;2" not in plain.getvalue()
    dim = Image.new("RGB", (128, 128), (1, 1, 1))  # dim but lit: never dithered away
    assert half_blocks(dim) == ["█" * 128] * 64


def test_a_blank_tft_turns_its_backlight_off(tmp_path: Path) -> None:
    display = display_option("st7789")
    rig = Rig(tmp_path, config=Config(display=display), seats_on=(1, 2))
    try:
        light = display.gpio_backlight
        assert isinstance(rig.bus, SpiBus)
        levels = rig.bus.wires.levels
        assert levels[light] == 1 and rig.bus.on
        rig.wait(rig.config.timings.blank_after + 5)
        assert levels[light] == 0 and not rig.bus.on
        rig.short()  # a press wakes it and does nothing else
        assert levels[light] == 1 and rig.bus.on
    finally:
        rig.close()


def test_on_a_strip_the_tumbling_die_fills_the_body_under_its_title() -> None:
    """The strip drew a tumbling die 11 pixels high in its title bar over an empty body
    (issue 61, item 4): it is the body's now, 20 pixels, each face's pips apart."""
    from firmware.display.screens import rolling_screen

    strip, seen = Layout(128, 32), set()
    for face in range(1, 7):
        image = render(rolling_screen(Words("en"), 1, face, 0), FONTS, 0, strip).convert("L")
        body = image.crop((0, 10, 128, 32))
        box = body.getbbox()
        assert box is not None and box[3] - box[1] >= 20 and box[2] - box[0] >= 20, box
        inside = body.crop((box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2))
        seen.add(inside.tobytes())  # the pips: a picture of its own for each face
    assert len(seen) == 6


def test_on_a_strip_a_press_acts_from_page_1_and_the_details_page_on(tmp_path: Path) -> None:
    """The strip's page 1 says what changed for the mover and what to press, so a press
    there acts (it once had to turn the result's money pages first: page 1 lacked the
    prompt in 44-48 % of results, issue 61 item 4); the details page on by themselves."""
    from firmware.display.paging import essential_page, page_count, shown

    rig = Rig(tmp_path, config=Config(display=display_option("ssd1306:128x32")),
              seats_on=(1, 2, 3), faces=[6, 3, 5, 4, 1, 2, 6, 6, 3, 4] * 20, animate=False)
    try:
        rig.wait(2.5)
        rig.long()
        checked = 0
        for _ in range(40):
            table = rig.table
            assert table.game is not None
            if table.game.state.status is not Status.PLAYING:
                break
            before = len(table.game.actions)
            if table.mode.name == "PLAY" and not table.state.ask_next \
                    and table.game.state.pending.name == "ROLL" \
                    and page_count(table.screen, FONTS, table.layout) > 1:
                pages = shown(table.screen, FONTS, table.layout)
                assert essential_page(table.screen, FONTS, table.layout) == 0
                assert table.screen.footer in pages[0].rows and table.page == 0
                rig.short(read=False)  # on page 1: this press rolls
                assert len(table.game.actions) == before + 1
                checked += 1
            else:
                rig.short()
        assert checked >= 3, checked
    finally:
        rig.close()


@pytest.mark.parametrize("option", ["ssd1322", "ssd1351", "st7789", "ili9341"])
def test_a_frame_already_on_a_panel_is_not_sent_again(option: str) -> None:
    from firmware.display.partial import writer_for
    from firmware.emulate.rig import emulated_device, wire_for

    display = display_option(option)
    bus = wire_for(display)
    writer = writer_for(emulated_device(display, bus))
    screens = dict(gallery())
    first = render(screens["en-turn"], FONTS, 0, display.layout)
    assert writer.display(first) > 0 and writer.holds
    sent = bus.sent
    assert writer.display(first.copy()) == 0 and bus.sent == sent  # the Panel skips it
    assert writer.display(render(screens["en-plain"], FONTS, 0, display.layout)) > 0
    assert bus.sent > sent


WRITERS = {"ssd1306": "PageWriter", "ssd1315": "PageWriter", "ssd1316": "PageWriter",
           "sh1106": "PageWriter", "ssd1309": "PageWriter", "sh1107": "PageWriter",
           "ssd1322": "LumaWriter", "ssd1351": "LumaWriter", "st7735": "LumaWriter",
           "ili9341": "LumaWriter", "st7789": "WindowWriter"}
"""Which writer each panel gets: ours for the page memories (luma's own sends whole
pages), luma's own where its driver tracks changes, a window where it does not (ST7789)."""


def test_each_panel_gets_the_writer_that_sends_least() -> None:
    from firmware.display.partial import writer_for
    from firmware.emulate.rig import emulated_device, wire_for

    got = {}
    for name in PANELS:
        display = display_option(name)
        got[name] = type(writer_for(emulated_device(display, wire_for(display)))).__name__
    assert got == WRITERS


@pytest.mark.parametrize("layout", [Layout(128, 128, mode="RGB"),
                                    Layout(256, 64, mode="RGB", grey=True)],
                         ids=["ssd1351 colour", "ssd1322 grey"])
def test_every_seat_has_a_title_bar_its_name_reads_on(layout: Layout) -> None:
    """Issue 37's second defect: seats 7 and 8 had no colour, a black bar with black text
    on colour and greyscale panels."""
    from firmware.display.layout import SEAT_COLOURS
    from firmware.display.screen import Screen
    from robinson_core import SEATS

    assert set(SEAT_COLOURS) == set(SEATS)
    w, compared = Words("en"), 0
    for seat in SEATS:
        image = render(Screen(title=w.name(seat), body=("",), seat=seat), FONTS, 0,
                       layout).convert("RGB")
        bar = image.crop((0, 0, layout.canvas[0], 12))
        colours = {colour for _, colour in bar.getcolors(1 << 16) or []}
        assert len(colours) >= 2 and bar.getpixel((1, 1)) != (0, 0, 0), (seat, colours)
        compared += 1
    assert compared == len(SEATS) == 8
