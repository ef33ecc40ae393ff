"""The seam between the table and a luma device: what we ask of one, as a Protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PIL import Image

WIDTH, HEIGHT = 128, 64
"""The panel's size in pixels: the one home of this fact."""
PAGES = HEIGHT // 8  # 8-pixel rows of the panel's memory


class LumaDevice(Protocol):
    """What the table asks of a luma device (``luma.core.device.device``)."""

    width: int
    height: int
    persist: bool

    def display(self, image: Image.Image) -> None: ...

    def contrast(self, level: int) -> None: ...

    def hide(self) -> None: ...

    def show(self) -> None: ...

    def cleanup(self) -> None: ...

    def preprocess(self, image: Image.Image) -> Image.Image: ...

    def command(self, *cmd: int) -> None: ...

    def data(self, data: Sequence[int]) -> None: ...
