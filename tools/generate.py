"""Regenerate what is generated from the default config: ``.venv/bin/python tools/generate.py``.

Writes hardware/WIRING.md, hardware/header.svg and header-voice.svg (the header from
above, without and with the voice's amplifier), hardware/schematic.svg and .png (the OLED on I2C),
hardware/schematic-spi.svg and .png (the OLED on SPI), and systemd/config.toml.
Tests check that the checked-in files agree with what this would write.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no screen needed
import schemdraw
import schemdraw.elements as elm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware.config.settings import Config  # noqa: E402
from firmware.display.panels import Interface  # noqa: E402
from firmware.header import GROUND  # noqa: E402
from firmware.tools.header_view import (  # noqa: E402
    HEADER_TITLES,
    HEADER_VIEWS,
    header_svg,
)
from firmware.tools.wiring import Wire, default_toml, wires, wiring_markdown  # noqa: E402


def schematic(config: Config, interface: Interface) -> schemdraw.Drawing:
    """The Pi's header on the left, each part on its own line to the right."""
    parts = [w for w in wires(config, interface) if w.gpio is not None]
    schemdraw.config(fontsize=11)
    drawing = schemdraw.Drawing(show=False)
    # Right-side pins are placed bottom to top: list them reversed, the button on top.
    pins = [elm.IcPin(name=f"GPIO{w.gpio} (pin {w.pin})", side="right", anchorname=f"p{i}")
            for i, w in reversed(list(enumerate(parts)))]
    pins.append(elm.IcPin(name="GND", side="left", anchorname="gnd"))
    pi = elm.Ic(pins=pins, edgepadW=3.2, pinspacing=1.4, leadlen=0.6).label(
        "Raspberry Pi 40-pin header\n(BCM numbers; inputs use the internal pull-ups)",
        loc="top")
    drawing += pi
    for i, wire in enumerate(parts):
        drawing += elm.Line().at(getattr(pi, f"p{i}")).right(1.0)
        _part(drawing, wire)
    drawing += elm.Line().at(pi.gnd).left(0.8)
    drawing += elm.Ground().label("GND: header pins\n" + ", ".join(map(str, GROUND)), loc="bottom")
    title = "OLED on I2C (default)" if interface is Interface.I2C else "OLED on SPI"
    power = [w for w in wires(config, interface) if w.gpio is None]
    note = ", ".join(f"{w.part} to {w.other_end} (pin {w.pin})" for w in power)
    drawing += elm.Label().at((0, -1.6)).label(f"Robinson Table: {title}.  {note}",
                                                 loc="right", halign="left")
    return drawing


def _part(drawing: schemdraw.Drawing, wire: Wire) -> None:
    if wire.part.startswith("OLED"):  # checked first: "OLED" contains "LED"
        drawing += elm.Line().right(4.0)
        drawing += elm.Dot(open=True).label(wire.part, loc="right")
    elif wire.part.startswith("ROLL"):
        drawing += elm.Button().right().label("ROLL button", loc="bottom")
        drawing += elm.Line().right(2.0)
        drawing += elm.Ground()
    elif "switch" in wire.part:
        drawing += elm.Switch().right().label(wire.part, loc="bottom")
        drawing += elm.Line().right(2.0)
        drawing += elm.Ground()
    elif "LED" in wire.part:
        drawing += elm.Resistor().right().label(f"220 Ω / 68 Ω, {wire.part} (optional)",
                                                  loc="bottom")
        drawing += elm.LED().right()
        drawing += elm.Line().right(0.6)
        drawing += elm.Ground()
    elif wire.part == "Buzzer":
        drawing += elm.Resistor().right().label("100 Ω, piezo transducer (optional)",
                                                  loc="bottom")
        drawing += elm.Crystal().right()
        drawing += elm.Line().right(0.6)
        drawing += elm.Ground()


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> None:
    config = Config()
    write(ROOT / "hardware" / "WIRING.md", wiring_markdown(config))
    write(ROOT / "systemd" / "config.toml", default_toml(config))
    for name, shown in HEADER_VIEWS.items():
        write(ROOT / "hardware" / name, header_svg(shown(config), HEADER_TITLES[name]))
    for name, interface in (("schematic", Interface.I2C), ("schematic-spi", Interface.SPI)):
        drawing = schematic(config, interface)
        for suffix in ("svg", "png"):
            target = ROOT / "hardware" / f"{name}.{suffix}"
            drawing.save(str(target), dpi=90)
            print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
