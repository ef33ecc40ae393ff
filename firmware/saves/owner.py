"""The owner code: written once, at the first boot, by install.sh into the state folder
(``owner-code``) and onto the boot partition for the owner to read on any computer, so
the first phone can pair even when the panel shows nothing. It pairs a phone only while
none is paired, and only once: the table deletes it when it has.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     _ = (Path(folder) / OWNER_CODE).write_text("0123 4567 89\\n")
...     owner_code(Path(folder))
'0123456789'
"""

from __future__ import annotations

import re
from pathlib import Path

OWNER_CODE = "owner-code"
DIGITS = 10  # lives until the first phone pairs (days, maybe): 10**10 against the throttle


def owner_code(directory: Path) -> str:
    """The owner code in ``directory``, spaces left out; "" if there is none (or it is
    not one: a file of anything else pairs nothing)."""
    try:
        text = (directory / OWNER_CODE).read_text(encoding="ascii", errors="replace")[:64]
    except OSError:
        return ""
    code = re.sub(r"\s", "", text)
    return code if re.fullmatch(rf"\d{{{DIGITS}}}", code) else ""
