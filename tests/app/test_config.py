"""The config file, setting by setting: what it gives a table, and every bound refused.

``parse``'s result is compared field by field (a swapped pair of arguments, a value
dropped or a default kept is seen), and each range is tried at both ends and one step
past each: the refusal names the key.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from firmware.config.file import load, shape
from firmware.config.reading import display_option, parse
from firmware.config.settings import Config, Display, Pins, Timings, Voice
from firmware.display.panels import Interface
from firmware.errors import ConfigError
from firmware.header import CE0, CE1
from robinson_core import HouseRules
from robinson_core.house_rules import OLD_NAMES, DeadChips, ShareWith, Square4, Square32, Square33


def refused(raw: dict[str, Any], *said: str) -> str:
    with pytest.raises(ConfigError) as caught:
        parse(raw, "my.toml")
    message = str(caught.value)
    assert message.startswith("my.toml: ") and "\n" not in message
    assert all(text in message for text in said), message
    return message


def test_an_empty_file_is_the_built_in_defaults() -> None:
    assert parse({}, "x") == Config(source="x")
    assert load(None) == Config()


EVERYTHING: dict[str, Any] = {
    "language": "fi", "hardware": "emulate", "seat_names": ["Ana", " Ben ", ""],
    "pins": {"button": 16, "seats": [5, 6, 13], "leds": [22, 23, 27], "buzzer": 12,
             "use_leds": True, "use_buzzer": True},
    "display": {"display": "ssd1309", "interface": "spi", "width": 128, "height": 64,
                "i2c_port": 3, "i2c_address": 0x3D, "spi_port": 1, "spi_device": 1,
                "spi_bus_speed": 16_000_000, "spi_mode": 2, "gpio_data_command": 14,
                "gpio_reset": 15,
                "gpio_backlight": 4, "backlight_active": "low", "bgr": True, "h_offset": -2,
                "v_offset": 3, "rotate": 2, "contrast": 77},
    "timings": {"long_press": 0.7, "menu_press": 2.5, "debounce": 0.05, "animation": 0.4,
                "page": 4.0, "dim_after": 60, "blank_after": 600, "shift_every": 120},
    "rules": {"purse": 30, "stake": 5, "debt": True, "square_4": "ask",
              "chain_25_to_14": False, "dead_chips": "pot", "share_with": "runner_up",
              "square_33": "friday"},
}


def test_every_setting_lands_in_its_own_field() -> None:
    """Each value differs from its default and from its neighbours: a swap shows."""
    config = parse(EVERYTHING, "all.toml")
    assert config == Config(
        language="fi", hardware="emulate", seat_names=("Ana", "Ben", ""),
        pins=Pins(button=16, seats=(5, 6, 13), leds=(22, 23, 27), buzzer=12, use_leds=True,
                  use_buzzer=True),
        display=Display(display="ssd1309", interface=Interface.SPI, width=128, height=64,
                        i2c_port=3, i2c_address=0x3D, spi_port=1, spi_device=1,
                        spi_bus_speed=16_000_000, spi_mode=2, gpio_data_command=14,
                        gpio_reset=15,
                        gpio_backlight=4, backlight_active="low", bgr=True, h_offset=-2,
                        v_offset=3, rotate=2, contrast=77),
        timings=Timings(long_press=0.7, menu_press=2.5, debounce=0.05, animation=0.4,
                        page=4.0, dim_after=60.0, blank_after=600.0, shift_every=120.0),
        rules=HouseRules(purse=30, stake=5, debt=True, square_4=Square4.ASK,
                         chain_25_to_14=False, dead_chips=DeadChips.POT,
                         share_with=ShareWith.RUNNER_UP, square_33=Square33.FRIDAY),
        source="all.toml")
    assert isinstance(config.timings.dim_after, float)
    assert [config.seat_name(seat) for seat in (1, 2, 3, 4)] == ["Ana", "Ben", None, None]
    assert config.display.chip_select == CE1 and Display().chip_select == CE0
    assert config.display.layout.size.name == "CLASSIC"


def test_a_config_file_is_read_and_its_faults_are_one_line(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('language = "hr"\n[rules]\ndebt = true\n')
    config = load(good)
    assert config.language == "hr" and config.rules.debt and config.source == str(good)
    bad = tmp_path / "bad.toml"
    for content, said in (
            (b"language = ", "not valid TOML (Invalid value (at end of document))"),
            (b"\xff\xfe", "not valid TOML (not UTF-8 text)"),
            (b"[rules]\npurse = " + b"9" * 5000,
             "a number in it is far too long for any setting (5000 characters)"),
            (b"[rules]\npurse = 0x" + b"f" * 5000,  # passed tomllib: a traceback after
             "a number in it is far too long for any setting (5002 characters)"),
            (b"[rules]\npurse = 0o" + b"7" * 5000,
             "a number in it is far too long for any setting (5002 characters)"),
            (b"pins." + b"a." * 12_000 + b"a = 1\n",  # 10 s and 600 MB in tomllib
             "arrays, tables or dotted keys nested more than 8 deep: no setting takes that"),
            (b"[" + b"a." * 20 + b"a]\n",
             "arrays, tables or dotted keys nested more than 8 deep: no setting takes that"),
            (b"x = {" + b"a." * 20 + b"a = 1}\n",
             "arrays, tables or dotted keys nested more than 8 deep: no setting takes that")):
        bad.write_bytes(content)
        with pytest.raises(ConfigError) as caught:
            load(bad)
        assert str(caught.value) == f"{bad}: {said}"
    with pytest.raises(ConfigError, match="cannot read it"):
        load(tmp_path / "missing.toml")


def test_a_fifo_as_the_config_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    """Issue 39: a FIFO held the start until systemd's 60 s timeout (nobody writes it)."""
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    began = time.monotonic()
    with pytest.raises(ConfigError) as caught:
        load(fifo)
    assert str(caught.value) == f"{fifo}: not a file: give --config a config file"
    assert time.monotonic() - began < 5


