"""Bad input of any kind gets one clear line and exit status 2, never a traceback."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from firmware.cli import build_parser, main
from firmware.config.file import load
from firmware.config.reading import parse
from firmware.errors import ConfigError, UsageError

KEYS = ["language", "seat_names", "pins", "display", "timings", "rules", "button", "seats",
        "leds", "buzzer", "use_leds", "use_buzzer", "interface", "i2c_address", "rotate",
        "contrast", "long_press", "menu_press", "purse", "stake", "debt", "share_with",
        "colour", "Pins", ""]
scalars = (st.integers(-5, 300) | st.floats(allow_nan=False, allow_infinity=False)
           | st.booleans() | st.text(max_size=6) | st.sampled_from(["en", "ja", "de", "i2c",
                                                                       "spi", "sh1106", "keep"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=9)
                      | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4), max_leaves=12)
tables = st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), values, max_size=6)


@settings(max_examples=400, deadline=None)
@given(tables)
def test_any_decoded_config_is_accepted_or_refused_in_one_line(raw: dict[str, object]) -> None:
    try:
        parse(raw, "cfg.toml")
    except ConfigError as error:
        message = str(error)
        assert message.startswith("cfg.toml: ") and "\n" not in message


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=80) | st.binary(max_size=80))
def test_any_config_file_is_accepted_or_refused_in_one_line(tmp_path: Path,
                                                             content: str | bytes) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(content.encode("utf-8", "surrogatepass") if isinstance(content, str)
                     else content)
    try:
        load(path)
    except ConfigError as error:
        assert str(error).startswith(str(path)) and "\n" not in str(error)


def test_a_config_of_every_kind_of_wrong(tmp_path: Path) -> None:
    wrong = {
        "[pins]\nbutton = 40\n": "pins.button must be a BCM GPIO number from 2 to 27",
        "[pins]\nseats = [5, 6, 5]\n": "pins.seats[3] GPIO 5 is already used",
        "[pins]\nseats = [5]\n": "must be a list of 2 to 8 pins",
        "[pins]\nuse_leds = 'yes'\n": "pins.use_leds must be true or false",
        "[display]\ninterface = 'usb'\n": "display.interface must be one of i2c, spi",
        "[timings]\nmenu_press = 0.5\n": "timings.menu_press must be a number from 1.0",
        "[rules]\nshare_with = 'anyone'\n": "share_with must be one of right, left",
        "seat_names = ['a very long name indeed']\n": "seat_names must be a list",
        "[pins]\nbutton = 17\n[pins]\n": "not valid TOML",
        "[rules]\npurse = " + "1" * 5000 + "\n": "a number in it is far too long",
        "[rules]\npurse = '" + "1" * 5000 + "'\n": "purse must be",
    }
    for text, message in wrong.items():
        path = tmp_path / "c.toml"
        path.write_text(text)
        with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
            load(path)
    assert parse(tomllib.loads("[pins]\nbutton = 16\n")).pins.button == 16


SUBCOMMANDS = ["replay", "rules", "table", "selftest", "state", "sim", "bench"]
WORDS = ["--players", "--seats", "--first", "--rule", "--script", "--json", "--lang", "--config",
         "--state-dir", "--emulate", "--capture", "--demo", "--seed", "--no-animation", "--games",
         "--jobs", "--plot", "--seconds-per-turn", "--dice", "--quick", "1", "2", "9", "0", "-1",
         "x", "1,2", "1,,2", "purse=5", "debt=maybe", "en", "de", "3 4 jump", "", "roll", "7"]
RUNS = {"table", "selftest", "bench", "sim"}  # these would start real work if the args parse


DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=10_000)
NUMBERS = (DIGITS | DIGITS.map(lambda d: "purse=" + d) | DIGITS.map(lambda d: "1," + d)
           | DIGITS.map(lambda d: "-" + d) | DIGITS.map(lambda d: "6 " + d))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(SUBCOMMANDS) | st.text(max_size=6),
       st.lists(st.sampled_from(WORDS) | st.text(max_size=6) | NUMBERS, max_size=6))
def test_any_command_line_ends_in_0_or_one_line_and_2(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path, command: str,
                                                       args: list[str]) -> None:
    assume("--help" not in args and "-h" not in args)
    argv = [command, *args]
    if command in RUNS:
        try:
            build_parser().parse_args(argv)
        except UsageError:
            pass
        else:
            assume(False)  # a valid table/selftest/bench/sim would really run
    if command == "state" and "--state-dir" not in args:
        argv += ["--state-dir", str(tmp_path / "nothing")]
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (0, 2)
    if code == 2:
        assert err.count("\n") == 1 and "error:" in err and "Traceback" not in err


@pytest.mark.parametrize("name", ["Ana\nBen", "Ana\r", "A\x1cB", "A\x1e", "Ana\x85",
                                  "Ana\u2029", "\tAna"])
def test_a_seat_name_with_a_line_break_or_control_character_is_refused(tmp_path: Path,
                                                                        name: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(f"seat_names = [{json.dumps(name)}]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"seat_names\[1\] must be printable") as caught:
        load(path)
    assert "\n" not in str(caught.value)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_rendering_never_raises_on_any_text(text: str) -> None:
    from firmware.display.render import render
    from firmware.display.screen import Screen

    from ..rig import FONTS

    image = render(Screen(title=text, body=(text, text[::-1]), footer=text, badge=text[:3]),
                   FONTS)
    assert image.size == (128, 64)
