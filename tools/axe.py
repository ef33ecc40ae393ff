"""Fetch axe-core, the accessibility checker the page's browser tests run in Chromium.

npm's axe-core, the one file its tarball carries for a browser (axe.min.js), taken from
the npm registry at a pinned version and checked against the registry's own sha512
before it is kept: ``.venv/share/axe-core/axe.min.js``. Run by ``tools/bootstrap.sh
test``; once there, it is not fetched again. No Node is needed.

    python3 tools/axe.py VENV
"""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.14.1"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
INTEGRITY = ("sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFoo"
             "JpZe37OgudVGtQ==")
MEMBER = "package/axe.min.js"


def kept(venv: Path) -> Path:
    """Where the checker is kept in ``venv``."""
    return venv / "share" / "axe-core" / "axe.min.js"


def fetch(venv: Path) -> str:
    """Keep axe.min.js in ``venv`` (once); what was done, in one line."""
    target = kept(venv)
    stamp = target.with_name("version")
    if target.is_file() and stamp.is_file() and stamp.read_text().strip() == VERSION:
        return f"axe-core {VERSION} is there"
    try:
        with urllib.request.urlopen(TARBALL, timeout=60) as answer:
            data = answer.read()
    except OSError as why:
        return f"could not fetch axe-core {VERSION} ({why}): the page's accessibility test skips"
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != INTEGRITY:
        return f"axe-core {VERSION} from the registry is not the one pinned: not kept"
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        member = archive.extractfile(MEMBER)
        if member is None:
            return f"axe-core {VERSION} has no {MEMBER}: not kept"
        script = member.read()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    partial.write_bytes(script)
    partial.replace(target)
    stamp.write_text(VERSION + "\n")
    return f"axe-core {VERSION} kept in {target}"


if __name__ == "__main__":
    print("robinson: " + fetch(Path(sys.argv[1])), file=sys.stderr)
