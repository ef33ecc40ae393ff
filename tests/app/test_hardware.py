"""The wiring has one source of truth, the config's defaults: everything generated agrees."""

from __future__ import annotations

import re
import sys
import threading
import tomllib
import types
from pathlib import Path
from typing import ClassVar

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware.config.reading import parse
from firmware.config.settings import Config
from firmware.display.panels import Interface
from firmware.header import PHYSICAL
from firmware.tools.wiring import default_toml, wires, wiring_markdown

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"


def test_wiring_md_is_generated_from_the_config() -> None:
    assert (HARDWARE / "WIRING.md").read_text(encoding="utf-8") == wiring_markdown(Config())


def test_the_header_pictures_are_drawn_from_the_config() -> None:
    """Every pin of the 40 drawn, each part of the config on its pin (the panel's power
    and the amplifier's too), GPIO 20 held where the voice is; what is checked in is
    what the config draws."""
    from firmware.tools.header_view import HEADER_TITLES, HEADER_VIEWS, header_svg

    for name, shown in HEADER_VIEWS.items():
        drawn = header_svg(shown(Config()), HEADER_TITLES[name])
        assert (HARDWARE / name).read_text(encoding="utf-8") == drawn, name
        pins = re.findall(r'font-weight="bold">(\d+)</text>', drawn)
        assert sorted(map(int, pins)) == list(range(1, 41)), name
    plain = (HARDWARE / "header.svg").read_text(encoding="utf-8")
    for said in ("3V3: OLED VCC", "GND: OLED GND", "GPIO 17: ROLL button",
                 "GPIO 21: Seat 6 switch", "GPIO 18: Buzzer (optional)",
                 "GPIO 20: Seat 6 LED (optional)"):
        assert said in plain, said
    voice = (HARDWARE / "header-voice.svg").read_text(encoding="utf-8")
    for said in ("5V: Amplifier VIN", "GND: Amplifier GND", "GPIO 18: Amplifier BCLK",
                 "GPIO 19: Amplifier LRC (LRCLK)", "GPIO 21: Amplifier DIN",
                 "GPIO 20: held by the I2S overlay", "GPIO 16: Seat 4 switch"):
        assert said in voice, said
    assert "Seat 4 switch" not in voice.split("GPIO 19:")[1].split("</text>")[0]


def test_the_default_config_file_is_generated_from_the_config() -> None:
    text = (ROOT / "systemd" / "config.toml").read_text(encoding="utf-8")
    assert text == default_toml(Config())
    assert parse(tomllib.loads(text)) == parse({})


@pytest.mark.parametrize("name,interface", [("schematic", Interface.I2C),
                                            ("schematic-spi", Interface.SPI)])
def test_the_schematic_shows_every_wire_of_the_config(name: str, interface: Interface) -> None:
    svg = (HARDWARE / f"{name}.svg").read_text(encoding="utf-8")
    drawn = {int(n) for n in re.findall(r"GPIO(\d+) \(pin \d+\)", svg)}
    wanted = {w.gpio for w in wires(Config(), interface) if w.gpio is not None}
    assert drawn == wanted
    for wire in wires(Config(), interface):
        if wire.gpio is not None:
            assert f"GPIO{wire.gpio} (pin {wire.pin})" in svg
    assert (HARDWARE / f"{name}.png").stat().st_size > 10_000


def test_every_default_pin_is_on_the_header_and_used_once() -> None:
    config = Config()
    gpios = [w.gpio for w in wires(config) if w.gpio is not None]
    assert len(gpios) == len(set(gpios)) and all(g in PHYSICAL for g in gpios)
    spi = [w.gpio for w in wires(config, Interface.SPI) if w.gpio is not None]
    assert len(spi) == len(set(spi))


def test_the_hardware_folder_has_what_a_maker_needs() -> None:
    guide = (HARDWARE / "README.md").read_text(encoding="utf-8")
    for needed in ("Bill of materials", "i2cdetect -y 1", "robinson selftest", "400 kHz",
                   "schematic.svg", "WIRING.md", "Power"):
        assert needed in guide, needed


def test_the_spi_panels_wiring_follows_the_config() -> None:
    from dataclasses import replace

    config = Config()
    moved = replace(config, display=replace(config.display, gpio_data_command=16,
                                            gpio_backlight=14, spi_device=1))
    text = wiring_markdown(moved)
    tft = text.split("## Colour TFT")[1].split("##")[0]
    oled = text.split("## SSD1322")[1].split("##")[0]
    assert "| Panel DC (RS) | 16 | 36 |" in tft and "| Panel DC (RS) | 16 | 36 |" in oled
    assert "| Panel BL (LED) | 14 | 8 |" in tft and "BL" not in oled
    assert "| Panel CS | 7 | 26 | CE1 |" in oled


class GPIOBusy(Exception):
    """What lgpio raises for a pin another process or a dtoverlay holds (lgpio.error)."""


@pytest.mark.parametrize("key,pin", [("pins.button", 17), ("pins.seats[3]", 13),
                                     ("pins.leds[2]", 23), ("pins.buzzer", 18)])
