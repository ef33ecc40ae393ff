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
    assert ruled == [1, 7, 10, 29, 32, 36]
    for name in NAMES:
        assert f"| `{name}` |" in text
    assert set(RULE_NOTES) == set(NAMES) and set(NOTES) <= set(range(1, 46))


READINGS = {  # what a sheet-holder might read otherwise: each a ruling, in a paragraph
    "play goes clockwise": "clockwise",
    "the right-hand neighbour played before you": "played before you",
    "the bank is the pot": "*blagajna*",
    "the first throw moves and acts": "first throw moves and acts",
    "square 1's travel money goes into the pot": "*putni novac*",
    "the Friday's 1 comes from the pot": "from the pot (see the bank",
    "square 7 is decided before the roll": "before the die is thrown",
    "the share-out rounds down, the odd chip to the winner": "odd chip stays with the winner",
    "a lone survivor must still reach 45": "last one standing",
}


def test_the_readings_a_table_might_dispute_are_marked_as_rulings() -> None:
    """Issue 61: readings the sheets leave open, each marked a *Ruling* where it is
    made, and the table's own limit written down."""
    text = markdown()
    paragraphs = re.split(r"\n(?=[-|\d*]|\n)", text)
    for reading, words in READINGS.items():
        found = [p for p in paragraphs if words in p]
        assert any("*Ruling*" in p for p in found), (reading, found)
    assert "2,000 actions" in text
    assert "*He saavat*" in text.partition("| 33 |")[2].partition("\n")[0]
    from robinson_core.texts import texts  # the Japanese sheet's 4 says "from square 1":
    assert any("1番から" in line and "スタート" in line for line in texts("ja").HOW)  # read


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
