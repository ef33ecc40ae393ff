"""Where a line may break: between phrases, never inside one.

The panel has 21 narrow characters a row, so most texts break, and a bad break
misleads: "Seat 1 | 2" reads as two seats, "18 | 1/4" as a fraction, "もら|う" as
nonsense. The rules, the same in every language:

- a number stays with the word before it and with the chips it counts ("Seat 2",
  "2 chips", "17 → 18"), and so does a sign or an arrow;
- a little word stays with the word after it ("your next turn", "na drvo");
- punctuation and separators (":", "·", "—") stay with the word before them, and
  a number after a separator starts a new phrase ("45 ·" | "15 chips"); so does a
  short word in brackets, which says what the word before is ("Cid (Friday)");
- a space in a name is a no-break space (``Words`` makes it so): never broken;
- Japanese, which has no spaces, breaks between the phrases BudouX finds (a small
  model trained for exactly this; its default Japanese parser), and a row never
  starts with a small kana or closing punctuation (kinsoku), even where a phrase
  longer than a row must be cut.
"""

from __future__ import annotations

import functools
import re

from robinson_core.texts import chip_nouns

NO_ROW_START = set("、。，．・：；？！ー～）」』】〕〉》"  # closing punctuation, the long vowel,
                   "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"  # small kana
                   "…‥)]},.:;!?%")
_GLUE_BEFORE = re.compile(r"^[\d−+\-→←↔=/%:·—,.;!?)]")  # joins the word before it
_GLUE_AFTER = re.compile(r"[→←+−(↔]$")  # the next word joins it
_UNIT = re.compile("^(" + "|".join(sorted(map(re.escape, chip_nouns()), key=len, reverse=True))
                   + r")\b")  # the noun after a count joins it
LONGEST = 16  # characters: a little word lets go rather than make a longer piece
# Little words that belong to the word after them ("your next turn", "na drvo"):
# English and Croatian (Finnish and Japanese say these with endings, not words).
_HOLD_ON = frozenset(("a", "an", "the", "your", "my", "his", "her", "its", "their", "to",
                      "of", "in", "on", "at", "by", "for", "from", "with", "next", "every",
                      "each", "no", "u", "na", "s", "sa", "za", "do", "od", "o", "po", "k",
                      "iz"))


def wide(char: str) -> bool:
    return ord(char) >= 0x2E80


@functools.cache
def _japanese() -> object:
    import budoux  # a few hundred KB of model: loaded when the first Japanese text is wrapped

    return budoux.load_default_japanese_parser()


def phrases(text: str) -> list[str]:
    """``text`` cut where BudouX would break it (Japanese), else whole."""
    if not any(wide(c) for c in text):
        return [text]
    parsed: list[str] = _japanese().parse(text)  # type: ignore[attr-defined]
    return parsed


def chunks(text: str) -> list[str]:
    """The pieces a row may break between, each with its leading space, if any.

    >>> chunks("Seat 2 pays Seat 1 2 chips · pot 33")
    ['Seat 2', ' pays', ' Seat 1 2 chips ·', ' pot 33']
    >>> chunks("Ana +3 · Cid (Friday) +1")
    ['Ana +3 ·', ' Cid (Friday) +1']
    >>> chunks("Ana (out): 0 chips · Cid (Friday) +1")
    ['Ana (out): 0 chips ·', ' Cid (Friday) +1']
    >>> chunks("Miss your next turn")
    ['Miss', ' your next turn']
    >>> chunks("Benは27番に進み、2枚もらう")
    ['Benは', '27番に', '進み、', '2枚もらう']
    """
    pieces: list[str] = []
    for phrase in phrases(text):
        for word in re.findall(r" *[^ ]+| +$", phrase):
            bare = word.strip(" ")
            if not pieces:
                joins = False
            elif not word.startswith(" "):  # a Japanese phrase begins: a break is allowed
                joins = bare[:1] in NO_ROW_START
            else:  # a space: a break unless a number, a sign or punctuation holds on
                before = pieces[-1].rstrip(" ")
                last = before.rpartition(" ")[2]
                # a separator ends a phrase: the number after it begins the next one
                # ("Ana: 45 · | 15 chips"), where a narrow panel needs a break
                parted = before.endswith(("·", "—")) and bare[:1].isdigit()
                label = bare.rstrip(":,;")  # "Cid (Friday)", "Ana (out): 3 chips"
                joins = ((_GLUE_BEFORE.search(bare) is not None and not parted)
                         or (label[:1] == "(" and label.endswith(")")
                             and label[1:-1].rstrip(".").isalpha()  # a word, not "(42)"
                             and len(label) <= 9)  # a label, not a remark "(kotisääntö)"
                         or _GLUE_AFTER.search(before) is not None
                         or (last[-1:].isdigit() and _UNIT.match(bare) is not None)
                         or (last.lower() in _HOLD_ON and len(before) + len(word) <= LONGEST))
            if joins:
                pieces[-1] += word
            else:
                pieces.append(word)
    return pieces


def cut_at(text: str, fits: int) -> int:
    """Where to cut ``text`` (of which ``fits`` characters fit a row) so that the rest
    does not start with a character no row may start with."""
    cut = max(1, fits)
    while 1 < cut < len(text) and text[cut] in NO_ROW_START:
        cut -= 1
    return cut
