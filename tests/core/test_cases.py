"""Given names in their cases (robinson_core.texts.cases): Croatian's genitive and
dative, Finnish's genitive, allative and ablative, on real names; and the texts that
ask for a case use them, on the panel and in the voice."""

from __future__ import annotations

import pytest

from firmware.display.words import Words
from firmware.speech.said import Spoken
from robinson_core import events as ev
from robinson_core.narrate import describe, seat_names
from robinson_core.texts.cases import declined

CROATIAN = {  # name: genitive, dative
    "Ana": ("Ane", "Ani"), "Ivan": ("Ivana", "Ivanu"), "Marko": ("Marka", "Marku"),
    "Petra": ("Petre", "Petri"), "Luka": ("Luke", "Luki"), "Ema": ("Eme", "Emi"),
    "Ben": ("Bena", "Benu"), "Josip": ("Josipa", "Josipu"), "Marija": ("Marije", "Mariji"),
    "Petar": ("Petra", "Petru"), "Aleksandar": ("Aleksandra", "Aleksandru"),
    "Ante": ("Ante", "Anti"), "Frane": ("Frane", "Frani"), "Nikola": ("Nikole", "Nikoli"),
    "Tomislav": ("Tomislava", "Tomislavu"), "Lucija": ("Lucije", "Luciji"),
    "Mia": ("Mije", "Miji"), "Matej": ("Mateja", "Mateju"), "Filip": ("Filipa", "Filipu"),
    "Dora": ("Dore", "Dori"), "Ines": ("Ines", "Ines"), "Jakov": ("Jakova", "Jakovu"),
    "Karmen": ("Karmen", "Karmen"), "Lazar": ("Lazara", "Lazaru"), "Lea": ("Lee", "Lei"),
    # in -o, by the accent (issue 61: "Petak Čeda", "plaća 2 Ivu" were Marko's forms)
    "Ivo": ("Ive", "Ivi"), "Čedo": ("Čede", "Čedi"), "Pero": ("Pere", "Peri"),
    "Jozo": ("Joze", "Jozi"), "Božo": ("Bože", "Boži"), "Franjo": ("Franje", "Franji"),
    "Mirko": ("Mirka", "Mirku"), "Darko": ("Darka", "Darku"), "Zlatko": ("Zlatka", "Zlatku"),
    "Ivano": ("Ivana", "Ivanu"), "Leo": ("Lea", "Leu"), "Mario": ("Marija", "Mariju"),
    # two syllables, one consonant: the accent, by the table's lists (Bruno as Ivan)
    "Vlado": ("Vlade", "Vladi"), "Mato": ("Mate", "Mati"), "Stipo": ("Stipe", "Stipi"),
    "Ćiro": ("Ćire", "Ćiri"), "Lovro": ("Lovre", "Lovri"), "Bruno": ("Bruna", "Brunu"),
    "Hugo": ("Huga", "Hugu"), "Oto": ("Ota", "Otu"), "Stanko": ("Stanka", "Stanku"),
}

FINNISH = {  # name: genitive, allative, ablative
    "Aino": ("Ainon", "Ainolle", "Ainolta"), "Eetu": ("Eetun", "Eetulle", "Eetulta"),
    "Mikko": ("Mikon", "Mikolle", "Mikolta"), "Ella": ("Ellan", "Ellalle", "Ellalta"),
    "Onni": ("Onnin", "Onnille", "Onnilta"), "Ben": ("Benin", "Benille", "Beniltä"),
    "Matti": ("Matin", "Matille", "Matilta"), "Jukka": ("Jukan", "Jukalle", "Jukalta"),
    "Ville": ("Villen", "Villelle", "Villeltä"),
    "Tuomas": ("Tuomaksen", "Tuomakselle", "Tuomakselta"),
    "Liisa": ("Liisan", "Liisalle", "Liisalta"), "Väinö": ("Väinön", "Väinölle", "Väinöltä"),
    "Helmi": ("Helmin", "Helmille", "Helmiltä"), "Lotta": ("Lotan", "Lotalle", "Lotalta"),
    "Anna": ("Annan", "Annalle", "Annalta"), "Elias": ("Eliaksen", "Eliakselle", "Eliakselta"),
    "Antti": ("Antin", "Antille", "Antilta"), "Sofia": ("Sofian", "Sofialle", "Sofialta"),
    "Niilo": ("Niilon", "Niilolle", "Niilolta"), "Leo": ("Leon", "Leolle", "Leolta"),
    "Kerttu": ("Kertun", "Kertulle", "Kertulta"), "Pekka": ("Pekan", "Pekalle", "Pekalta"),
    "Heikki": ("Heikin", "Heikille", "Heikiltä"), "Emil": ("Emilin", "Emilille", "Emililtä"),
    "Klaus": ("Klausin", "Klausille", "Klausilta"),
}


