"""The repository's own rules reference: generated from the engine, current, and linked."""

from __future__ import annotations

import re
from pathlib import Path

from firmware.cli import main
from robinson_core import BOARD, Effect
from robinson_core.house_rules import NAMES
from robinson_core.reference import NOTES, RULE_NOTES, markdown

ROOT = Path(__file__).resolve().parents[2]


def test_rules_md_is_what_the_engine_writes() -> None:
    # If this fails: .venv/bin/robinson rules --format markdown > RULES.md
    assert (ROOT / "RULES.md").read_text(encoding="utf-8") == markdown()


def test_rules_format_markdown_prints_the_reference(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["rules", "--format", "markdown"]) == 0
    assert capsys.readouterr().out == markdown()


def test_every_square_with_an_effect_and_every_house_rule_is_in_the_reference() -> None:
    text = markdown()
    acting = [s.number for s in BOARD[1:] if s.effect is not Effect.NONE]
    rows = [int(n) for n in re.findall(r"^\| (\d+) \|", text, re.M)]
    assert set(acting) <= set(rows) and len(acting) == 23
    ruled = [int(n) for n in re.findall(r"^\| (\d+) \|.*\*Ruling\*", text, re.M)]
    assert ruled == [10, 29, 32, 36]
    for name in NAMES:
        assert f"| `{name}` |" in text
    assert set(RULE_NOTES) == set(NAMES) and set(NOTES) <= set(range(1, 46))


def test_every_link_in_the_repositorys_documents_stays_inside_it() -> None:
    checked = 0
    for doc in [ROOT / "README.md", ROOT / "RULES.md", *(ROOT / "hardware").glob("*.md"),
                *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+://", target) or target.startswith("#"):
                continue
            path = (doc.parent / target.split("#")[0]).resolve()
            assert path.is_relative_to(ROOT), f"{doc.name} links outside the repo: {target}"
            assert path.exists(), f"{doc.name} links to a missing {target}"
            checked += 1
    assert checked >= 10
