"""What the buzzer plays: the tunes by name, note by note. Data only."""

from __future__ import annotations

import enum

BUZZER_MID = "C7"  # 2,093 Hz: with octaves=1 the buzzer spans C6 to C8 (1-4 kHz)
NOTE = 0.15  # seconds a note


class Tune(enum.Enum):
    """A tune's notes, in a ceramic piezo's loud band (its resonance is 2-4 kHz; at
    A2-A6, where the tunes once were, it barely sounds)."""

    ROLL = ("C7",)
    PARROT = ("E7", "C7", "E7")
    DEATH = ("C6", "G6", "C6")
    WIN = ("C7", "E7", "G7", "C8")
