"""The board map: the 45 squares as a path, every token on its square, the mover marked.

The path runs as a race board's does, in rows that turn at each end: squares
1-9 left to right, 10-18 back, and so on up to 45. Tokens at the start (0) or
out of the game are not on it. Each seat has its place in a square (three
across, two down), so tokens sharing a square never hide each other; the
square of the player whose screen it is is drawn solid in their colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

from firmware.display.layout import BACK, DIM, INK, MAP_ROWS, SEAT_INK
from robinson_core import HOME

SQUARES = HOME  # the last square: home
COLUMNS = SQUARES // MAP_ROWS  # 9


def cell_of(square: int) -> tuple[int, int]:
    """The (column, row) of ``square`` (1-45) on the map."""
    row, along = divmod(square - 1, COLUMNS)
    return (along if row % 2 == 0 else COLUMNS - 1 - along), row


def draw_board(draw: ImageDraw.ImageDraw, board: Sequence[tuple[int, int]], seat: int,
               x: int, y: int, width: int, height: int) -> None:
    """Draw the map in the box (x, y, width, height): squares, the path, the tokens."""
    cell_w = width // COLUMNS
    cell_h = height // MAP_ROWS
    left = x + (width - cell_w * COLUMNS) // 2
    mover = next((square for s, square in board if s == seat), None)

    def box(square: int) -> tuple[int, int, int, int]:
        col, row = cell_of(square)
        return (left + col * cell_w, y + row * cell_h,
                left + (col + 1) * cell_w - 2, y + (row + 1) * cell_h - 2)

    for square in range(1, SQUARES + 1):
        x0, y0, x1, y1 = box(square)
        solid = square == mover
        draw.rectangle((x0, y0, x1, y1), fill=SEAT_INK + seat if solid else BACK,
                       outline=INK if square % 5 == 0 or solid else DIM)
        if square % COLUMNS == 0 and square < SQUARES:  # the turn to the next row
            below = box(square + 1)
            middle = (x0 + x1) // 2
            draw.line((middle, y1 + 1, middle, below[1] - 1), fill=DIM)
    for token_seat, square in board:
        if not 1 <= square <= SQUARES:
            continue
        x0, y0, x1, y1 = box(square)
        spot_w, spot_h = max(2, (x1 - x0) // 3), max(2, (y1 - y0) // 2)
        col, row = (token_seat - 1) % 3, (token_seat - 1) // 3 % 2
        sx, sy = x0 + 1 + col * spot_w, y0 + 1 + row * spot_h
        ink = BACK if square == mover else SEAT_INK + token_seat
        draw.rectangle((sx, sy, min(x1 - 1, sx + spot_w - 2), min(y1 - 1, sy + spot_h - 2)),
                       fill=ink)
