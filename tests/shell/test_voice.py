"""The spoken banker at the table: the real table on the bench, the real Speaker running
espeak-ng, a stand-in sound card (``tests.sound_card``: this machine has no ALSA card)
that plays in real time and records. The menu switches the voice; a press cuts the
speech short; speech never moves a frame; a failing card is one journal line."""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.display import screens
from firmware.runtime.speaker import Speaker, Utterance
from firmware.speech.said import Spoken
from firmware.table import machine as m
from firmware.table import messages as msg
from firmware.table.menu import MENU, Row
from firmware.table.state import Fixed, Menu, Mode
from tests.host_packages import ensure

from ..rig import Rig

FACES = [3, 4, 5, 2, 6, 1, 3, 4, 2, 5, 3, 1]


@pytest.fixture(scope="module", autouse=True)
def espeak() -> None:
    problem = ensure("espeak-ng", "alsa-utils")
    if problem:
        pytest.fail(f"espeak-ng and aplay are needed to hear the voice: {problem}")


class Card:
    """The stand-in card's log: ``first AT`` when a stream's first sample came, ``end
    SECONDS PEAK`` when a stream played to its end."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "card.log"

    def command(self, device: str) -> list[str]:
        return [sys.executable, "-m", "tests.sound_card", str(self.path)]

    def lines(self) -> list[list[str]]:
        if not self.path.exists():
            return []
        return [line.split() for line in self.path.read_text().splitlines()]

    def starts(self) -> list[float]:
        return [float(f[1]) for f in self.lines() if f[0] == "first"]

    def ends(self) -> list[tuple[float, int]]:
        return [(float(f[1]), int(f[2])) for f in self.lines() if f[0] == "end"]


class Heard:
    """The real Speaker, and what the panel showed each time it was asked to speak."""

    def __init__(self, speaker: Speaker) -> None:
        self.speaker = speaker
        self.rig: Rig | None = None
        self.asked: list[tuple[Utterance, bool]] = []  # what, and the result was on the panel
        self.hushed = 0
        self.voiced: list[tuple[int, int]] = []  # each Voicing the table gave

    def say(self, utterance: Utterance, after: bool = False) -> None:
        rig = self.rig
        shown = rig is not None and rig.table.game is not None and rig.table.mode is Mode.PLAY \
            and rig.showing(rig.table.screen, rig.table.page)
        self.asked.append((utterance, shown))
        self.speaker.say(utterance, after)

    def hush(self) -> None:
        self.hushed += 1
        self.speaker.hush()

    def voicing(self, volume: int, speed: int) -> None:
        self.voiced.append((volume, speed))
        self.speaker.voicing(volume, speed)


@pytest.fixture
def card(tmp_path: Path) -> Card:
    return Card(tmp_path)


@pytest.fixture
def heard(card: Card) -> Iterator[Heard]:
    speaker = Speaker(play=card.command, speed=280)  # quick: the tests wait for the ends
    yield Heard(speaker)
    speaker.close()


def table(tmp_path: Path, heard: Heard | None, **kwargs: object) -> Rig:
    rig = Rig(tmp_path / "state", faces=FACES, seats_on=(1, 2), voice=heard,
              voice_on=True if heard is not None else None, **kwargs)  # type: ignore[arg-type]
    if heard is not None:
        heard.rig = rig
    rig.wait(2.5)  # the title, then setup by itself
    rig.long()  # the game begins
    assert rig.table.mode is Mode.PLAY
    return rig


def test_each_result_is_said_after_its_frame_and_heard(tmp_path: Path, heard: Heard,
                                                      card: Card) -> None:
    rig = table(tmp_path, heard)
    try:
        expected = []
        for _ in range(3):
            rig.short()
            rig.settle()
            expected.append(Spoken("en").result(rig.game))
            assert heard.speaker.idle(20.0)
        results = [(u, shown) for u, shown in heard.asked[2:] if u.text.startswith("Player")]
        assert [u.text for u, _ in results] == expected
        assert all(shown for _, shown in results)  # the result was on the panel first
        assert heard.asked[0][0].text == Spoken("en").setup((1, 2), 1, True)  # setup, and
        assert heard.asked[1][0].text == "The game begins. Player 1's turn."  # the game begun
        ends = card.ends()
        assert len(ends) == 3  # each result to its end (setup and "begins" were cut short)
        assert all(seconds > 0.5 and peak > 3000 for seconds, peak in ends)
    finally:
        rig.close()


def test_a_press_during_speech_cuts_it_short_and_the_next_result_is_heard(
        tmp_path: Path, heard: Heard, card: Card) -> None:
    rig = table(tmp_path, heard)
    try:
        assert heard.speaker.idle(20.0)
        before = len(card.starts())
        rig.short()
        rig.settle()
        deadline = time.monotonic() + 10
        while len(card.starts()) == before and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(card.starts()) == before + 1  # the first result is being said
        time.sleep(0.3)
        ended = len(card.ends())
        rig.short()  # the next roll, while the first result is still being said
        rig.settle()
        assert heard.speaker.idle(20.0)
        assert heard.hushed >= 1  # the roll hushed the table at once
        assert len(card.starts()) == before + 2
        assert len(card.ends()) == ended + 1  # only the second was heard to its end
        last = heard.speaker.said[-1]
        assert last[2].text == Spoken("en").result(rig.game) and last[1] is not None
    finally:
        rig.close()


def frames(rig: Rig, presses: int) -> list[tuple[float, bytes]]:
    """(the manual clock, the panel's image) at each press's settled end."""
    out = []
    for _ in range(presses):
        rig.short()
        out.append((rig.clock.now, rig.shown().tobytes()))
        rig.settle()
        out.append((rig.clock.now, rig.shown().tobytes()))
    return out


def test_speech_moves_no_frame_and_no_timer(tmp_path: Path, heard: Heard) -> None:
    """The same presses with the voice on and off: every frame at the same moment of the
    table's clock (the speech runs beside the loop, it never holds it)."""
    quiet = table(tmp_path / "quiet", None)
    speaking = table(tmp_path / "speaking", heard)
    try:
        assert frames(quiet, 6) == frames(speaking, 6)
        assert len([u for u, _ in heard.asked[2:] if u.text.startswith("Player")]) == 6
    finally:
        quiet.close()
        speaking.close()


def menu_to(rig: Rig, row: Row) -> None:
    if rig.table.mode is not Mode.MENU:
        rig.menu()
    while not (isinstance(now := rig.table.state.now, Menu) and MENU[now.row] is row):
        rig.hold(0.1)


def test_the_menu_switches_the_voice_off_and_the_table_falls_silent(
        tmp_path: Path, heard: Heard) -> None:
    rig = table(tmp_path, heard)
    try:
        menu_to(rig, Row.VOICE)
        assert "Voice: on" in rig.table.screen.body[rig.table.screen.cursor]
        rig.hold(1.1)  # choose: off
        assert rig.table.state.prefs.voice is False and heard.hushed >= 1
        assert "Voice: off" in rig.table.screen.body[rig.table.screen.cursor]
        asked = len(heard.asked)
        menu_to(rig, Row.BACK)
        rig.hold(1.1)
        for _ in range(3):
            rig.short()
            rig.settle()
        assert len(heard.asked) == asked  # nothing more said
        assert rig.store.prefs()["voice"] == "off"  # and so it stays at the next start
    finally:
        rig.close()
    again = Rig(tmp_path / "state", faces=FACES, seats_on=(1, 2), voice=heard)
    try:
        assert again.table.state.prefs.voice is False
    finally:
        again.close()


def test_the_menus_volume_and_speed_reach_the_speaker(tmp_path: Path, heard: Heard) -> None:
    """The menu's steps are what espeak-ng is next given: the real Speaker's settings,
    told through the table's shell (``Voicing``), and kept for the next start."""
    rig = table(tmp_path, heard)
    try:
        menu_to(rig, Row.VOLUME)
        rig.long()
        menu_to(rig, Row.SPEED)
        rig.long()
        rig.settle()
        assert heard.voiced == [(70, 185), (70, 220)]  # the config's speed, then fast
        assert (heard.speaker.volume, heard.speaker.speed) == (70, 220)
        assert "70 %" in " ".join(rig.table.screen.body)
    finally:
        rig.close()
    again = Rig(tmp_path / "state", faces=FACES, seats_on=(1, 2), voice=heard)
    try:
        assert heard.voiced[-1] == (70, 220) and len(heard.voiced) == 3  # told at the start
    finally:
        again.close()


def test_the_storyteller_row_adds_the_squares_story(tmp_path: Path, heard: Heard) -> None:
    rig = table(tmp_path, heard)
    try:
        menu_to(rig, Row.STORY)
        rig.hold(1.1)
        assert heard.asked[-1][0].text == "Storyteller on."
        menu_to(rig, Row.BACK)
        rig.hold(1.1)
        rig.short()
        rig.settle()
        text = heard.asked[-1][0].text
        square = rig.game.state.player(1).position or 0
        from firmware.speech.words import story

        assert story("en", square) in text
    finally:
        rig.close()


def test_a_sound_card_that_will_not_open_is_one_journal_line_and_the_game_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    speaker = Speaker(device="nosuchcard")  # real aplay: ALSA cannot open it
    heard = Heard(speaker)
    caplog.set_level(logging.WARNING, "robinson.voice")
    rig = table(tmp_path, heard)
    try:
        for _ in range(3):
            rig.short()
            rig.settle()
            assert speaker.idle(20.0)
        lines = [r.getMessage() for r in caplog.records if r.name == "robinson.voice"]
        assert len(lines) == 1 and "nosuchcard" in lines[0] and "plays on" in lines[0]
        assert len(rig.game.actions) == 3  # every roll played
    finally:
        rig.close()
        speaker.close()


def test_no_synthesizer_is_one_line_saying_what_to_install(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng on it
    speaker = Speaker()
    caplog.set_level(logging.WARNING, "robinson.voice")
    try:
        for _ in range(3):
            speaker.say(Utterance("Ana, 14.", "en"))
            assert speaker.idle(10.0)
    finally:
        speaker.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "robinson.voice"]
    assert lines == ["cannot start espeak-ng (No such file or directory): sudo apt install "
                     "espeak-ng; the table plays on silently"]


def test_a_capture_writes_each_utterance_beside_its_frame(tmp_path: Path, card: Card) -> None:
    speaker = Speaker(play=card.command)
    try:
        record = tmp_path / "speech-00007.en.wav"
        speaker.say(Utterance("Ana, 14. Collect 2 from the bank.", "en", record))
        assert speaker.idle(20.0)
    finally:
        speaker.close()
    from tests.display.test_speech import measure

    seconds, peak, sounding = measure(record)
    assert 1.0 < seconds < 6.0 and 3000 < peak < 32767 and sounding > 0.5


def test_the_machine_says_nothing_with_the_voice_off() -> None:
    """With the voice off (the default), no Say and no Hush in a whole game's effects."""
    from firmware.config.settings import Config
    from robinson_core import Game, Roll

    state = m.initial(Fixed(Config(), measure=lambda screen: (1, 0)))
    state, effects = m.step(state, msg.Start(game=Game((1, 2)).play(Roll(3))))
    state, wired = m.step(state, msg.Wired(seats=(1, 2)))
    effects += wired
    state, more = m.step(state, msg.Pressed(msg.Press.SHORT))  # resume
    for face in (3, 4, 5):
        state, step = m.step(state, msg.Pressed(msg.Press.SHORT))
        more += step
        state, step = m.step(state, msg.Face(face))
        more += step
    said_effects = [e for e in effects + more if isinstance(e, msg.Say | msg.Hush)]
    assert said_effects == [] and screens is not None


def test_an_emulated_demo_with_the_voice_writes_each_utterance_beside_its_frame(
        tmp_path: Path) -> None:
    """``robinson table --demo --voice --capture DIR`` (ALSA's null device: this machine
    has no card): a WAV for each thing said, named after its frame, with what it says
    in frames.log, each a real utterance."""
    import os
    import signal
    import subprocess

    from tests.display.test_speech import measure

    config = tmp_path / "config.toml"
    config.write_text('[voice]\ndevice = "null"\n', encoding="utf-8")
    frames = tmp_path / "frames"
    table = subprocess.Popen(
        [Path(sys.executable).with_name("robinson"), "table", "--demo", "--seed", "1",
         "--voice", "--lang", "fi", "--config", str(config), "--capture", str(frames)],
        env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")},
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    with table:
        began = time.monotonic()
        while len(list(frames.glob("speech-*.wav"))) < 4 and time.monotonic() - began < 60:
            if table.poll() is not None:
                break
            time.sleep(0.2)
        time.sleep(1.0)  # the last one written whole
        table.send_signal(signal.SIGTERM)
        _, errors = table.communicate(timeout=30)
    assert table.returncode == 0, errors
    said_lines = [line for line in (frames / "frames.log").read_text().splitlines()
                  if line.startswith("speech-")]
    wavs = sorted(frames.glob("speech-*.fi.wav"))
    assert len(wavs) >= 4 and len(said_lines) >= len(wavs)
    for wav in wavs:
        frame = wav.name.split(".")[0].replace("speech", "frame") + ".png"
        assert (frames / frame).exists()  # said with a frame that is there
        seconds, peak, sounding = measure(wav)
        assert seconds > 0.8 and 3000 < peak < 32767 and sounding > 0.3, wav
    assert "Pelaaja" in said_lines[-1]  # in the table's language


# -- the voice's own faults: stand-in programs on PATH -------------------------------------


def stand_ins(folder: Path, synth: str, player: str) -> list[str]:
    """An espeak-ng and a player of shell script: ``synth`` and ``player`` their bodies.
    The player's command for Speaker(play=...)."""
    for name, body in (("espeak-ng", synth), ("player", player)):
        script = folder / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    return [str(folder / "player")]


WAV = "printf 'RIFF\\044\\000\\000\\000WAVEfmt '; head -c 2000 /dev/zero"


def test_the_voice_keeps_only_its_newest_utterances(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 39: ``said`` kept every utterance of the run (+4.8 MB over 1,900 games)."""
    from firmware.runtime import speaker as module

    play = stand_ins(tmp_path, WAV, "cat > /dev/null")
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    speaker = Speaker(play=lambda device: play)
    try:
        for n in range(module.KEPT + 40):
            speaker.say(Utterance(f"Ana, {n}.", "en"))
            assert speaker.idle(10.0)
    finally:
        speaker.close()
    assert len(speaker.said) == module.KEPT
    assert speaker.said[-1][2].text == f"Ana, {module.KEPT + 39}."


def test_a_synthesizer_that_lingers_after_its_sound_is_cut_by_the_next_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 39: one that closed its output but stayed cost 5 s an utterance, and a new
    text could not cut it."""
    play = stand_ins(tmp_path, f"{{ {WAV}; }}; exec >&-; sleep 30", "cat > /dev/null")
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    speaker = Speaker(play=lambda device: play)
    try:
        speaker.say(Utterance("Ana, 1.", "en"))
        time.sleep(0.5)  # its sound is out; it lingers
        began = time.monotonic()
        speaker.say(Utterance("Ana, 2.", "en"))
        time.sleep(0.5)
        speaker.hush()
        assert speaker.idle(10.0)
        took = time.monotonic() - began
    finally:
        speaker.close()
    assert [u.text for _, _, u in speaker.said] == ["Ana, 1.", "Ana, 2."]
    assert took < 3.0, took


def test_a_player_that_leaves_its_group_does_not_silence_the_voice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 39: a player that survived the group's kill left the voice's thread in a
    wait without end, silent for the rest of the run. This one makes itself a session
    of its own (setsid), which the group's kill misses, and lingers."""
    from firmware.runtime import speaker as module

    monkeypatch.setattr(module, "REAP_WAIT", 0.5)
    play = stand_ins(tmp_path, WAV, "exec setsid sh -c 'cat > /dev/null; sleep 30'")
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    speaker = Speaker(play=lambda device: play)
    try:
        speaker.say(Utterance("Ana, 1.", "en"))
        assert speaker.idle(10.0)
        speaker.say(Utterance("Ana, 2.", "en"))  # the voice is not stuck: it goes on
        assert speaker.idle(10.0)
    finally:
        speaker.close()
    assert [u.text for _, _, u in speaker.said] == ["Ana, 1.", "Ana, 2."]


class _Unkillable:
    """A process that never ends, whatever it is sent (one stuck in the kernel)."""

    pid = 999_999

    def poll(self) -> None:
        return None

    def kill(self) -> None:
        pass


def test_a_process_that_will_not_end_is_left_behind_said_once(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from firmware.runtime import speaker as module

    monkeypatch.setattr(module, "REAP_WAIT", 0.2)
    monkeypatch.setattr(module, "_kill", lambda group: None)
    caplog.set_level(logging.WARNING, "robinson.voice")
    speaker = Speaker()
    try:
        for _ in range(2):  # said once, not at each
            assert speaker._reaped(_Unkillable(), 999_999, last=True) is False  # type: ignore[arg-type]
    finally:
        speaker.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "robinson.voice"]
    assert lines == ["a sound process (pid 999999) would not end, even killed: left "
                     "behind; the voice goes on with the next text"]


@pytest.mark.parametrize("after", [True, False])
def test_a_text_said_after_waits_for_the_one_being_said(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        after: bool) -> None:
    """A decision's odds come some 60 ms after its result began to be said: said after
    it, never over it (a text said now cuts the one being said short, as ever)."""
    log = tmp_path / "played"
    play = stand_ins(tmp_path, WAV, f"cat > /dev/null; sleep 0.5; echo done >> {log}")
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    speaker = Speaker(play=lambda device: play)
    try:
        speaker.say(Utterance("Ana, 20. Ana decides.", "en"))
        time.sleep(0.2)  # being said
        speaker.say(Utterance("Chance to win: again, 41 percent.", "en"), after=after)
        assert speaker.idle(10.0)
    finally:
        speaker.close()
    played = log.read_text().count("done") if log.exists() else 0
    assert played == (2 if after else 1)
    assert [u.text for _, _, u in speaker.said][-1] == "Chance to win: again, 41 percent."
