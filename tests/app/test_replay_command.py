"""The ``robinson replay`` and ``robinson rules`` contract, tried as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli import main

ROBINSON = Path(sys.executable).with_name("robinson")


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, out, err


def replay_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    code, out, err = replay(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    result = replay_json(capsys, "--players", "3", "--script", "3 1 4")
    assert result["status"] == "playing" and result["winner"] is None
    assert result["to_move"] == 1 and result["pot"] == 30 + 3 - 1
    assert [p["seat"] for p in result["players"]] == [1, 2, 3]
    assert result["players"][0] == {"seat": 1, "position": 3, "chips": 10, "active": True,
                                    "friday": None, "sits_out": False}


@pytest.mark.parametrize("players", range(2, 9))
def test_two_to_eight_players(capsys: pytest.CaptureFixture[str], players: int) -> None:
    result = replay_json(capsys, "--players", str(players), "--script", "")
    assert len(result["players"]) == players and result["pot"] == 10 * players


def test_seat_subset_and_first_seat(capsys: pytest.CaptureFixture[str]) -> None:
    result = replay_json(capsys, "--seats", "2,5,7", "--first", "5", "--script", "6,6 6")
    assert [p["seat"] for p in result["players"]] == [2, 5, 7]
    assert [p["position"] for p in result["players"]] == [6, 6, 6] and result["to_move"] == 5


def test_a_die_face_on_a_decision_takes_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    # seat 1 reaches 20 and the next token is a face: again, then that roll
    result = replay_json(capsys, "--players", "2", "--script", "6 2 5 3 3 1 6 1")
    assert result["players"][0]["position"] == 21
    assert result["actions"][-2:] == ["again", "1"]


def test_decision_words(capsys: pytest.CaptureFixture[str]) -> None:
    result = replay_json(capsys, "--players", "2", "--script", "6 2 5 3 3 1 6 pass 1")
    assert result["players"][0]["position"] == 20 and result["to_move"] == 1


def test_sitting_out_is_consumed_before_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    # seats 1 and 2 land on 12; after seat 3 rolls, both their turns are consumed at once
    result = replay_json(capsys, "--players", "3", "--script", "6 6 6 6 6 1")
    assert result["to_move"] == 3
    assert [p["sits_out"] for p in result["players"]] == [False, False, False]


def test_sitting_out_shows_until_the_turn_comes(capsys: pytest.CaptureFixture[str]) -> None:
    result = replay_json(capsys, "--players", "3", "--script", "6 6 6 6 6")
    assert result["players"][1]["position"] == 12 and result["players"][1]["sits_out"] is True


def test_every_house_rule_can_be_set(capsys: pytest.CaptureFixture[str]) -> None:
    result = replay_json(capsys, "--players", "2", "--rule", "purse=30", "--rule", "stake=5",
                         "--rule", "debt=true", "--rule", "restart_on_4=false",
                         "--rule", "chain_25_to_14=false", "--rule", "dead_chips=pot",
                         "--rule", "share_with=runner_up", "--script", "4")
    assert result["pot"] == 10 and result["players"][0]["position"] == 4
    assert result["rules"]["share_with"] == "runner_up"


def test_a_won_game(capsys: pytest.CaptureFixture[str]) -> None:
    # seat 1 takes the canoe on 23 and lands exactly on 45
    script = "6 2 5 3 3 1 6 again 3 jump 6 1 6 3 6 1 5"
    result = replay_json(capsys, "--players", "2", "--script", script)
    assert result["status"] == "won" and result["winner"] == 1 and result["to_move"] is None
    assert result["pot"] == 0
    assert sum(p["chips"] for p in result["players"]) == 40


def test_readable_account_in_every_language(capsys: pytest.CaptureFixture[str]) -> None:
    for lang, word in (("en", "Player 1 rolls 3"), ("hr", "Igrač 1 baca 3"),
                       ("fi", "Pelaaja 1 heittää 3"), ("ja", "プレイヤー1は3")):
        code, out, _ = replay(capsys, "--players", "2", "--script", "3", "--lang", lang)
        assert code == 0 and word in out


BAD = [
    (["--players", "1", "--script", ""], "--players must be a whole number from 2 to 8"),
    (["--players", "9", "--script", ""], "--players"),
    (["--players", "two", "--script", ""], "--players"),
    (["--seats", "1,9", "--script", ""], "--seats takes seat numbers 1-8"),
    (["--seats", "1,1", "--script", ""], "--seats names a seat twice: '1,1'"),
    (["--seats", "-1,2", "--script", ""], "--seats takes seat numbers 1-8 separated by commas, "
                                          "not '-1,2'"),
    (["--players", "1" * 5000, "--script", ""], "not '111111111111…' (5000 characters)"),
    (["--players", "2", "--script", "1" * 4301], "token 1 of the script ('111111111111…' "
                                                 "(4301 characters))"),
    (["--players", "2", "--rule", "purse=" + "1" * 4301, "--script", ""],
     "house rule purse must be a whole number from 0 to 999, not '111111111111…' (4301 "
     "characters)"),
    (["--players", "2", "--rule", "purse=1000000000", "--script", ""],  # too many digits
     "house rule purse must be a whole number from 0 to 999, not '1000000000'"),
    (["--players", "2", "--rule", "purse=1000", "--script", ""], "purse must be 0..999"),
    (["--players", "2", "--first", "9" * 5000, "--script", ""], "a seat is a number 1-8"),
    (["--players", "2", "--script-file", "/nonexistent/script"], "cannot read --script-file"),
    (["--players", "2", "--script", "1", "--script-file", "-"], "not allowed with"),
    (["--seats", "3", "--script", ""], "2 to 8 players"),
    (["--seats", "1,,2", "--script", ""], "--seats"),
    (["--players", "2", "--seats", "1,2", "--script", ""], "not allowed with"),
    (["--script", "1"], "--players --seats is required"),
    (["--players", "2"], "--script --script-file is required"),
    (["--players", "2", "--first", "3", "--script", ""], "first seat must be one of"),
    (["--players", "2", "--first", "x", "--script", ""], "a seat is a number"),
    (["--players", "2", "--rule", "purse", "--script", ""], "NAME=VALUE"),
    (["--players", "2", "--rule", "color=red", "--script", ""], "unknown house rule 'color'"),
    (["--players", "2", "--rule", "debt=1", "--script", ""], "debt must be true or false"),
    (["--players", "2", "--rule", "stake=25", "--script", ""], "stake must be 0..purse"),
    (["--players", "2", "--rule", "debt=true", "--rule", "debt=false", "--script", ""],
     "given twice"),
    (["--players", "2", "--script", "3 7"], "token 2 of the script ('7')"),
    (["--players", "2", "--script", "3 banana"], "token 2 of the script ('banana')"),
    (["--players", "2", "--script", "jump"], "token 1 of the script ('jump'): the game waits"),
    (["--players", "2", "--script", "6 2 5 3 3 1 6 stay"], "choose again or pass"),
    (["--players", "2", "--lang", "de", "--script", ""], "invalid choice: 'de'"),
]


@pytest.mark.parametrize("args,message", BAD)
def test_bad_input_is_one_clear_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                 args: list[str], message: str) -> None:
    code, out, err = replay(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err
    assert "Traceback" not in err


def test_tokens_after_the_game_ended(capsys: pytest.CaptureFixture[str]) -> None:
    script = "6 2 5 3 3 1 6 again 3 jump 6 1 6 3 6 1 5 1"
    code, _, err = replay(capsys, "--players", "2", "--script", script)
    assert code == 2 and "token 18 of the script ('1'): the game is already over" in err


def test_rules_lists_every_square_and_house_rule(capsys: pytest.CaptureFixture[str]) -> None:
    for lang in ("en", "hr", "fi", "ja"):
        assert main(["rules", "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert " 45  " in out and "share_with: " in out and " 20)" in out
    assert main(["rules"]) == 0
    # The default is said as the default, not as if it were the rule's meaning.
    assert "  debt: balances may go below zero (default false)" in capsys.readouterr().out


@pytest.mark.parametrize("lang,said", [
    ("en", ["How a game goes", "In turn, each rolls", "Exact finish", "your Friday pays 1",
            "half to the player the house rule share_with names"]),
    ("hr", ["Kako teče igra", "redom bacaju kocku", "Točan dolazak", "tvoj Petak plati 1",
            "polovinu igraču kojeg određuje kućno pravilo share_with"]),
    ("fi", ["Näin peli etenee", "Vuorotellen jokainen heittää", "Tarkka maaliintulo",
            "Perjantaisi maksaa 1", "puolet pelaajalle, jonka kotisääntö share_with nimeää"]),
    ("ja", ["ゲームの流れ", "順番にサイコロをふり", "ぴったりゴール", "フライデーも1枚払い",
            "ハウスルールshare_withで決まる人に半分"]),
])
def test_rules_say_how_turns_the_finish_friday_and_the_share_out_work(
        capsys: pytest.CaptureFixture[str], lang: str, said: list[str]) -> None:
    assert main(["rules", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert [text for text in said if text not in out] == []
    assert out.index(said[0]) < out.index("share_with: ")  # before the house rules


@pytest.mark.parametrize("lang", ["hr", "fi", "ja"])
def test_rules_in_markdown_in_another_language_is_one_line(
        capsys: pytest.CaptureFixture[str], lang: str) -> None:
    assert main(["rules", "--format", "markdown", "--lang", lang]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "English only" in err


def test_the_installed_command_runs_and_fails_cleanly() -> None:
    ok = subprocess.run([ROBINSON, "replay", "--players", "2", "--script", "1", "--json"],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and json.loads(ok.stdout)["pot"] == 22
    bad = subprocess.run([ROBINSON, "replay", "--players", "2", "--script", "0"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_an_error_quoting_a_newline_is_still_one_line(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    assert main(["replay", "--players", "2", "\n"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["state", "--state-dir", str(tmp_path / "a\nb")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a\\nb" in err


# -- the corrected rulings, through the command -------------------------------------

# Seat 1 swears in seat 3 on 29; seat 1 later lands on 32 with 3 at its side.
FRIDAY_ON_32 = "5 2 2 4 3 3 4 4 4 6 4 4 5 3 3 5 3 3 3"


def test_ruling_32_the_movers_friday_does_not_pay(capsys: pytest.CaptureFixture[str]) -> None:
    result = replay_json(capsys, "--players", "3", "--script", FRIDAY_ON_32)
    seats = {p["seat"]: p for p in result["players"]}
    assert seats[1]["position"] == 32 and seats[1]["friday"] == 3
    assert (seats[1]["chips"], seats[2]["chips"], seats[3]["chips"]) == (13, 9, 8)


@pytest.mark.parametrize("rule,chips", [("mover", (13, 9, 8)), ("both", (13, 8, 9)),
                                        ("everyone", (14, 9, 7))])
def test_house_rule_square_32_through_the_command(capsys: pytest.CaptureFixture[str],
                                                  rule: str, chips: tuple[int, ...]) -> None:
    """Seat 1 lands on 32 with seat 3 its Friday: seat 2 pays seat 1, and with ``both``
    seat 3 too; with ``everyone`` seat 3 pays seat 1 as well."""
    result = replay_json(capsys, "--players", "3", "--rule", f"square_32={rule}",
                         "--script", FRIDAY_ON_32)
    seats = {p["seat"]: p for p in result["players"]}
    assert (seats[1]["chips"], seats[2]["chips"], seats[3]["chips"]) == chips
    assert result["rules"]["square_32"] == rule


def test_house_rule_square_33_friday_through_the_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    script = FRIDAY_ON_32 + " 2 2 1"  # seats 2 and 3 go 19 -> 21; seat 1 32 -> 33
    mover = replay_json(capsys, "--players", "3", "--script", script)
    friday = replay_json(capsys, "--players", "3", "--rule", "square_33=friday",
                         "--script", script)
    assert [p["position"] for p in mover["players"]] == [33, 21, 21]
    chips = [[p["chips"] for p in r["players"]] for r in (mover, friday)]
    # mover: seat 1 collects 3 and its Friday (3) 1 more; friday: seat 3 collects the 3
    assert chips[0][0] - chips[1][0] == 3 and chips[1][2] - chips[0][2] == 2
    assert mover["pot"] == friday["pot"] - 1


# -- long scripts -----------------------------------------------------------------

def _long_script(stays: int) -> str:
    return "6 6 1 1 " + " ".join(["stay"] * stays)  # both on 7, staying for ever


def test_script_file_and_stdin_read_the_same_game(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "script.txt"
    path.write_text(_long_script(2_000) + "\n", encoding="utf-8")
    from_file = replay_json(capsys, "--players", "2", "--script-file", str(path))
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text(encoding="utf-8")))
    from_stdin = replay_json(capsys, "--players", "2", "--script-file", "-")
    assert from_file == from_stdin and len(from_file["actions"]) == 2_004


def test_a_bad_token_late_in_a_long_script_is_reported_before_any_play(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from robinson_core import script as script_module
    def apply(*_: object) -> None:
        pytest.fail("played before checking")

    monkeypatch.setattr(script_module, "apply", apply)
    path = tmp_path / "script.txt"
    path.write_text(_long_script(50_000) + " banana", encoding="utf-8")
    code, _, err = replay(capsys, "--players", "2", "--script-file", str(path))
    assert code == 2 and "token 50005 of the script ('banana')" in err


def test_a_script_file_too_long_for_any_game_is_refused(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_text("1 " * 2_000_001, encoding="utf-8")
    code, _, err = replay(capsys, "--players", "2", "--script-file", str(path))
    assert code == 2 and "longer than 4,000,000 characters" in err


# -- replay --pages: every result's screen as text ---------------------------------------


def test_pages_prints_every_result_page_by_page_as_drawn(
        capsys: pytest.CaptureFixture[str]) -> None:
    from firmware.display import screens
    from firmware.display.layout import CLASSIC
    from firmware.display.paging import shown
    from firmware.display.words import Words
    from robinson_core import Game, parse_action

    from ..rig import FONTS

    script = "3 1 4 1 5 6"
    code, out, err = replay(capsys, "--players", "3", "--script", script, "--pages",
                            "--lang", "hr")
    assert code == 0, err
    game, w, expected = Game((1, 2, 3)), Words("hr"), []
    for number, token in enumerate(script.split(), start=1):
        game = game.play(parse_action(token))
        pages = shown(screens.result_screen(w, game), FONTS, CLASSIC)
        expected.append(f"{number}. {token} (roll)")
        for n, page in enumerate(pages, start=1):
            expected.append(f"  ┌ {page.title}" + (f"   [{n}/{len(pages)}]" if len(pages) > 1
                                                   else ""))
            expected += [f"  │ {row}".replace("\u00a0", " ") for row in page.rows]
            expected += [f"  └ {row}" for row in page.footer]
    assert out.splitlines() == expected
    assert len(expected) > 6 * 4


def test_pages_json_has_a_screen_per_action(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = replay(capsys, "--players", "2", "--script", "6 2 5 3 3 1 6 1",
                            "--pages", "--json", "--display", "ssd1306:128x32")
    assert code == 0, err
    result = json.loads(out)
    assert list(result) == ["screens"]
    screens = result["screens"]
    assert [s["action"] for s in screens] == list(range(1, 10))  # "again" was put in
    assert [s["token"] for s in screens][-2:] == ["again", "1"]
    assert [s["kind"] for s in screens][-2:] == ["decision", "roll"]
    for screen in screens:
        assert set(screen) == {"action", "token", "kind", "pages"}
        for page in screen["pages"]:
            assert set(page) == {"title", "lines", "footer"}
            assert 1 <= len(page["lines"]) <= 2 and page["footer"] == ""  # the strip
    assert sum(len(s["pages"]) for s in screens) > len(screens)


def test_display_without_pages_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = replay(capsys, "--players", "2", "--script", "3", "--display",
                            "ssd1306:128x32")
    assert code == 2 and out == "" and err.count("\n") == 1 and "--pages" in err
