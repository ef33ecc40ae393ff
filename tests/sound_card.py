"""A stand-in sound card for the host's tests (no ALSA card here): plays a WAV stream
from stdin in real time, as aplay on a card does, and records what it played.

``python -m tests.sound_card OUT``: OUT gets a line ``first AT`` when the first sample
comes (time.monotonic(), shared by every process on the machine) and, if the stream
plays to its end, ``end SECONDS PEAK``; a stream cut short (killed) has no end line."""

from __future__ import annotations

import array
import io
import sys
import time

HEADER = 44


def main(out: str) -> int:
    stdin = sys.stdin.buffer
    assert isinstance(stdin, io.BufferedReader)
    header = stdin.read(HEADER)
    rate = int.from_bytes(header[24:28], "little") if len(header) == HEADER else 22050
    started = first = None
    played = peak = 0
    carry = b""
    try:
        while chunk := stdin.read1(4096):
            now = time.monotonic()
            if started is None:
                started = first = now
                with open(out, "a", encoding="utf-8") as log:
                    log.write(f"first {first}\n")
            chunk = carry + chunk
            even = len(chunk) - len(chunk) % 2
            samples = array.array("h", chunk[:even])
            carry = chunk[even:]
            peak = max(peak, max((abs(s) for s in samples), default=0))
            played += len(samples)
            due = started + played / rate  # a card takes sound no faster than it plays
            if due > now:
                time.sleep(due - now)
    finally:
        if first is not None:
            with open(out, "a", encoding="utf-8") as log:
                log.write(f"end {played / rate:.3f} {peak}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
