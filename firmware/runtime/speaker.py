"""The banker's voice: espeak-ng synthesizes, aplay plays it through ALSA, beside the loop.

``say`` only hands the text over (the loop's thread never waits on a process); a
thread of its own starts ``espeak-ng --stdout``, pumps its sound into ``aplay`` and,
when asked, into a WAV file too (``--capture``). A new text cuts the one being said
short: both processes are killed and the new one starts. A missing synthesizer or a
sound card that will not open is one journal line (then at most one a minute) and
the table plays on silently; the next text tries again.

Why aplay and not a Python binding: it is in alsa-utils on every Raspberry Pi OS,
opens any ALSA device by name, and a process can be killed mid-word; measured on
this machine it reaches its first sample within a few milliseconds of espeak-ng's
first (docs/performance.md), and its 3 MB live only while it speaks.
"""

from __future__ import annotations

import collections
import contextlib
import io
import logging
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from firmware.runtime import soundcards
from firmware.speech.words import VOICES, pace

log = logging.getLogger("robinson.voice")

COMPLAIN_EVERY = 60.0  # seconds between journal lines about the same failing device
REAP_WAIT = 5.0  # seconds a sound process may take to end once it is done or killed
KEPT = 256  # utterances ``said`` keeps, the newest: a run of any length costs the same
RECORD_WAIT = 60.0  # seconds a --capture's WAV may take to be written
CHUNK = 4096
WAV_HEADER = 44  # espeak-ng --stdout: a plain 44-byte RIFF header, then 16-bit mono PCM
BYTES_A_SECOND = 22_050 * 2  # of that sound: espeak-ng's 22.05 kHz


Record = Callable[[str, str], Path]
"""Where to write the next utterance (its language, its text), as a WAV (``--capture``)."""


@dataclass(frozen=True)
class Utterance:
    """One text to say, in one language; ``record``: also write it to this WAV file."""

    text: str
    lang: str
    record: Path | None = None


def synthesizer(text: str, lang: str, *, volume: int, speed: int) -> list[str]:
    """espeak-ng's command for ``text``: sound on stdout. ``--`` ends the options: a name
    that begins with a dash is said, not read as one. Two brackets together are parted
    (``[[`` is "[ ["): espeak-ng reads what follows ``[[`` as phoneme codes up to ``]]``,
    so a name of brackets would turn the rest of the sentence into noise. It reads no
    other markup without ``-m``, which it is not given. ``speed`` is the set one, each
    language at its own pace (``pace``)."""
    return ["espeak-ng", "-v", VOICES[lang], "-a", str(volume), "-s", str(pace(lang, speed)),
            "--stdout",
            "--", re.sub(r"([\[\]])(?=[\[\]])", r"\1 ", text)]


def player(device: str) -> list[str]:
    """aplay's command: a WAV stream on stdin, to the ALSA ``device``."""
    return ["aplay", "-q", "-D", device, "-t", "wav", "-"]