# Each whole-number or number setting: (table, key, low, high).
RANGES = [
    ("display", "i2c_port", 0, 31), ("display", "i2c_address", 0x03, 0x77),
    ("display", "spi_port", 0, 6), ("display", "spi_device", 0, 2),
    ("display", "h_offset", -320, 320), ("display", "v_offset", -320, 320),
    ("display", "rotate", 0, 3), ("display", "contrast", 1, 255),
    ("timings", "debounce", 0.001, 0.2), ("timings", "animation", 0.0, 1.0),
    ("timings", "page", 1.0, 30.0), ("timings", "dim_after", 5.0, 86400.0),
    ("timings", "blank_after", 5.0, 86400.0), ("timings", "shift_every", 10.0, 86400.0),
]


@pytest.mark.parametrize("table,key,low,high", RANGES)
def test_each_range_takes_its_ends_and_refuses_a_step_past(table: str, key: str,
                                                            low: float, high: float) -> None:
    step = 1 if isinstance(low, int) else 0.001
    for value in (low, high):
        config = parse({table: {key: value}})
        assert getattr(getattr(config, table), key) == value
    wrong: tuple[object, ...] = (low - step, high + step, "1", True)
    for bad in wrong:
        refused({table: {key: bad}}, f"{table}.{key} must be a ", f"from {low} to {high}")


@pytest.mark.parametrize("key,low,high,other", [("long_press", 0.3, 5.0, ("menu_press", 10.0)),
                                                ("menu_press", 1.0, 10.0, ("long_press", 0.3))])
def test_the_press_lengths_take_their_ends(key: str, low: float, high: float,
                                           other: tuple[str, float]) -> None:
    for value in (low, high):
        assert getattr(parse({"timings": {key: value, other[0]: other[1]}}).timings,
                       key) == value
    for value in (low - 0.01, high + 0.01):
        refused({"timings": {key: value, other[0]: other[1]}}, f"timings.{key}")


@pytest.mark.parametrize("long,menu", [(2.0, 2.0), (2.0, 1.5)])
def test_the_menu_press_must_be_longer_than_the_long_press(long: float, menu: float) -> None:
    refused({"timings": {"long_press": long, "menu_press": menu}},
            "timings.menu_press must be longer than timings.long_press")


@pytest.mark.parametrize("table,key", [("display", "bgr"), ("pins", "use_leds"),
                                       ("pins", "use_buzzer"), ("table", "odds")])