def test_a_busy_pin_is_one_line_naming_it_and_nothing_stays_claimed(key: str, pin: int) -> None:
    from gpiozero import Button
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from firmware.emulate.rig import emulate
    from firmware.errors import HardwareError

    class Held(MockFactory):  # type: ignore[misc]  # a pin held elsewhere, as lgpio says it
        def pin(self, spec: object, pin_class: object = None, **kwargs: object) -> object:
            if spec == pin:
                raise GPIOBusy("GPIO busy")
            return super().pin(spec, pin_class=pin_class, **kwargs)

    config = parse({"pins": {"use_leds": True, "use_buzzer": True}})
    factory = Held(pin_class=MockPWMPin)
    with pytest.raises(HardwareError) as raised:
        emulate(config, pin_factory=factory)
    said = str(raised.value)
    assert said.startswith(f"{key}: GPIO {pin} is busy") and "gpioinfo" in said, said
    assert "\n" not in said
    taken = 0
    for other in (17, 5, 6, 13, 22, 23, 18):  # what was claimed before it: let go
        if other != pin:
            Button(other, pin_factory=factory).close()
            taken += 1
    assert taken == 6


def test_gpio_4_held_beside_an_amplifier_names_the_overlays_sd_pin() -> None:
    """An owner's own config.txt line (dtoverlay=max98357a, without no-sdmode) holds
    GPIO 4, the seat 4 LED's: the line says which line of config.txt to mend."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from firmware.emulate.rig import emulate
    from firmware.errors import HardwareError

    class Held(MockFactory):  # type: ignore[misc]
        def pin(self, spec: object, pin_class: object = None, **kwargs: object) -> object:
            if spec == 4:
                raise GPIOBusy("GPIO busy")
            return super().pin(spec, pin_class=pin_class, **kwargs)

    config = parse({"pins": {"use_leds": True, "seats": [5, 6, 13, 16]},
                    "voice": {"i2s_amplifier": True}})
    with pytest.raises(HardwareError) as raised:
        emulate(config, pin_factory=Held(pin_class=MockPWMPin))
    said = str(raised.value)
    assert said.startswith("pins.leds[4]: GPIO 4 is busy") and "no-sdmode" in said, said


@pytest.mark.parametrize("chips,header", [
    # a Pi 5 on kernel 6.6.45 and later: the RP1's bank is not gpiochip4 any more
    ({0: "gpio-brcmstb@107d508500", 1: "gpio-brcmstb@107d517c00", 2: "pinctrl-rp1",
      3: "gpio-brcmstb@107d508500", 4: "gpio-brcmstb@107d517c00"}, 2),
    ({0: "pinctrl-rp1", 10: "gpio-brcmstb@107d508500"}, 0),  # a Pi 5 of a 2026 kernel
    ({0: "pinctrl-bcm2711", 1: "raspberrypi-exp-gpio"}, 0),  # a Pi 4
    ({0: "pinctrl-bcm2835", 1: "raspberrypi-exp-gpio"}, 0),  # a Pi 3, a Zero 2
    ({0: "gpio-sim.0-node0"}, None),  # nothing known: gpiozero's own choice stands
    ({}, None),
])
def test_the_headers_gpio_chip_is_found_by_its_label(chips: dict[int, str],
                                                     header: int | None) -> None:
    from firmware.gpiochip import header_chip

    assert header_chip(chips) == header


def test_a_chip_that_does_not_answer_the_ioctl_is_left_out(tmp_path: Path) -> None:
    from firmware.gpiochip import labels

    (tmp_path / "gpiochip0").write_bytes(b"")  # a file, not a GPIO chip: ENOTTY
    (tmp_path / "gpiochipx").write_bytes(b"")
    assert labels(tmp_path) == {}


def _slack_of_thread() -> int:
    # /proc/TID (not listed, but there for every thread) is the thread itself
    return int(Path(f"/proc/{threading.get_native_id()}/timerslack_ns").read_text())


@pytest.mark.parametrize("wanted", [1_000, None])
def test_threads_started_for_a_buzzer_take_a_tones_slack(wanted: int | None) -> None:
    """What the table does around opening the GPIO chip, in a thread of its own (so this
    process's main thread is not touched): a thread started within takes the slack (as
    lgpio's PWM and alert threads do), and the opener's own comes back after."""
    from firmware.timerslack import threads_started_with

    seen: dict[str, int] = {}

    def opener() -> None:
        seen["before"] = _slack_of_thread()
        with threads_started_with(wanted):
            seen["within"] = _slack_of_thread()
            child = threading.Thread(target=lambda: seen.update(child=_slack_of_thread()))
            child.start()
            child.join()
        seen["after"] = _slack_of_thread()

    thread = threading.Thread(target=opener)
    thread.start()
    thread.join()
    expected = wanted if wanted is not None else seen["before"]
    assert seen["within"] == seen["child"] == expected, seen
    assert seen["after"] == seen["before"] != 1_000, seen


class _GpiozeroFactory(MockFactory):  # type: ignore[misc]
    """gpiozero's LGPIOFactory as each release makes it, on this machine's mock pins:
    ``honours`` False is 2.0 and 2.0.1 from PyPI, which open chip 4 on a Pi 5 and
    else 0 whatever ``chip`` says (``self._chip`` is what they opened); True is
    2.0.1.post1 and later, and Pi OS's patched 2.0.1 (setup.cfg's floor is post3: post1
    and post2 fail on a Pi 5 with no chip named, a missing import). ``slack`` notes the
    timer slack of the thread that made it (lgpio starts its threads then)."""

    honours = True
    slack: ClassVar[list[int]] = []

    def __init__(self, chip: int | None = None) -> None:
        super().__init__(pin_class=MockPWMPin)
        self._chip = chip if self.honours and chip is not None else 0
        _GpiozeroFactory.slack.append(_slack_of_thread())


class _Failing:
    def __init__(self, chip: int | None = None) -> None:
        raise OSError("can not open gpiochip")


def _on_a_pi5(monkeypatch: pytest.MonkeyPatch, factory: type) -> None:
    """gpiochip.labels() as a Pi 5 of kernel 6.6.45 lists them (the header is chip 2);
    gpiozero's LGPIOFactory and default factory are ``factory``."""
    from gpiozero import Device

    from firmware import gpiochip

    monkeypatch.setattr(gpiochip, "labels", lambda dev=None: {
        0: "gpio-brcmstb@107d508500", 1: "gpio-brcmstb@107d517c00", 2: "pinctrl-rp1"})
    lgpio_pins = types.ModuleType("gpiozero.pins.lgpio")  # (this machine has no lgpio)
    lgpio_pins.LGPIOFactory = factory  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", lgpio_pins)
    monkeypatch.delenv("RPI_LGPIO_CHIP", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory",
                        staticmethod(lambda: _GpiozeroFactory(None)))


