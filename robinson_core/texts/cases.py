"""Given names in their cases: Croatian and Finnish decline a name where English and
Japanese put a word beside it. "Plati Ani 2", "Anan vuoro", not "igraču Ana", "pelaajan
Ana" (a default name keeps its noun: "igraču 2", "pelaajan 2").

The rules are those of the languages' grammars for personal names, kept to what a name
alone tells: a name the rules cannot read (two words, digits, signs, a Croatian name
ending in -i or -u, which may be a woman's and left as it is) gives None, and the text
falls back to the noun and the name as written ("igraču R2D2")."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")  # letters only (a hyphen between two parts)
_VOWELS = "aeiouyäöå"


def declined(lang: str, name: str, case: str) -> str | None:
    """``name`` in ``case`` (gen, dat, all, abl) by ``lang``'s rules, or None where the
    language has none for it or the name cannot be read by them."""
    if not _WORD.fullmatch(name):
        return None
    if lang == "hr":
        return _croatian(name, case)
    if lang == "fi":
        return _finnish(name, case)
    return None


# -- Croatian: the genitive and the dative ------------------------------------------------
# A name in -a (Ana, Luka, Marija) declines as a feminine noun: Ane, Ani (Mia: Mije,
# Miji). A man's name in a consonant (Ivan, Ben) declines as a masculine noun: Ivana,
# Ivanu; -tar and -dar lose their a (Petar: Petra; not Lazar). A man's name in -o
# declines by its accent, which its spelling does not always show. With two consonants
# before the -o (Marko, Mirko, Zlatko), of more syllables (Ivano) or a vowel before it
# (Leo: Lea; Mario: Marija, a j after the i) it is Ivan's: Marka, Marku. Of two
# syllables with one consonant before the -o it is Ana's when its first syllable is long
# and falling, as in the home names Ivo, Čedo, Pero, Jozo, Božo (Ive, Ivi), but Ivan's
# in Bruno, Hugo, Oto (Bruna, Brunu): those the table knows are listed (_HR_O_ANA,
# _HR_O_IVAN), and one in neither is left as written ("igraču Nedo"): a case guessed
# wrong reads worse than the noun beside the name. A name in -e (Ante, Frane) keeps its
# genitive and takes -i: Anti. Women's names ending in a consonant (Ines, Karmen) do not
# decline: those the table knows are listed.

_HR_O_ANA = frozenset({  # -o, declined as Ana: Ive, Ivi (home names, long and falling)
    "ivo", "čedo", "pero", "jozo", "joso", "božo", "franjo", "frano", "mato", "vlado",
    "stipo", "đuro", "niko", "mijo", "pavo", "grgo", "šimo", "krešo", "ljubo", "miro",
    "tomo", "lovro", "dujo", "jovo", "pajo", "lojzo", "ćiro", "drago", "braco",
})

_HR_O_IVAN = frozenset({  # -o of two syllables, one consonant, declined as Ivan: Bruna
    "bruno", "hugo", "oto", "timo", "gino", "lino", "rino", "tino",
})

_HR_FEMININE = frozenset({
    "ines", "nives", "karmen", "doris", "ruth", "rut", "miriam", "mirjam", "ester",
    "dolores", "agnes", "ingrid", "astrid", "sigrid", "edit", "judit", "elizabet",
    "lilian", "vivian", "margit", "rachel", "isabel", "mercedes", "nikolet", "anet",
    "ivet", "ilse", "zoe", "chloe", "nicole",
})

_HR_ENDINGS = {"gen": ("e", "a"), "dat": ("i", "u")}  # (feminine -a, masculine)


def _croatian(name: str, case: str) -> str | None:
    if case not in _HR_ENDINGS:
        return None
    feminine, masculine = _HR_ENDINGS[case]
    low = name.lower()
    if low in _HR_FEMININE:
        return name
    last = low[-1]
    if low.endswith("ia"):  # Mia, Lucia: a j between the i and the ending (Mije, Miji)
        return name[:-1] + "j" + feminine
    if last == "a":
        return name[:-1] + feminine
    if last == "e":
        return name if case == "gen" else name[:-1] + "i"
    if last == "o":
        if low in _HR_O_ANA:
            return name[:-1] + feminine
        if low.endswith("io"):  # Mario: Marija, Mariju
            return name[:-1] + "j" + masculine
        if low in _HR_O_IVAN or not _hr_short_o(low):
            return name[:-1] + masculine
        return None  # Nedo: Nede or Neda? the accent decides, which the table cannot hear
    if last in _VOWELS:  # -i, -u, -y: a woman's (Suzi) as often as a man's (Toni)
        return None
    if low.endswith(("tar", "dar")) and _syllables(low) >= 2:
        return name[:-2] + "r" + masculine  # Petar: Petra; Aleksandar: Aleksandra
    return name + masculine


def _hr_short_o(low: str) -> bool:
    """A name in -o whose case its spelling does not tell (Ivo: Ive; Bruno: Bruna): two
    syllables, and one consonant (lj, nj and dž are one) between its last two vowels."""
    stem = low[:-1]
    if _syllables(low) != 2 or stem[-1] in _VOWELS:
        return False
    if stem.endswith(("lj", "nj", "dž")):
        stem = stem[:-1]
    return len(stem) >= 2 and stem[-2] in _VOWELS


# -- Finnish: the genitive, the allative and the ablative ---------------------------------
# A name in a vowel takes the ending on its weak grade: kk, pp, tt before the last vowel
# become k, p, t (Mikko: Mikon, Mikolle; Matti: Matin). A name of two syllables or more in
# a vowel and s declines as the Finnish words in -as, -es, -us (Tuomas: Tuomaksen); any
# other name in a consonant takes an i first (Ben: Benin, Benille). The ablative follows
# the name's vowels: -lta after a, o, u; -ltä where it has none of them (Ville: Villeltä).

_FI_ENDINGS = {"gen": "n", "all": "lle", "abl": "lta"}


def _finnish(name: str, case: str) -> str | None:
    if case not in _FI_ENDINGS:
        return None
    ending = _FI_ENDINGS[case]
    low = name.lower()
    if not any(c in "aou" for c in low):
        ending = ending.replace("a", "ä")
    if low[-1] in _VOWELS:
        stem = name
        if len(low) >= 3 and low[-2] == low[-3] and low[-2] in "kpt":
            stem = name[:-2] + name[-1]  # Mikko -> Miko-
        return stem + ending
    if low[-1] == "s" and low[-2] in "aeiu" and _syllables(low) >= 2:
        return name[:-1] + "kse" + ending  # Tuomas -> Tuomakse-
    return name + ("i" if name[-1].islower() else "I") + ending


def _syllables(word: str) -> int:
    """How many vowel groups ``word`` has (a diphthong is one: Klaus has one)."""
    return len(re.findall(f"[{_VOWELS}]+", word))