def test_a_switch_is_true_or_false_only(table: str, key: str) -> None:
    assert getattr(getattr(parse({table: {key: False}}), table), key) is False
    for value in (1, "true", "yes"):
        refused({table: {key: value}}, f"{table}.{key} must be true or false")


@pytest.mark.parametrize("name,value,expected", [
    ("debt", True, True), ("debt", False, False), ("restart_on_4", False, Square4.STAY),
    ("restart_on_4", True, Square4.BACK), ("square_4", "ask", Square4.ASK),
    ("square_4", "stay", Square4.STAY),
    ("chain_25_to_14", False, False), ("purse", 99, 99), ("stake", 0, 0),
    ("dead_chips", "pot", DeadChips.POT), ("share_with", "left", ShareWith.LEFT),
    ("square_33", "friday", Square33.FRIDAY), ("square_32", "both", Square32.BOTH),
    ("square_32", "everyone", Square32.EVERYONE),
])
def test_each_house_rule_is_kept(name: str, value: object, expected: object) -> None:
    assert getattr(parse({"rules": {name: value}}).rules, OLD_NAMES.get(name, name)) == expected


@pytest.mark.parametrize("rules,said", [({"debt": [1]}, "rules.debt must be a number"),
                                        ({"purse": "many"}, "[rules]"),
                                        ({"stake": 30}, "[rules]"),
                                        ({"share_with": "everyone"}, "[rules]")])
def test_a_bad_house_rule_is_one_line(rules: dict[str, Any], said: str) -> None:
    refused({"rules": rules}, said)


@pytest.mark.parametrize("pin,taken_by", [(2, "I2C SDA"), (3, "I2C SCL")])
def test_the_i2c_pins_are_not_for_seats_or_buttons(pin: int, taken_by: str) -> None:
    refused({"pins": {"button": pin}}, "pins.button", f"GPIO {pin} is taken by {taken_by}")
    refused({"pins": {"seats": [5, pin]}}, "pins.seats[2]", taken_by)


SPI = {"display": "ssd1306", "interface": "spi"}


@pytest.mark.parametrize("pin,taken_by", [(7, "SPI CE1"), (8, "SPI CE0"), (9, "SPI MISO"),
                                          (10, "SPI MOSI"), (11, "SPI SCLK"),
                                          (24, "display.gpio_data_command"),
                                          (25, "display.gpio_reset")])
def test_an_spi_panels_pins_are_not_for_seats(pin: int, taken_by: str) -> None:
    refused({"display": SPI, "pins": {"seats": [5, pin]}}, f"GPIO {pin} is taken by {taken_by}")
    assert parse({"pins": {"seats": [5, pin]}}).pins.seats == (5, pin)  # free on I2C


def test_a_tft_backlight_pin_is_reserved_but_an_oleds_is_not() -> None:
    tft = {"display": "st7789", "width": 240, "height": 240}
    refused({"display": tft, "pins": {"button": 18}}, "taken by display.gpio_backlight")
    assert parse({"display": SPI, "pins": {"button": 18}}).pins.button == 18


def test_leds_and_buzzer_count_only_when_used() -> None:
    refused({"pins": {"use_leds": True, "leds": [22, 23], "seats": [5, 6, 13]}},
            "pins.leds needs one LED pin per seat (3)")
    assert parse({"pins": {"leds": [22, 23], "seats": [5, 6, 13]}}).pins.leds == (22, 23)
    refused({"pins": {"use_leds": True, "leds": [22, 5], "seats": [5, 6]}},
            "pins.leds[2]", "already used by pins.seats[1]")
    assert parse({"pins": {"leds": [22, 5], "seats": [5, 6]}}).pins.seats == (5, 6)
    assert refused({"pins": {"use_buzzer": True, "buzzer": 17}}) == (
        "my.toml: pins.buzzer GPIO 17 is already used by pins.button (found 17)")
    assert parse({"pins": {"buzzer": 17}}).pins.buzzer == 17