def _build_in_a_thread(config: Config) -> object:
    """``build`` as the table makes it on a Pi (no factory given), in a thread of its
    own (its timer slack is changed and put back)."""
    from firmware.devices import build

    made: list[object] = []

    def make() -> None:
        try:
            made.append(build(config, make_device=lambda: None))  # type: ignore[arg-type,return-value]
        except Exception as error:  # the test reads it
            made.append(error)

    thread = threading.Thread(target=make)
    thread.start()
    thread.join()
    return made[0]


def test_a_gpiozero_that_opens_another_chip_than_asked_stops_the_table_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An unpatched gpiozero (2.0 or 2.0.1 from a wheelhouse) opens chip 0 on this Pi 5,
    a bank the header is not on: the table would drive pins nobody wired. It stops with
    one line (status 3), naming what it opened and what it was asked."""
    from firmware.errors import HardwareError

    monkeypatch.setattr(_GpiozeroFactory, "honours", False)
    _on_a_pi5(monkeypatch, _GpiozeroFactory)
    made = _build_in_a_thread(Config())
    assert isinstance(made, HardwareError) and made.status == 3, made
    said = str(made)
    assert "opened gpiochip0, not the header's gpiochip2 (pinctrl-rp1)" in said, said
    assert "gpiozero>=2.0.1.post3" in said and "\n" not in said
    monkeypatch.setattr(_GpiozeroFactory, "honours", True)
    made = _build_in_a_thread(Config())
    assert not isinstance(made, Exception), made
    made.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("factory", [_GpiozeroFactory, _Failing])
def test_gpiozeros_own_factory_too_is_made_within_the_buzzers_slack(
        monkeypatch: pytest.MonkeyPatch, factory: type) -> None:
    """Where the header's chip will not open (``_Failing``), gpiozero's own choice is
    made at once, within the buzzer's timer slack, as the header's is: not later, by
    the first pin, with the unit's 10 ms slack in lgpio's threads."""
    from firmware.config.settings import Pins

    _on_a_pi5(monkeypatch, factory)
    _GpiozeroFactory.slack.clear()
    made = _build_in_a_thread(Config(pins=Pins(use_buzzer=True)))
    assert not isinstance(made, Exception), made
    made.close()  # type: ignore[attr-defined]
    assert _GpiozeroFactory.slack == [1_000], _GpiozeroFactory.slack


def test_the_table_starts_no_thread_that_wakes_while_idle() -> None:
    """gpiozero's Button starts a hold thread that wakes ten times a second (its
    ``holding.wait(0.1)``), for a hold the table times itself: the ROLL button is a
    plain input device, and no such thread runs once the rigging is made."""
    import threading

    from gpiozero.mixins import HoldThread

    from firmware.config.settings import Config
    from firmware.emulate.rig import emulate

    rig = emulate(Config(), seats_on=(1, 2))
    try:
        holders = [t for t in threading.enumerate() if isinstance(t, HoldThread)]
        assert holders == [] and rig.wire().button.is_active is False
    finally:
        rig.close()
