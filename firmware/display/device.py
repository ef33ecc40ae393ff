"""The seam between the table and a luma device: what we ask of one, as a Protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image


class LumaDevice(Protocol):
    """What the table asks of a luma device (``luma.core.device.device``)."""

    width: int
    height: int
    mode: str
    persist: bool

    def display(self, image: Image.Image) -> None: ...

    def contrast(self, level: int) -> None: ...

    def hide(self) -> None: ...

    def show(self) -> None: ...

    def cleanup(self) -> None: ...

    def preprocess(self, image: Image.Image) -> Image.Image: ...

    def command(self, *cmd: int) -> None: ...

    def data(self, data: Sequence[int]) -> None: ...