@pytest.mark.parametrize("pins,said", [
    ({"button": 1}, "pins.button must be a BCM GPIO number from 2 to 27"),
    ({"button": 28}, "pins.button must be"), ({"button": True}, "pins.button must be"),
    ({"seats": [5]}, "pins.seats must be a list of 2 to 8 pins"),
    ({"seats": list(range(4, 13))}, "pins.seats must be a list of 2 to 8 pins"),
    ({"seats": "5,6"}, "pins.seats must be a list"),
    ({"leds": list(range(4, 13))}, "pins.leds must be a list of 0 to 8 pins"),
    ({"seats": [5, 5]}, "pins.seats[2] GPIO 5 is already used by pins.seats[1]"),
    ({"seats": [5, 17]}, "already used by pins.button"),
])
def test_a_bad_pin_is_one_line(pins: dict[str, Any], said: str) -> None:
    refused({"pins": pins}, said)


def test_pins_take_their_ends_and_up_to_eight_seats() -> None:
    assert parse({"pins": {"button": 27, "seats": [4, 5]}}).pins.button == 27
    eight = [4, 5, 6, 12, 13, 16, 19, 20]
    assert parse({"pins": {"seats": eight}}).pins.seats == tuple(eight)
    assert parse({"pins": {"leds": []}}).pins.leds == ()


@pytest.mark.parametrize("display,said", [
    ({"display": "ssd1307"}, "display.display must be one of"),
    ({"display": "ssd1306", "width": 128, "height": 48},
     "display.width/height must be one of 128x64, 128x32 for ssd1306 (found '128x48')"),
    ({"width": 0}, "display.width must be a whole number from 1 to 480"),
    ({"height": 481}, "display.height must be a whole number from 1 to 480"),
    ({"interface": "parallel"}, "display.interface must be one of i2c, spi for ssd1306"),
    ({"display": "st7789", "interface": "i2c", "width": 240, "height": 240},
     "must be one of spi for st7789"),
    ({"spi_bus_speed": 3_000_000}, "display.spi_bus_speed must be one of luma's SPI speeds: "
     "500000, 1000000, 2000000, 4000000, 8000000, 16000000, 20000000, 24000000, 28000000, "
     "32000000, 36000000, 40000000, 44000000, 48000000, 50000000, 52000000 (found 3000000)"),
    ({"spi_bus_speed": 499_999},
     "display.spi_bus_speed must be a whole number from 500000 to 52000000"),
    ({"backlight_active": "on"}, "display.backlight_active must be one of high, low"),
    ({"gpio_reset": 1}, "display.gpio_reset must be a BCM GPIO number"),
])
def test_a_bad_display_setting_is_one_line(display: dict[str, Any], said: str) -> None:
    refused({"display": display}, said)


def test_a_panel_named_without_a_size_gets_its_usual_size() -> None:
    assert parse({"display": {"display": "ssd1322"}}).display.size == (256, 64)
    assert parse({"display": {"display": "ssd1306", "height": 32}}).display.size == (128, 32)
    assert parse({"display": {"spi_bus_speed": 52_000_000}}).display.spi_bus_speed == 52_000_000
    assert parse({"display": {"spi_bus_speed": 500_000}}).display.spi_bus_speed == 500_000


@pytest.mark.parametrize("raw,said", [
    ({"colour": "red"}, "unknown key 'colour'; allowed: display, hardware, language"),
    ({"pins": {"relay": 5}}, "unknown key [pins] 'relay'"),
    ({"pins": 5}, "pins must be a table"),
    ({"language": "de"}, "language must be one of en, hr, fi, ja"),
    ({"hardware": "arduino"}, "hardware must be one of auto, pi, emulate"),
    ({"seat_names": "Ana"}, "seat_names must be a list of at most 8 names"),
    ({"seat_names": ["a"] * 9}, "at most 8 names"),
    ({"seat_names": ["Wolfgangellas"]}, "up to 12 letters (Japanese: 9)"),
    ({"seat_names": [7]}, "seat_names must be a list"),
    ({"seat_names": ["Ana", "B\nen"]}, "seat_names[2] must be printable letters"),
])
def test_a_bad_top_level_setting_is_one_line(raw: dict[str, Any], said: str) -> None:
    refused(raw, said)


def test_names_take_their_longest() -> None:
    names = ["Wolfgangella", "アレクサンドリーナ", *["x"] * 6]
    assert parse({"seat_names": names}).seat_names == tuple(names)


