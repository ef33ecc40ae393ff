"""robinson selftest on the emulated table: inputs show live, outputs take turns."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.config.settings import Config, Pins, Timings
from firmware.emulate.rig import emulate
from firmware.runtime.loop import ManualClock, advance
from firmware.tools.selftest import STEP, SelfTest

from ..rig import FONTS

CLOCK = ManualClock(1000.0)


def settle(test: SelfTest, seconds: float = 0.05) -> None:
    """Let ``seconds`` pass on the loop's clock (no sleeping: the test's own time)."""
    advance(test.rig.loop, CLOCK, seconds)


def test_selftest_shows_inputs_live_and_lights_outputs_in_turn() -> None:
    rig = emulate(Config(pins=Pins(use_leds=True, use_buzzer=True),
                         timings=Timings(long_press=0.4, menu_press=0.8)), clock=CLOCK)
    done: list[bool] = []
    test = SelfTest(rig, lang="en", on_done=lambda: done.append(True), fonts=FONTS)
    test.start()
    settle(test)
    assert test.screen().body[:2] == ("ROLL: up", "Seats: 1○2○3○4○5○6○")
    assert [led.value for led in rig.wire().outputs.leds[:2]] == [1, 0]
    rig.hands.seat(2, True)
    rig.hands.button.drive_low()
    settle(test)
    assert test.screen().body[:2] == ("ROLL: DOWN", "Seats: 1○2●3○4○5○6○")
    assert rig.panel.shown is not None
    rig.hands.button.drive_high()
    settle(test, STEP + 0.05)
    assert [led.value for led in rig.wire().outputs.leds[:2]] == [0, 1]
    for _ in range(6):  # round to the buzzer
        settle(test, STEP)
    assert not done
    rig.hands.button.drive_low()
    settle(test, rig.config.timings.menu_press + 0.1)
    rig.hands.button.drive_high()
    settle(test)
    assert done == [True]
    test.stop()
    rig.close()


def test_selftest_refuses_beside_a_running_table(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """On the wired pins it would take the table's pins and start its panel afresh under
    it; emulated, it shares nothing with a table (an emulated one may be running)."""
    from firmware import cli, revision
    from firmware.saves.store import Store

    monkeypatch.setattr(revision, "pi_revision", lambda: 0xA02082)  # a Pi 3, as gpiozero says
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "service"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    tables = [Store(tmp_path / "service"), Store(tmp_path / "robinson-table")]
    for table in tables:
        table.lock()  # the service's table, and an emulated one, running
    try:
        assert cli.main(["selftest", "--hardware", "pi"]) == 3  # (try again: it may end)
        said = capsys.readouterr().err
        assert said.count("\n") == 1 and "another table is running" in said, said
        assert cli.main(["selftest", "--emulate", "--dice", "--seed", "1"]) == 0
        assert "Fair at 99 %" in capsys.readouterr().out
    finally:
        for table in tables:
            table.unlock()