def test_croatian_names_decline_as_the_grammar_says() -> None:
    found = {name: (declined("hr", name, "gen"), declined("hr", name, "dat"))
             for name in CROATIAN}
    assert found == CROATIAN and len(found) == 46


def test_finnish_names_decline_as_the_grammar_says() -> None:
    found = {name: tuple(declined("fi", name, case) for case in ("gen", "all", "abl"))
             for name in FINNISH}
    assert found == FINNISH and len(found) >= 20


@pytest.mark.parametrize("name", ["R2D2", "Ana Marija", "[[x]]", "Toni", "Suzi", "12",
                                  "Nedo", "Dino"])  # -o by an accent the table cannot hear
def test_a_name_the_rules_cannot_read_keeps_the_noun_and_stays_as_written(name: str) -> None:
    assert declined("hr", name, "dat") is None
    w = Words("hr", {2: name})
    assert w("pays_player", name=w.name(1), amount=2, other=w.name(2)) == \
        f"Igrač 1 plaća 2 igraču\u00a0{name}"


def test_english_and_japanese_put_a_word_beside_the_name() -> None:
    assert [declined(lang, "Ana", case) for lang in ("en", "ja")
            for case in ("gen", "dat", "all", "abl")] == [None] * 8


def test_the_panel_and_the_voice_say_a_given_name_in_its_case() -> None:
    names = {1: "Ben", 2: "Ana"}
    paid = ev.Transfer(1, 2, 2, 2)
    assert describe(paid, "hr", seat_names("hr", names)) == "Ben plaća 2 Ani"
    assert describe(paid, "fi", seat_names("fi", names)) == "Ben maksaa 2 Analle"
    assert describe(paid, "hr") == "Igrač 1 plaća 2 igraču\u00a02"  # a default keeps its noun
    fi, hr = Spoken("fi", names), Spoken("hr", names)
    assert fi("friday_sworn", name=fi.name(1), friday=fi.name(2)) == \
        "Ana on nyt Benin Perjantai."
    assert hr("bond_ended", name=hr.name(2), friday=hr.name(1)) == "Ben više nije Petak Ane."
    assert Spoken("fi")("friday_sworn", name=Spoken("fi").name(1), friday="Ana") == \
        "Ana on nyt pelaajan 1 Perjantai."  # a default keeps its noun


def test_croatian_men_in_o_are_said_in_their_case_on_the_panel_and_in_the_voice() -> None:
    """Issue 61, item 3: "sad je Petak Iva", "Čedo plaća 2 Ivu" (Marko's forms) on the
    panel and "Maja plaća 2 žetona Čedu" in the voice. Ivo and Čedo take Ana's endings,
    Marko keeps his, and Nedo, whose accent the table cannot hear, keeps his name as
    written beside the noun."""
    names = {1: "Maja", 2: "Čedo", 3: "Ivo", 4: "Marko", 5: "Nedo"}
    w, said = Words("hr", names), Spoken("hr", names)
    assert w("pays_player", name=w.name(2), amount=2, other=w.name(3)) == "Čedo plaća 2 Ivi"
    assert w("friday_sworn_paid", name=w.name(3), friday=w.name(1), amount=2) == \
        "Maja plaća 2, sad je Petak Ive"
    assert w("bond_ended", name=w.name(2), friday=w.name(3)) == "Ivo više nije Petak Čede"
    assert said("pay_player", amount=2, other=said.name(2)) == "Plati 2 žetona Čedi."
    assert said("pay_player_other", name=said.name(1), amount=2, other=said.name(4)) == \
        "Maja plaća 2 žetona Marku."
    assert said("bond_ended", name=said.name(2), friday=said.name(1)) == \
        "Maja više nije Petak Čede."
    assert w("pays_player", name=w.name(1), amount=2, other=w.name(5)) == \
        "Maja plaća 2 igraču\u00a0Nedo"
