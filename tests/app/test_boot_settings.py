"""The settings file on the boot partition: a good one becomes the config, a bad one
never does (the last good config stays) and the line at fault is said: on the title,
beside the file for the owner, and by the buzzer where no panel can say it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware import boot_settings, session
from firmware.boot_settings import apply, beep, settle

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (ROOT / "systemd/config.toml").read_text()


@pytest.fixture
def card(tmp_path: Path) -> dict[str, Path]:
    """A boot partition with the settings file, and /etc with the last good config."""
    boot, etc = tmp_path / "bootfs", tmp_path / "etc"
    for folder in (boot, etc, tmp_path / "run"):
        folder.mkdir()
    (etc / "config.toml").write_text(SHIPPED)
    return {"source": boot / "robinson-table.toml", "target": etc / "config.toml",
            "refused": tmp_path / "run" / "refused", "report": boot / boot_settings.REPORT}


def with_line(text: str, old: str, new: str) -> tuple[str, int]:
    """``text`` with the line ``old`` made ``new``, and that line's number."""
    lines = text.splitlines()
    number = lines.index(old) + 1
    lines[number - 1] = new
    return "\n".join(lines) + "\n", number


def test_a_good_file_becomes_the_config_even_as_notepad_saves_it(
        card: dict[str, Path]) -> None:
    """Windows line ends and a byte-order mark (old Notepad) are still the file meant."""
    text, _ = with_line(SHIPPED, 'language = "en"  # en, hr, fi, ja', 'language = "fi"')
    card["source"].write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    card["refused"].write_text("3\tstale\n")  # an earlier boot's refusal
    outcome, said = settle(card["source"], card["target"], card["refused"])
    assert outcome is not None and outcome.taken and outcome.changed
    assert card["target"].read_bytes() == text.replace("\n", "\r\n").encode()
    assert said == "robinson-table.toml taken: the table runs with it"
    assert card["report"].read_text() == said + "\n"
    assert not card["refused"].exists()
    outcome, said = settle(card["source"], card["target"], card["refused"])
    assert outcome is not None and outcome.taken and not outcome.changed
    assert "unchanged" in said
    assert not list(card["target"].parent.glob(".*"))  # no trial file left behind


@pytest.mark.parametrize(("old", "new", "why"), [
    ("i2c_address = 0x3c", "i2c_address = 0x99", "display.i2c_address"),
    ("seats = [5, 6, 13, 19, 26, 21]", "seats = [5, 6, 13, 19, 26, 99]", "pins.seats"),
    ("purse = 20", "purse = -5", "house rule purse"),
    ("contrast = 255", "contrst = 255", "unknown key [display] 'contrst'"),
    ("purse = 20", "purse = = 20", "not valid TOML"),
    ('language = "en"  # en, hr, fi, ja', 'language = "xx"', "language"),
])
def test_a_wrong_line_is_never_taken_and_is_named(card: dict[str, Path], old: str, new: str,
                                                  why: str) -> None:
    text, number = with_line(SHIPPED, old, new)
    card["source"].write_text(text)
    before = card["target"].read_bytes()
    outcome, said = settle(card["source"], card["target"], card["refused"])
    assert outcome is not None and not outcome.taken
    assert outcome.line == number, (outcome, number)
    assert why in outcome.said
    assert card["target"].read_bytes() == before  # the last good settings stay
    assert said.startswith(f"robinson-table.toml NOT taken, line {number} is wrong: ")
    assert "keeps its last good settings" in said and "\n" not in said
    assert card["report"].read_text() == said + "\n"
    line, _, reason = card["refused"].read_text().partition("\t")
    assert int(line) == number and why in reason
    assert not list(card["target"].parent.glob(".*"))


def test_no_file_changes_nothing(card: dict[str, Path]) -> None:
    before = card["target"].read_bytes()
    outcome, said = settle(card["source"], card["target"], card["refused"])
    assert outcome is None and "no robinson-table.toml" in said
    assert card["target"].read_bytes() == before and not card["report"].exists()


def test_a_folder_or_a_huge_file_is_refused_as_a_whole(card: dict[str, Path]) -> None:
    card["source"].write_text("# " + "x" * 200_000 + "\n")
    outcome = apply(card["source"], card["target"])
    assert outcome is not None and not outcome.taken and outcome.line is None
    assert "larger than" in outcome.said
    card["source"].unlink()
    card["source"].mkdir()
    outcome = apply(card["source"], card["target"])
    assert outcome is not None and not outcome.taken and "cannot read it" in outcome.said
    assert card["target"].read_text() == SHIPPED


def test_the_command_says_one_line_and_fails_only_for_a_refused_file(
        card: dict[str, Path]) -> None:
    def settings() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(Path(sys.executable).with_name("robinson")), "settings",
             "--from", str(card["source"]),
             "--to", str(card["target"]), "--refused", str(card["refused"])],
            capture_output=True, text=True, check=False, cwd=ROOT)

    card["source"].write_text(SHIPPED.replace("purse = 20", "purse = 25"))
    run = settings()
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == "robinson settings: robinson-table.toml taken: the table runs with it\n"
    assert "purse = 25" in card["target"].read_text()
    text, number = with_line(SHIPPED, "purse = 20", "purse = -5")
    card["source"].write_text(text)
    run = settings()
    assert run.returncode == 1 and run.stderr == "" and run.stdout.count("\n") == 1
    assert f"NOT taken, line {number} is wrong: [rules] house rule purse" in run.stdout
    assert "purse = 25" in card["target"].read_text()


def test_with_no_panel_the_buzzer_beeps_the_line(tmp_path: Path) -> None:
    """Line 23: two long beeps and three short, twice; a config without a buzzer: none."""
    config = tmp_path / "config.toml"
    config.write_text(SHIPPED.replace("use_buzzer = false", "use_buzzer = true"))
    factory = MockFactory(pin_class=MockPWMPin)
    slept: list[float] = []
    assert beep(config, 23, factory=factory, sleep=slept.append) == 10
    on = [length for length in slept if length in (0.9, 0.15)]
    assert on == [0.9, 0.9, 0.15, 0.15, 0.15] * 2
    pin = factory.pin(18)
    started = [s for s in pin.states if s.state]  # each beep drives the pin
    assert len(started) == 10, pin.states
    config.write_text(SHIPPED)
    assert beep(config, 23, factory=MockFactory(pin_class=MockPWMPin), sleep=slept.append) == 0


def test_the_table_hears_of_this_boots_refusal(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    refused = tmp_path / "refused"
    monkeypatch.setattr(boot_settings, "REFUSED", refused)
    assert session._settings_refused() is None
    refused.write_text("12\tdisplay.i2c_address must be ...\n")
    assert session._settings_refused() == 12
    refused.write_text("junk")
    assert session._settings_refused() is None