def test_display_option_is_checked_as_the_configs_display() -> None:
    assert display_option("ssd1306:128x32").size == (128, 32)
    assert display_option("sh1106").size == (128, 64)
    assert display_option("ssd1306:128X32").size == (128, 32)
    for text, said in (("ssd1306:128", "WIDTHxHEIGHT"), ("ssd1306:ax32", "WIDTHxHEIGHT"),
                       ("ssd1306:100x20", "must be one of"), ("nope", "one of")):
        with pytest.raises(ConfigError, match=said):
            display_option(text)


def test_luma_is_given_the_panel_as_configured() -> None:
    i2c = Display(i2c_port=3, i2c_address=0x3D, rotate=2)
    assert i2c.luma_args() == ["--display", "ssd1306", "--interface", "i2c", "--width", "128",
                               "--height", "64", "--rotate", "2", "--framebuffer",
                               "diff_to_previous", "--num-segments", "16", "--i2c-port", "3",
                               "--i2c-address", "0x3d"]
    spi = parse(EVERYTHING).display
    assert spi.luma_args()[12:] == [
        "--num-segments", "16", "--spi-port", "1", "--spi-device", "1", "--spi-bus-speed",
        "16000000", "--spi-mode", "2", "--gpio-data-command", "14", "--gpio-reset", "15",
        "--gpio-backlight", "4",
        "--backlight-active", "low", "--h-offset", "-2", "--v-offset", "3", "--bgr"]
    assert "--bgr" not in Display(interface=Interface.SPI).luma_args()


@pytest.mark.parametrize("speed", [500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000,
                                   16_000_000, 20_000_000, 24_000_000, 28_000_000, 32_000_000,
                                   36_000_000, 40_000_000, 44_000_000, 48_000_000, 50_000_000,
                                   52_000_000])
def test_every_spi_speed_luma_takes_is_taken(speed: int) -> None:
    """luma.core.cmdline's --spi-bus-speed choices, as its documentation lists them."""
    assert parse({"display": {"spi_bus_speed": speed}}).display.spi_bus_speed == speed


@pytest.mark.parametrize("speed", [3_000_000, 12_000_000, 30_000_000, 51_000_000, 8_000_001])
def test_a_speed_between_lumas_is_refused(speed: int) -> None:
    refused({"display": {"spi_bus_speed": speed}}, "must be one of luma's SPI speeds")


