"""``--capture DIR``: every frame the panel shows, as a numbered PNG and a line in a log;
with the voice on, every utterance as a WAV beside the frame it was said with."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL import Image


class Capture:
    """Writes every frame shown as a numbered PNG, and a line per frame in frames.log
    with what ``note`` says (the app: the actions whose results were on the panel when the
    frame went out; a tumbling die's roll is not among them)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.count = len(list(directory.glob("frame-*.png")))  # a restart goes on numbering
        self.log = open(directory / "frames.log", "a", encoding="utf-8")  # noqa: SIM115
        self.note: Callable[[], str] = lambda: ""

    def __call__(self, image: Image.Image) -> None:
        self.count += 1
        name = f"frame-{self.count:05d}.png"
        image.save(self.directory / name)
        self.log.write(f"{name} {self.note()}\n")
        self.log.flush()

    def speech(self, lang: str, text: str) -> Path:
        """Where the next utterance goes: a WAV named after the frame it was said with
        (``speech-00042.en.wav``), and a line in frames.log with what it says."""
        name = f"speech-{self.count:05d}.{lang}.wav"
        self.log.write(f"{name} said with frame-{self.count:05d}.png: {text}\n")
        self.log.flush()
        return self.directory / name

    def close(self) -> None:
        self.log.close()
