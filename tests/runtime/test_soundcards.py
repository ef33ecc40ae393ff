"""The voice's card, found by name: ALSA's default (card 0) is the jack or HDMI on a Pi,
never the amplifier (PLATFORM.md, "Sound on real Pis")."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.config.file import load
from firmware.errors import ConfigError
from firmware.runtime import soundcards
from firmware.runtime.speaker import Speaker, Utterance

# /proc/asound/cards as each kind of Pi lists them (the kernel's format: index, [id],
# driver, long name; a second line each).
PI4_JACK = """\
 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
 1 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
"""
PI5_AMPLIFIER = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [vc4hdmi1       ]: vc4-hdmi - vc4-hdmi-1
                      vc4-hdmi-1
 2 [MAX98357A      ]: simple-card - MAX98357A
                      MAX98357A
"""
ZERO_USB = """\
 0 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi
                      vc4-hdmi
 1 [UACDemoV10     ]: USB-Audio - UACDemoV1.0
                      Jieli Technology UACDemoV1.0 at usb-3f980000.usb-1, full speed
"""


def test_the_kernels_list_is_read_by_index_name_and_driver() -> None:
    assert soundcards.cards(PI5_AMPLIFIER) == [
        soundcards.Card(0, "vc4hdmi0", "vc4-hdmi"), soundcards.Card(1, "vc4hdmi1", "vc4-hdmi"),
        soundcards.Card(2, "MAX98357A", "simple-card")]
    assert soundcards.cards("--- no soundcards ---\n") == []


@pytest.mark.parametrize(("listed", "amplifier", "device"), [
    (PI5_AMPLIFIER, True, "plughw:CARD=MAX98357A,DEV=0"),  # third, after HDMI's two
    (PI4_JACK, True, "plughw:CARD=MAX98357A,DEV=0"),  # not there yet: said as missing
    (PI4_JACK, False, "plughw:CARD=Headphones,DEV=0"),  # card 0 here, but by its name
    (ZERO_USB, False, "plughw:CARD=UACDemoV10,DEV=0"),  # a USB speaker, not HDMI
    (PI4_JACK + ZERO_USB.replace(" 0 [", " 2 [").replace(" 1 [", " 3 ["), False,
     "plughw:CARD=UACDemoV10,DEV=0"),  # a USB speaker plugged in beats the jack
    ("", False, "default"),  # no cards known: ALSA's own choice
])
def test_auto_names_the_speakers_card(listed: str, amplifier: bool, device: str) -> None:
    cards = soundcards.cards(listed)
    assert soundcards.chosen("auto", amplifier=amplifier, listed=cards) == device
    # a device the config names is played to as it is named
    assert soundcards.chosen("hw:1,0", amplifier=amplifier, listed=cards) == "hw:1,0"


def _voice(tmp_path: Path, text: str) -> tuple[str, bool]:
    path = tmp_path / "config.toml"
    path.write_text(text)
    voice = load(path).voice
    return voice.device, voice.i2s_amplifier


def test_the_config_says_auto_and_reads_the_old_default_with_an_amplifier_as_auto(
        tmp_path: Path) -> None:
    """The template's ``device = "default"`` (before "auto") beside ``i2s_amplifier``
    would play to card 0: read as auto. Without the amplifier, "default" is kept."""
    assert _voice(tmp_path, "") == ("auto", False)
    assert _voice(tmp_path, '[voice]\ni2s_amplifier = true\ndevice = "default"\n'
                  'enabled = true\n[pins]\nseats = [5, 6, 13, 16]\nbuzzer = 12\n') \
        == ("auto", True)
    assert _voice(tmp_path, '[voice]\ndevice = "default"\n') == ("default", False)
    with pytest.raises(ConfigError, match=r"voice\.device"):
        _voice(tmp_path, '[voice]\ndevice = "file:FILE=x"\n')


def test_the_speaker_plays_to_the_card_found_at_each_text(tmp_path: Path) -> None:
    """The card is looked for at each text: a USB speaker plugged in mid-game is played
    to from the next result, and the journal says the new device once."""
    devices: list[str] = []
    listed = [soundcards.cards(PI4_JACK)]

    def play(device: str) -> list[str]:
        devices.append(device)
        return [sys.executable, "-c", "import sys; sys.stdin.buffer.read()"]

    speaker = Speaker(device="auto", play=play, cards=lambda: listed[0])
    try:
        for n, cards in enumerate((PI4_JACK, ZERO_USB, ZERO_USB)):
            listed[0] = soundcards.cards(cards)
            speaker.say(Utterance(f"one {n}", "en"))
            began = time.monotonic()
            while len(speaker.said) <= n and time.monotonic() - began < 20:
                time.sleep(0.02)
            assert len(speaker.said) == n + 1, "espeak-ng said nothing"
    finally:
        speaker.close()
    assert devices == ["plughw:CARD=Headphones,DEV=0", "plughw:CARD=UACDemoV10,DEV=0",
                       "plughw:CARD=UACDemoV10,DEV=0"]
    assert speaker.playing_to == "plughw:CARD=UACDemoV10,DEV=0"


def test_a_missing_amplifier_card_is_one_line_that_says_what_to_check(
        caplog: pytest.LogCaptureFixture) -> None:
    """aplay cannot find the amplifier's card (no overlay, or no reboot since): the
    journal says so, naming the overlay line, not "no sound" alone."""
    if subprocess.run(["sh", "-c", "command -v aplay && command -v espeak-ng"],
                      capture_output=True, check=False).returncode:
        pytest.fail("aplay and espeak-ng are the test's sound tools (tools/bootstrap.sh)")
    speaker = Speaker(device="auto", amplifier=True, cards=lambda: [])
    try:
        with caplog.at_level("WARNING", logger="robinson.voice"):
            speaker.say(Utterance("one", "en"))
            began = time.monotonic()
            while not caplog.records and time.monotonic() - began < 20:
                time.sleep(0.05)
    finally:
        speaker.close()
    lines = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(lines) == 1, lines
    assert "plughw:CARD=MAX98357A,DEV=0" in lines[0] and "no-sdmode" in lines[0], lines