def test_the_config_is_found_where_the_guide_says(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """/etc/robinson-table/config.toml first, then $XDG_CONFIG_HOME (or ~/.config)'s
    robinson-table/config.toml; none: the built-in defaults."""
    from firmware.config import file as config

    assert config.SEARCH_PATH == ("/etc/robinson-table/config.toml",)
    monkeypatch.setattr(config, "SEARCH_PATH", (str(tmp_path / "etc.toml"),))
    home, xdg = tmp_path / "home", tmp_path / "xdg"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    assert config.default_path() is None
    in_home = home / ".config" / "robinson-table" / "config.toml"
    in_home.parent.mkdir(parents=True)
    in_home.write_text("")
    assert config.default_path() == in_home
    in_xdg = xdg / "robinson-table" / "config.toml"
    in_xdg.parent.mkdir(parents=True)
    in_xdg.write_text("")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    assert config.default_path() == in_xdg
    (tmp_path / "etc.toml").write_text("")
    assert config.default_path() == tmp_path / "etc.toml"


def test_an_unreadable_config_says_why(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path / "missing.toml")
    assert str(caught.value) == (f"{tmp_path / 'missing.toml'}: cannot read it "
                                 "(No such file or directory)")


@pytest.mark.parametrize("table", ["pins", "display", "timings", "rules"])
def test_a_section_that_is_not_a_table_is_named(table: str) -> None:
    refused({table: 5}, f"{table} must be a table (found 5)")
    refused({table: {"colour": 1}}, f"unknown key [{table}] 'colour'")


def test_a_config_given_as_a_table_is_named_config_by_default() -> None:
    with pytest.raises(ConfigError) as caught:
        parse({"language": "de"})
    assert str(caught.value).startswith("config: language must be one of")


@pytest.mark.parametrize("table,keys", [
    ("display", ["display", "interface", "width", "height", "i2c_port", "i2c_address",
                 "spi_port", "spi_device", "spi_bus_speed", "spi_mode", "gpio_data_command",
                 "gpio_reset",
                 "gpio_backlight", "backlight_active", "bgr", "h_offset", "v_offset", "rotate",
                 "contrast"]),
    ("pins", ["button", "seats", "leds", "buzzer", "use_leds", "use_buzzer"]),
    ("timings", ["long_press", "menu_press", "debounce", "animation", "page", "dim_after",
                 "blank_after", "shift_every"]),
])
def test_every_key_is_named_in_its_refusal(table: str, keys: list[str]) -> None:
    """A word where each setting wants its own kind of value: the message names
    [table].key, so the owner knows which line to mend."""
    from dataclasses import fields

    from firmware.config.settings import Display, Pins, Timings

    assert keys == [f.name for f in fields({"display": Display, "pins": Pins,
                                            "timings": Timings}[table])]
    for key in keys:
        refused({table: {key: "bad"}}, f"my.toml: {table}.{key} must be ", "(found 'bad')")


def test_display_option_messages_say_where_they_come_from() -> None:
    with pytest.raises(ConfigError) as caught:
        display_option("ssd1306:128")
    assert str(caught.value) == ("--display: the size must be WIDTHxHEIGHT, e.g. "
                                 "ssd1306:128x32 (found '128')")
    with pytest.raises(ConfigError) as caught:
        display_option("nope")
    assert str(caught.value).startswith("--display: display.display must be one of ssd1306")


def test_a_file_that_is_not_a_table_is_one_line() -> None:
    with pytest.raises(ConfigError) as caught:
        parse(5)  # type: ignore[arg-type]
    assert str(caught.value) == "config: the file must be a table (found 5)"


@pytest.mark.parametrize("display,said", [
    ({"gpio_data_command": 25}, "display.gpio_reset GPIO 25 is taken by display.gpio_data_command"),
    ({"gpio_backlight": 24}, "display.gpio_backlight GPIO 24 is taken by display.gpio_data_comm"),
    ({"gpio_data_command": 10}, "display.gpio_data_command GPIO 10 is taken by SPI MOSI"),
    ({"gpio_backlight": 11}, "display.gpio_backlight GPIO 11 is taken by SPI SCLK"),
    ({"spi_port": 1, "gpio_reset": 20}, "display.gpio_reset GPIO 20 is taken by SPI1 MOSI"),
])
def test_a_tft_pin_used_twice_or_on_its_bus_is_refused_naming_both(display: dict[str, Any],
                                                                   said: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse({"display": {"display": "st7789", **display}})
    assert said in str(raised.value) and "\n" not in str(raised.value)


def test_a_tft_on_its_own_pins_is_taken() -> None:
    display = parse({"display": {"display": "st7789", "gpio_data_command": 22,
                                 "gpio_reset": 23, "gpio_backlight": 27}}).display
    assert (display.gpio_data_command, display.gpio_reset, display.gpio_backlight) == (22, 23, 27)
    with pytest.raises(ConfigError, match=r"pins.button GPIO 17 is taken by SPI1 CE1"):
        parse({"display": {"display": "st7789", "spi_port": 1, "spi_device": 1,
                           "gpio_data_command": 22, "gpio_reset": 23, "gpio_backlight": 27}})


def test_nesting_deeper_than_any_setting_is_refused_before_tomllib(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load(path)
    assert "nested more than 8 deep" in str(raised.value) and "\n" not in str(raised.value)
    # brackets in strings and comments are not nesting
    assert shape(b'a = "[[[[[[[[[[" # {{{{{{{{{{\nb = [[1], [2]]\n')[0] == 2
    assert shape(b"a = '''\n[[[[[[[[[[\n'''\n")[0] == 0


def test_a_long_refused_value_is_quoted_short(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    path.write_text('language = "' + "x" * 2_000_000 + '"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load(path)
    assert len(str(raised.value)) < 300 and "larger than 100 KB" in str(raised.value)
    with pytest.raises(ConfigError) as raised:
        parse({"language": "x" * 2_000_000})
    assert len(str(raised.value)) < 300 and "(2000002 characters)" in str(raised.value)


@pytest.mark.parametrize("size", ["12⁸x64", "1" * 5000 + "x64", "١٢٨x64", "128x"])
def test_a_display_size_that_is_not_plain_digits_is_one_line(size: str) -> None:
    with pytest.raises(ConfigError) as raised:
        display_option(f"ssd1306:{size}")
    assert "the size must be WIDTHxHEIGHT" in str(raised.value)
    assert len(str(raised.value)) < 200 and "\n" not in str(raised.value)


def test_an_st7789_without_cs_is_driven_in_spi_mode_3() -> None:
    """luma is given the mode (the real driver sets it on the bus, here the stand-in)."""
    from firmware.emulate.rig import emulate

    display = parse({"display": {"display": "st7789", "spi_mode": 3,
                                 "gpio_backlight": 27}}).display
    args = display.luma_args()
    assert display.spi_mode == 3 and args[args.index("--spi-mode") + 1] == "3"
    assert "--spi-mode" not in Display(display="st7789").luma_args()  # mode 0: luma's own
    from firmware.emulate.bus import SpiBus

    rig = emulate(Config(display=display))
    try:
        assert isinstance(rig.bus, SpiBus) and rig.bus.mode == 3
    finally:
        rig.close()
    with pytest.raises(ConfigError, match=r"display\.spi_mode must be"):
        parse({"display": {"display": "st7789", "spi_mode": 4}})


@pytest.mark.parametrize(("raw", "key", "said"), [
    ({"pins": {"seats": [5, 6, 13, 19]}}, "pins.seats[4]", "GPIO 19 is taken by I2S LRCLK"),
    ({"pins": {"seats": [5, 6], "use_buzzer": True}}, "pins.buzzer",
     "GPIO 18 is taken by I2S BCLK"),
    ({"pins": {"seats": [5, 6], "leds": [21, 22], "use_leds": True}}, "pins.leds[1]",
     "GPIO 21 is taken by I2S DOUT"),
    # The group holds GPIO 20 too (the Pi's I2S input), though the amplifier leaves it
    # unwired: the default seat 6 LED's pin.
    ({"pins": {"seats": [5, 6, 13, 16, 24, 25], "use_leds": True}}, "pins.leds[6]",
     "GPIO 20 is taken by I2S DIN (unwired)"),
    ({"pins": {"seats": [5, 6]}, "display": {"display": "st7789", "interface": "spi"}},
     "voice.i2s_amplifier", "needs GPIO 18 for I2S BCLK, but the panel uses it"),
])
def test_an_i2s_amplifier_refuses_any_part_on_its_pins_in_one_line(
        raw: dict[str, Any], key: str, said: str) -> None:
    raw = {**raw, "voice": {"i2s_amplifier": True}}
    message = refused(raw, key, said)
    assert "\n" not in message


def test_the_voice_section_and_its_defaults() -> None:
    assert parse({}).voice == Voice()
    voice = parse({"pins": {"seats": [5, 6]},
                   "voice": {"enabled": True, "storyteller": True, "volume": 60,
                             "speed": 120, "device": "plughw:CARD=Device,DEV=0",
                             "i2s_amplifier": True}}).voice
    assert voice == Voice(True, True, 60, 120, "plughw:CARD=Device,DEV=0", True)
    refused({"voice": {"device": "hw:0 ; rm -rf /"}}, "voice.device", "aplay -L")
    for writes in ("file:FILE=robinson.db,FORMAT=raw", "tee:default,FILE=x", "shm",
                   "plug:file", "default:CARD=x:file", "copy"):
        refused({"voice": {"device": writes}}, "voice.device", "plays to a card")
    for plays in ("default", "sysdefault:CARD=Headphones", "plughw:CARD=MAX98357A,DEV=0",
                  "hw:1,0", "dmix", "null", "plughw:Loopback,0"):
        assert parse({"voice": {"device": plays}}).voice.device == plays
    refused({"voice": {"volume": 101}}, "voice.volume", "from 10 to 100")  # it would clip
    refused({"voice": {"shout": True}}, "unknown key [voice] 'shout'")


def test_the_tables_odds_are_off_unless_the_config_turns_them_on() -> None:
    from firmware.table.prefs import Prefs

    assert parse({}).table.odds is False and Prefs.defaults(parse({})).odds is False
    config = parse({"table": {"odds": True}})
    assert config.table.odds is True and Prefs.defaults(config).odds is True
    refused({"table": {"chances": True}}, "table", "chances")