class Speaker:
    """Says one text at a time through a thread of its own; the newest text wins."""

    def __init__(self, *, device: str = "default", volume: int = 100, speed: int = 185,
                 amplifier: bool = False,
                 play: Callable[[str], Sequence[str]] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 cards: Callable[[], list[soundcards.Card]] = soundcards.read_cards) -> None:
        """``device``: the config's (``auto``: found on the machine's cards at each text,
        ``firmware.runtime.soundcards``; ``amplifier``: the config has an I2S amplifier);
        ``play``: the player's command for a device (default aplay; a test gives a
        stand-in sound card that paces and records); ``cards``: the machine's."""
        self.device, self.volume, self.speed = device, volume, speed
        self.amplifier = amplifier
        self._cards = cards
        self.playing_to: str | None = None
        """The device the last text went to (``auto`` made real)."""
        self._play = play or player
        self.clock = clock
        self._wanted: Utterance | None = None
        self._cut = False
        self._closed = False
        self._changed = threading.Condition()
        self._last_complaint: dict[str, float] = {}
        self.said: collections.deque[tuple[float, float | None, Utterance]] = (
            collections.deque(maxlen=KEPT))
        """(asked at, its first sound out at or None, what), the newest KEPT: for the bench
        and tests."""
        self._thread = threading.Thread(target=self._serve, name="voice", daemon=True)
        self._thread.start()

    # -- the loop's side: never waits ----------------------------------------------------

    def say(self, utterance: Utterance, after: bool = False) -> None:
        """Say ``utterance`` now, cutting short whatever is being said; ``after``: once
        what is being said is out (it replaces only a text still waiting)."""
        with self._changed:
            self._wanted = utterance
            self._asked = self.clock()
            if after:
                self._changed.notify_all()
            else:
                self._cut_short()

    def voicing(self, volume: int, speed: int) -> None:
        """Loudness and speed from the next utterance on."""
        with self._changed:
            self.volume, self.speed = volume, speed

    def hush(self) -> None:
        """Stop talking."""
        with self._changed:
            self._wanted = None
            self._cut_short()

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._wanted = None
            self._cut_short()
        self._thread.join(timeout=5.0)

    def _cut_short(self) -> None:
        """(Holding the lock.) End what is being said at once: a kill is one system call,
        so the caller does not wait for the voice's thread, which may be blocked writing
        sound into the player."""
        self._cut = True
        if self._group is not None:
            _kill(self._group)
        self._changed.notify_all()

    def idle(self, timeout: float) -> bool:
        """Wait until nothing is being said (tests, the bench, the demo's end)."""
        end = time.monotonic() + timeout
        with self._changed:
            while self._wanted is not None or self._busy:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
        return True

    # -- the voice's own thread -----------------------------------------------------------

    _busy = False
    _asked = 0.0
    _group: int | None = None  # the process group of what is being said

    def _serve(self) -> None:
        while True:
            with self._changed:
                while self._wanted is None and not self._closed:
                    self._busy = False
                    self._changed.notify_all()
                    self._changed.wait()
                if self._closed:
                    self._busy = False
                    self._changed.notify_all()
                    return
                utterance, asked = self._wanted, self._asked
                self._wanted, self._cut, self._busy = None, False, True
            assert utterance is not None
            try:
                self._speak(utterance, asked)
            except Exception as error:  # the voice must never stop the table
                self._complain("voice", f"the voice failed: {error}")

    def _interrupted(self) -> bool:
        with self._changed:
            return self._cut

    def _speak(self, utterance: Utterance, asked: float) -> None:
        command = synthesizer(utterance.text, utterance.lang, volume=self.volume,
                              speed=self.speed)
        try:
            synth = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, process_group=0)
        except OSError as error:
            self._complain("espeak-ng", f"cannot start espeak-ng ({error.strerror}): "
                           "sudo apt install espeak-ng; the table plays on silently")
            self.said.append((asked, None, utterance))
            return
        with self._changed:
            self._group = synth.pid
            if self._cut:  # a newer text came while this one started
                _kill(synth.pid)
        out: subprocess.Popen[bytes] | None = None
        try:
            out = subprocess.Popen(list(self._play(self._device())), stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   process_group=synth.pid)
        except OSError as error:
            self._complain("aplay", f"cannot start aplay ({error.strerror}): "
                           "sudo apt install alsa-utils; the table plays on silently")
        try:
            self._through(synth, out, utterance, asked)
        finally:
            for process in (synth, out):
                for stream in (process.stdin, process.stdout, process.stderr) if process else ():
                    if stream is not None:
                        _close(stream)

    def _through(self, synth: subprocess.Popen[bytes], out: subprocess.Popen[bytes] | None,
                 utterance: Utterance, asked: float) -> None:
        """The utterance from the synthesizer through the player, to its end or its cut;
        then what went wrong, if anything, in the journal."""
        first, sent = self._pump(synth, out, utterance)
        self.said.append((asked, first, utterance))
        # The player plays what it was given (as long as that sounds, and a little more),
        # unless cut short; then it is ended.
        end = time.monotonic() + sent / BYTES_A_SECOND + REAP_WAIT
        with self._changed:
            while (out is not None and out.poll() is None and not self._cut
                   and time.monotonic() < end):
                self._changed.wait(0.05)
            cut = self._cut
            if cut:
                _kill(synth.pid)
        processes = [process for process in (synth, out) if process is not None]
        for n, process in enumerate(processes):  # each ends, or is killed: never waited
            if not self._reaped(process, synth.pid, last=n == len(processes) - 1):  # for ever
                return
        if cut or self._interrupted():
            return
        if synth.returncode:
            why = _last_line(synth.stderr) or f"exit status {synth.returncode}"
            self._complain("espeak-ng", f"espeak-ng could not say it ({why}): is the "
                           f"{VOICES[utterance.lang]} voice installed (espeak-ng-data)?")
        elif out is not None and out.returncode:
            why = _last_line(out.stderr) or f"exit status {out.returncode}"
            device = self.playing_to or self.device
            hint = (" (is dtoverlay=max98357a,no-sdmode in config.txt, and the Pi rebooted "
                    "since? `aplay -l` lists the cards)"
                    if device == soundcards.plughw(soundcards.AMPLIFIER) else "")
            self._complain(device, f"no sound on ALSA device {device!r} ({why}){hint}; "
                           "the table plays on silently and tries again at the next result")
        else:
            self._last_complaint.clear()  # working again: the next failure is said at once

    def _device(self) -> str:
        """The device this text plays to; a new one (``auto`` found another card) is said
        in the journal, once."""
        device = soundcards.chosen(self.device, amplifier=self.amplifier,
                                   listed=self._cards() if self.device == soundcards.AUTO
                                   else [])
        if device != self.playing_to:
            log.info("voice: playing to ALSA device %s", device)
            self.playing_to = device
        return device

    def _reaped(self, process: subprocess.Popen[bytes], group: int, last: bool) -> bool:
        """Wait for ``process`` to end (REAP_WAIT at most; a new text kills it at once),
        then kill its group and wait as long again; False, said once, if it will not die
        (a player gone to a group of its own, stuck in the kernel): it is left behind and
        the voice goes on with the next text. The group is forgotten, under the lock, as
        its ``last`` process is reaped: its number is never killed once it may be reused."""
        for _ in range(2):
            end = time.monotonic() + REAP_WAIT
            with self._changed:
                while time.monotonic() < end:
                    if process.poll() is not None:
                        if last:
                            self._group = None
                        return True
                    if self._cut:
                        _kill(group)
                    self._changed.wait(0.05)
                _kill(group)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                process.kill()
        with self._changed:
            self._group = None
        self._complain("stuck", f"a sound process (pid {process.pid}) would not end, even "
                       "killed: left behind; the voice goes on with the next text")
        return False

    def _pump(self, synth: subprocess.Popen[bytes], out: subprocess.Popen[bytes] | None,
              utterance: Utterance) -> tuple[float | None, int]:
        """Copy the sound from the synthesizer to the player until it ends or a new text
        comes; when the first sample went to the player, and how many bytes. A text to
        record is synthesized whole into its file once the sound flows (the record is
        what was meant, even if a press cut the saying short)."""
        assert isinstance(synth.stdout, io.BufferedReader)
        first = None
        header = sent = 0
        sink = out.stdin if out is not None else None
        while not self._interrupted():
            chunk = synth.stdout.read1(CHUNK)
            if not chunk:
                break
            if sink is not None:
                try:
                    sink.write(chunk)
                    sink.flush()
                    sent += len(chunk)
                except OSError:  # the player gave up, or was cut short
                    _close(sink)
                    sink = None
            if first is None:
                header += len(chunk)
                if header > WAV_HEADER:  # the header is not sound
                    first = self.clock()
                    self._record(utterance)
        if sink is not None:
            _close(sink)  # the player plays what it has, then ends
        return first, sent

    def _record(self, utterance: Utterance) -> None:
        if utterance.record is None:
            return
        command = synthesizer(utterance.text, utterance.lang, volume=self.volume,
                              speed=self.speed)
        command[command.index("--stdout")] = "-w"
        command.insert(command.index("-w") + 1, str(utterance.record))
        # Into its file: nothing of it is held here, whatever the synthesizer prints.
        with tempfile.TemporaryFile() as errors:
            try:
                status = subprocess.run(command, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=errors, check=False,
                                        timeout=RECORD_WAIT).returncode
            except subprocess.TimeoutExpired:
                status = None
            if status:
                errors.seek(max(0, os.fstat(errors.fileno()).st_size - 300))
                why = errors.read().decode("utf-8", "replace").strip().splitlines()[-1:]
                self._complain("record", f"cannot write {utterance.record}: "
                               f"{why[0] if why else f'exit status {status}'}")
            elif status is None:
                self._complain("record", f"cannot write {utterance.record}: espeak-ng took "
                               f"over {RECORD_WAIT:.0f} s")

    def _complain(self, what: str, message: str) -> None:
        now = time.monotonic()
        last = self._last_complaint.get(what)
        if last is None or now - last >= COMPLAIN_EVERY:
            self._last_complaint[what] = now
            log.warning("%s", message)


def _close(stream: IO[bytes]) -> None:
    with contextlib.suppress(OSError):  # a pipe whose reader is gone: the unsaid goes too
        stream.close()


def _kill(group: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)


def _last_line(stream: object) -> str:
    """The last line of what a process that ended said on ``stream``: what is there now,
    never waited for (a child it left may hold the pipe open), at most 64 KB of it."""
    fileno = getattr(stream, "fileno", None)
    if fileno is None:
        return ""
    descriptor = fileno()
    os.set_blocking(descriptor, False)
    chunks: list[bytes] = []
    with contextlib.suppress(BlockingIOError, OSError):
        while sum(map(len, chunks)) < 65_536 and (chunk := os.read(descriptor, 4096)):
            chunks.append(chunk)
    text = b"".join(chunks).decode("utf-8", "replace").strip()
    return text.splitlines()[-1] if text else ""
