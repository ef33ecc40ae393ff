"""Players' names: defaults that read well in every sentence, names set with
``robinson names`` and kept in the state folder, shown at setup."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.config.settings import Config
from firmware.display import screens
from firmware.display.words import Words
from firmware.saves.store import Store
from firmware.table import messages as msg
from firmware.table import names
from firmware.table.prefs import PREF_KEYS
from firmware.table.view import words
from robinson_core import Game, HouseRules, play_script
from robinson_core.house_rules import DeadChips
from robinson_core.narrate import account

from .steps import (
    Machine,
)

ROBINSON = Path(sys.executable).with_name("robinson")
PAY_PLAYER = "6 3 5 4"  # seat 1 lands on 10: pays 2 to the right-hand neighbour, seat 3
FRIDAY_COLLECTS = "6 5 4 6 3 6 2 2 6 2 1 6 3 5 6 4"  # seat 1 on 33: their Friday (3) gets 1
DEAD = "5 2 3 5 6 3 4 2 2 2 4 5 3 6 again 6 3 3 5 1 6 6 1 6 5 4 4 6"


def said(script: str, lang: str, given: dict[int, str] | None = None) -> list[str]:
    game = play_script(Game((1, 2, 3), rules=HouseRules(dead_chips=DeadChips.POT)), script)
    return account(game, lang, Words(lang, given).name)


@pytest.mark.parametrize("lang,default,named", [
    ("en", "Player 1 pays 2 to Player 3", "Ana pays 2 to Cid"),
    ("hr", "Igrač 1 plaća 2 igraču\u00a03", "Ana plaća 2 Cidu"),  # a given name in its case
    ("fi", "Pelaaja 1 maksaa 2 pelaajalle 3", "Ana maksaa 2 Cidille"),
    ("ja", "プレイヤー1はプレイヤー3に2枚払う", "AnaはCidに2枚払う"),
])
def test_a_payment_to_a_player_reads_well_with_default_and_chosen_names(
        lang: str, default: str, named: str) -> None:
    assert f"  {default}" in said(PAY_PLAYER, lang)
    assert f"  {named}" in said(PAY_PLAYER, lang, {1: "Ana", 2: "Ben", 3: "Cid"})


@pytest.mark.parametrize("lang,default", [
    ("en", "Player 3 (Player 1's Friday) collects 1"),
    ("hr", "Igrač 3 (Petak igrača\u00a01) uzima 1"),
    ("fi", "Pelaaja 3 (pelaajan 1 Perjantai) saa 1"),
    ("ja", "プレイヤー3（プレイヤー1のフライデー）は1枚もらう"),
])
def test_a_fridays_payment_says_whose_friday(lang: str, default: str) -> None:
    assert f"  {default}" in said(FRIDAY_COLLECTS, lang)


@pytest.mark.parametrize("lang,default", [
    ("en", "Player 2's 4 chips go into the pot"),
    ("hr", "4 žetona igrača\u00a02 u ulog"),
    ("fi", "4 merkkiä pelaajalta 2 kassaan"),
])
def test_a_dead_players_chips_read_well(lang: str, default: str) -> None:
    lines = said(DEAD, lang)
    assert f"  {default}" in lines


def test_no_default_name_is_a_seat_any_more() -> None:
    for lang, seat in (("en", "Seat"), ("hr", "Mjesto"), ("fi", "Paikka"), ("ja", "番席")):
        assert not any(seat in line for line in said(DEAD, lang))


# -- robinson names ------------------------------------------------------------------


def names_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["names", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_names_are_set_kept_changed_and_cleared(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    where = ("--state-dir", str(tmp_path))
    code, out, _ = names_cli(capsys, *where)
    assert code == 0 and "no names kept" in out and "Player 1" in out
    assert list(tmp_path.iterdir()) == []  # listing made nothing
    assert names_cli(capsys, *where, "1=Ana", "3=Wolfgangella")[0] == 0
    kept = Store(tmp_path, pref_keys=PREF_KEYS).prefs()
    assert kept["names"] == json.dumps({"1": "Ana", "3": "Wolfgangella"})
    code, out, _ = names_cli(capsys, *where, "2=Ben", "1=")  # 1= : seat 1's default back
    assert code == 0 and out.splitlines()[:2] == ["2  Ben", "3  Wolfgangella"]
    assert names_cli(capsys, *where, "--clear")[0] == 0
    assert "no names kept" in names_cli(capsys, *where)[1]


@pytest.mark.parametrize("given,why", [
    ("9=Ana", "seat 9 is not one of 1-8"),
    ("1=Wolfgangellas", "longer than 12 letters"),
    ("1=アレクサンドリーナス", "longer than 12 letters (9 Japanese characters)"),
    ("1=Ana\nBen", "printable"),
    ("1= Ana", "without spaces around"),
    ("Ana", "SEAT=NAME"),
    ("x=Ana", "SEAT=NAME"),
    ("1=" + "A" * 10_000, "'" + "A" * 32 + "…' (10000 characters)"),  # not echoed whole
])
def test_a_bad_name_is_one_line_and_nothing_is_kept(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path, given: str,
                                                    why: str) -> None:
    code, out, err = names_cli(capsys, "--state-dir", str(tmp_path), given)
    assert code == 2 and out == "" and err.count("\n") == 1 and why in err, err
    assert len(err) < 200 and "names" not in Store(tmp_path, pref_keys=PREF_KEYS).prefs()


def test_without_names_it_points_to_the_configs_key_that_exists(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = names_cli(capsys, "--state-dir", str(tmp_path))[1]
    assert "[table] seat_names" in out
    assert "seat_names" in {field.name for field in dataclasses.fields(Config)}


def test_names_are_not_changed_beside_a_running_table(tmp_path: Path) -> None:
    running = Store(tmp_path, pref_keys=PREF_KEYS)
    running.lock()  # the table
    try:
        done = subprocess.run([str(ROBINSON), "names", "--state-dir", str(tmp_path), "1=Ana"],
                              capture_output=True, text=True, timeout=60)
    finally:
        running.close()
    assert done.returncode == 3 and done.stdout == ""
    assert "another table is running" in done.stderr and done.stderr.count("\n") == 1


# -- the table: kept names before the config's, shown at setup ------------------------


def test_the_table_uses_kept_names_before_the_configs_and_shows_them_at_setup() -> None:
    config = Config(seat_names=("Xia", "Yan", "Zoe"))
    table = Machine(config=config)
    kept = names.to_pref(((1, "Ana"), (2, "Ben")))
    effects = table(msg.Start(None, prefs=(("names", kept),)), msg.Wired((1, 2, 3)))
    w = table.w
    assert [w.name(s) for s in (1, 2, 3, 4)] == ["Ana", "Ben", "Zoe", "Player 4"]
    table.press(msg.Press.LONG)  # from the title: a new game's setup
    assert table.screen == screens.setup_screen(w, (1, 2, 3), 1, HouseRules())
    assert "Ana, Ben, Zoe" in " ".join(table.screen.body)
    assert not [e for e in effects if isinstance(e, msg.Log) and e.level == "warning"]


def test_thousands_of_planted_names_cost_one_journal_line() -> None:
    """Issue 39: 5,990 bad seats planted in the pref gave 5,990 lines at every start."""
    planted = json.dumps({str(100 + n): "Ana" for n in range(5990)} | {"2": "Ben"})
    table = Machine()
    effects = table(msg.Start(None, prefs=(("names", planted),)), msg.Wired((1, 2)))
    logged = [e for e in effects if isinstance(e, msg.Log)]
    assert len(logged) == 1 and "(and 5989 more left out)" in logged[0].text, logged[:3]
    assert table.w.name(2) == "Ben"


@pytest.mark.parametrize("kept,why", [
    ("{not json", "not readable"),
    ('["Ana"]', "not readable"),
    ('{"9": "Ana", "2": "Ben"}', "seat 9"),
    ('{"1": "Wolfgangellas", "2": "Ben"}', "longer than 12 letters"),
    ('{"1": 7, "2": "Ben"}', "not a name"),
])
def test_damaged_kept_names_are_left_out_and_said(kept: str, why: str) -> None:
    table = Machine()
    effects = table(msg.Start(None, prefs=(("names", kept),)), msg.Wired((1, 2)))
    logged = [e for e in effects if isinstance(e, msg.Log)]
    assert [e.level for e in logged] == ["warning"]
    assert logged[0].text.startswith("kept names: ") and why in logged[0].text, logged
    assert table.w.name(1) == "Player 1"
    assert table.w.name(2) == ("Ben" if "Ben" in kept else "Player 2")


def test_names_given_are_laid_over_the_kept_ones_an_empty_one_the_default_again() -> None:
    """One home for naming seats (names.merged): robinson names and a phone's form."""
    kept = ((1, "Ana"), (2, "Ben"))
    assert names.merged(kept, {2: "", 3: "Cy"}) == ((1, "Ana"), (3, "Cy"))
    assert names.merged(kept, {3: "Cy"}, clear=True) == ((3, "Cy"),)
    assert names.merged(kept, {}) == kept


# -- the config's names ----------------------------------------------------------------


def test_the_seats_names_come_from_the_config() -> None:
    table = Machine(config=Config(seat_names=("Ana", "", "Ivo")))
    w = words(table.state)
    assert (w.name(1), w.name(3)) == ("Ana", "Ivo")
    assert w.name(2) == words(Machine().state).name(2)
