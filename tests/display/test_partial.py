"""Partial updates are pixel-exact: after every frame, the decoded panel equals the image."""

from __future__ import annotations

import warnings

import luma.oled.device
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from firmware.display.partial import PageWriter, changed_span, page_bytes
from firmware.emulate.bus import PanelBus

warnings.filterwarnings("ignore", message=".*getdata.*", category=DeprecationWarning)

shapes = st.lists(st.tuples(st.sampled_from(["rect", "line", "text", "point", "clear"]),
                            st.integers(0, 127), st.integers(0, 63), st.integers(0, 127),
                            st.integers(0, 63), st.integers(0, 1)), max_size=6)


def paint(base: Image.Image, strokes: list[tuple[str, int, int, int, int, int]]) -> Image.Image:
    image = base.copy()
    draw = ImageDraw.Draw(image)
    for kind, x0, y0, x1, y1, fill in strokes:
        box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        if kind == "rect":
            draw.rectangle(box, fill=fill)
        elif kind == "line":
            draw.line((x0, y0, x1, y1), fill=fill)
        elif kind == "text":
            draw.text((x0, y0), "Ana 4 → 18", fill=fill)
        elif kind == "point":
            draw.point((x0, y0), fill=fill)
        else:
            image = Image.new("1", (128, 64), fill)
            draw = ImageDraw.Draw(image)
    return image


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["ssd1306", "sh1106"]), st.sampled_from([0, 2]),
       st.lists(shapes, min_size=1, max_size=12))
def test_the_panel_always_shows_the_whole_image(
        chip: str, rotate: int, frames: list[list[tuple[str, int, int, int, int, int]]]) -> None:
    bus = PanelBus(chip)
    device = getattr(luma.oled.device, chip)(i2c(bus=bus, address=0x3C), rotate=rotate)
    writer = PageWriter(device)
    image = Image.new("1", (128, 64))
    for number, strokes in enumerate(frames):
        image = paint(image, strokes)
        before = bus.sent
        writer.display(image)
        shown = bus.image()
        expected = image.rotate(-90 * rotate) if rotate else image
        assert shown.tobytes() == expected.tobytes()
        if number and not strokes:
            assert bus.sent == before  # an unchanged frame sends nothing


def test_an_unchanged_frame_sends_nothing_and_a_pixel_sends_one_byte() -> None:
    bus = PanelBus()
    writer = PageWriter(luma.oled.device.ssd1306(i2c(bus=bus, address=0x3C)))
    image = Image.new("1", (128, 64))
    assert writer.display(image) == 1024  # the first frame is whole: the RAM is unknown
    start = bus.sent
    assert writer.display(image) == 0 and bus.sent == start
    image.putpixel((70, 33), 1)
    assert writer.display(image) == 1
    assert bus.sent - start == (2 + 6) + (2 + 1)  # one window command, one data byte


def test_page_bytes_and_spans() -> None:
    image = Image.new("1", (128, 64))
    image.putpixel((5, 9), 1)  # page 1, bit 1 of column 5
    pages = page_bytes(image)
    assert pages[1][5] == 0b10 and sum(map(sum, pages)) == 2
    assert changed_span(bytes(128), pages[1]) == (5, 5)
    assert changed_span(pages[1], pages[1]) is None


def test_the_sh1106s_last_columns_are_addressed_past_128() -> None:
    """Turned half round, the image's first pixel is the SH1106's column 129 (its 132
    columns, 2 to 129 shown): a change there alone is sent to that column (0x18 high)."""
    bus = PanelBus("sh1106")
    writer = PageWriter(luma.oled.device.sh1106(i2c(bus=bus, address=0x3C), rotate=2))
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)
    writer.display(image)
    image.putpixel((127, 0), 1)  # the panel's column 2: the column address ends low
    writer.display(image)
    image.putpixel((0, 0), 0)
    assert writer.display(image) == 1
    assert bus.image().getpixel((127, 63)) == 0 and bus.image().getpixel((0, 63)) == 1


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["ssd1306", "sh1106"]), st.sampled_from([0, 2]),
       st.lists(shapes, min_size=1, max_size=8), st.integers(0, 100), st.integers(0, 40),
       st.integers(4, 40), st.integers(4, 30), st.integers(40, 400))
def test_a_frame_sent_in_parts_shows_its_box_first_and_then_all_of_it(
        chip: str, rotate: int, frames: list[list[tuple[str, int, int, int, int, int]]],
        left: int, top: int, wide: int, high: int, budget: int) -> None:
    """The tumbling die's way: ``first`` puts on the panel what changed inside the box and
    nothing else; then calls with a ``budget`` send no more than it (or one page's span)
    each, until the panel shows the whole image and the writer is no longer behind."""
    bus = PanelBus(chip)
    device = getattr(luma.oled.device, chip)(i2c(bus=bus, address=0x3C), rotate=rotate)
    writer = PageWriter(device)
    image = Image.new("1", (128, 64))
    writer.display(image)
    box = (left, top, min(127, left + wide), min(63, top + high))

    for strokes in frames:
        before = bus.image()
        image = paint(image, strokes)
        expected = image.rotate(-90 * rotate) if rotate else image
        writer.display(image, first=box)
        shown = bus.image()
        mask = Image.new("1", (128, 64))  # the box's pages, its columns: what may change
        ImageDraw.Draw(mask).rectangle((box[0], box[1] // 8 * 8, box[2], box[3] // 8 * 8 + 7),
                                       fill=1)
        if rotate:
            mask = mask.rotate(-90 * rotate)
        inside = Image.composite(expected, before, mask)
        assert shown.tobytes() == inside.tobytes()  # the box's part, and only it
        while writer.behind:
            sent = writer.display(image, budget=budget)
            assert 0 < sent <= max(budget, 128)

        assert bus.image().tobytes() == expected.tobytes()
