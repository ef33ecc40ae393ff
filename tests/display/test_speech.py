"""The spoken banker's words: every text of every language synthesizes into real sound of a
plausible length, and what is said agrees with the game (the square, the money, the pot)."""

from __future__ import annotations

import array
import random
import re
import subprocess
import wave
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.config.settings import Voice
from firmware.display.layout import NAME_LETTERS
from firmware.runtime.speaker import BYTES_A_SECOND, WAV_HEADER, synthesizer
from firmware.speech import said
from firmware.speech.words import VOICES, spoken, story, table
from robinson_core import CHOICES, Game, HouseRules, Pending, Roll, Status, narrate
from robinson_core import events as ev
from robinson_core.house_rules import DeadChips
from robinson_core.narrate import way
from robinson_core.texts import LANGUAGES, ui
from tests.host_packages import ensure

LONGEST = {"en": "Maximiliana" + "W", "hr": "Đurđica" + "Šćepanović"[:5],
           "fi": "Ääröönmäki" + "Ää", "ja": "ヴィクトリアアンナ"}
"""The longest names the config takes (12 letters; Japanese: 9 characters)."""
NAMES = {"en": ("Ana", "Ben", "Cid", "Dora", "Eva", "Fran"),
         "hr": ("Ana", "Ben", "Ćiro", "Dora", "Eva", "Frane"),
         "fi": ("Aino", "Eero", "Ilkka", "Otso", "Ulla", "Väinö"),
         "ja": ("アナ", "ベン", "シド", "ドラ", "エバ", "フラン")}
"""Names without digits: every digit in a text is then a square or an amount."""
BIGGEST = 999  # more chips than any game moves (6 purses of 200, the house rules' most)


@pytest.fixture(scope="module")
def espeak() -> None:
    problem = ensure("espeak-ng")
    if problem:
        pytest.fail(f"espeak-ng is needed to hear the voice: {problem}")


def filled(lang: str, key: str) -> str:
    """A text with its longest names and its largest numbers."""
    name = LONGEST[lang]
    return spoken(lang, key, name=name, other=name, friday=name, first=name, dead=name, square=45,
                  n=45, amount=BIGGEST, gain=BIGGEST, pot=BIGGEST, count=6,
                  names=said.Spoken(lang).listed([name] * 6), short=ui(lang, "opt_again"),
                  long=ui(lang, "opt_pass"), a=100, b=100,
                  via=spoken(lang, "square", n=25))


FRAGMENTS = {"and", "comma", "square"}
"""Pieces of other texts (" and ", ", ", "{n}"), heard only inside them."""


def every_text() -> list[tuple[str, str, str]]:
    """(language, what, text): every text for speech, and every square's story."""
    out = [(lang, key, filled(lang, key)) for lang in LANGUAGES for key in table(lang)
           if key not in FRAGMENTS]
    out += [(lang, f"story {n}", story(lang, n)) for lang in LANGUAGES for n in range(1, 46)]
    return out


def measure(path: Path) -> tuple[float, int, float]:
    """A WAV's duration (s), its peak and the share of its 20 ms windows that are sound."""
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        rate, frames = wav.getframerate(), wav.readframes(wav.getnframes())
    samples = array.array("h", frames)
    window = rate // 50
    loud = [max(map(abs, samples[i:i + window]), default=0) > 500
            for i in range(0, len(samples), window)]
    return len(samples) / rate, max(map(abs, samples), default=0), sum(loud) / max(1, len(loud))


def bounds(lang: str, text: str) -> tuple[float, float]:
    """How long a text may plausibly take at 160 words a minute: letters (a kana is a
    syllable, slower) and digits (a number is said in words, "nine hundred and…")."""
    letters = sum(c.isalpha() for c in text)
    digits = sum(c.isdigit() for c in text)
    per_letter = 0.10 if lang == "ja" else 0.05
    least = 0.3 + letters * per_letter * 0.4 + digits * 0.1
    most = 1.5 + letters * per_letter * 2.5 + digits * 0.8
    return least, most


def test_every_text_of_every_language_is_heard_for_a_plausible_time(
        espeak: None, tmp_path: Path) -> None:
    texts = every_text()

    def synthesize(item: tuple[int, tuple[str, str, str]]) -> tuple[str, str, str, Path, str]:
        index, (lang, what, text) = item
        path = tmp_path / f"{index}.wav"
        command = synthesizer(text, lang, volume=100, speed=160)
        command[command.index("--stdout")] = "-w"
        command.insert(command.index("-w") + 1, str(path))
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
        return lang, what, text, path, done.stderr.strip()

    with ThreadPoolExecutor(4) as pool:
        made = list(pool.map(synthesize, enumerate(texts)))
    wrong = []
    for lang, what, text, path, error in made:
        if error or not path.exists():
            wrong.append(f"{lang} {what}: espeak-ng said {error!r}")
            continue
        seconds, peak, sounding = measure(path)
        least, most = bounds(lang, text)
        if not least <= seconds <= most or peak < 3000 or peak >= 32767 or sounding < 0.3:
            wrong.append(f"{lang} {what}: {seconds:.2f} s (allowed {least:.1f}-{most:.1f}), "
                         f"peak {peak}, {sounding:.0%} sound: {text!r}")
    assert wrong == []
    assert len(made) == sum(len(table(lang)) - len(FRAGMENTS) + 45 for lang in LANGUAGES) > 360


def test_a_missing_voice_is_caught_not_silently_skipped(espeak: None, tmp_path: Path) -> None:
    """The measure above fails for a voice that is not there: espeak-ng says so and
    writes no sound (the check a table without espeak-ng-data's Croatian would fail)."""
    path = tmp_path / "missing.wav"
    done = subprocess.run(["espeak-ng", "-v", "zz-nowhere", "-w", str(path), "--", "Ana, 14."],
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0 or not path.exists() or measure(path)[0] == 0.0
    assert set(VOICES) == set(LANGUAGES)


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def play(choices: list[int], seats: int) -> list[Game]:
    """A game from ``choices``: each picks a face (a roll) or one of the legal choices."""
    game, out = Game(tuple(range(1, seats + 1))), []
    for pick in choices:
        if game.state.status is not Status.PLAYING:
            break
        actions = game.state.legal_actions()
        action = actions[pick % len(actions)]
        game = game.play(Roll(pick % 6 + 1) if isinstance(action, Roll) else action)
        out.append(game)
    return out


def speak_own(lang: str, amount: int) -> str:
    """What the voice says when everyone else pays the mover ``amount``."""
    return spoken(lang, "others_pay_own", amount=amount)


def speak_everyone(lang: str, amount: int) -> str:
    return spoken(lang, "everyone_pays", amount=amount)


def friday_more(lang: str, names: dict[int, str], seat: int, amount: int, own: bool) -> str:
    """What the voice says of a Friday who paid again for their master (square 1)."""
    return spoken(lang, "friday_pays_more_own" if own else "friday_pays_more",
                  name=names[seat], amount=amount)


class Compared:
    """How many results each check really compared (asserted at the end of the run)."""

    counts: ClassVar[Counter[str]] = Counter()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 59), min_size=20, max_size=160), st.integers(2, 6),
       st.sampled_from(LANGUAGES))
def test_what_is_said_agrees_with_the_game(choices: list[int], seats: int, lang: str) -> None:
    """The numbers in what is said, read against the game's states before and after
    (not its events): the mover's square first; every purse's change; the pot."""
    names = dict(enumerate(NAMES[lang], start=1))
    before = Game(tuple(range(1, seats + 1)))
    for game in play(choices, seats):
        text = said.Spoken(lang, names).result(game)
        spoken_numbers = numbers(text.replace(spoken(lang, "roll_again"), ""))  # 20's
        # warning names 14, where a 5 takes the token: not a number of this result
        old, new = before.state, game.state
        before = game
        mover = next(e.seat for e in game.events if isinstance(e, ev.Rolled | ev.Decided
                                                                | ev.SatOut))
        position = new.player(mover).position
        square = 42 if position is None else position  # hanged: where, not "start"
        assert text.startswith(names[mover]), text
        rolled = next((e for e in game.events
                       if isinstance(e, ev.Moved) and e.cause is ev.Cause.ROLL), None)
        sent_on = way(game.events, rolled)[rolled.bounced:] if rolled is not None else []
        swapped = any(isinstance(e, ev.Swapped) for e in game.events)  # said as such
        if new.status is Status.WON:  # the win says where: no square first
            pass
        elif square and len(sent_on) > 1 and not swapped:  # sent on: that square, then where
            assert spoken_numbers[:len(sent_on)] == sent_on, text
            spoken_numbers = spoken_numbers[len(sent_on):]
            Compared.counts["sent on"] += 1
        elif square:
            assert spoken_numbers[0] == square, text
            spoken_numbers = spoken_numbers[1:]
        change = {p.seat: p.chips - old.player(p.seat).chips for p in new.players}
        moved = {abs(c) for c in change.values() if c}
        if new.status is Status.WON:
            winner = new.winner
            assert winner is not None
            # The pot won (all there was), then each share; the winner keeps the rest.
            assert spoken_numbers[0] == old.pot and new.pot == 0, text
            shares = spoken_numbers[1:]
            assert sorted(shares) == sorted(c for s, c in change.items() if s != winner and c > 0)
            assert spoken_numbers[0] - sum(shares) == change[winner]
            Compared.counts["won"] += 1
        elif moved and change[mover] > 0 and spoken_numbers and \
                speak_own(lang, spoken_numbers[0]) in text:  # everyone pays the mover:
            paid = [c for s, c in change.items() if c < 0]  # the gain goes without saying
            assert set(paid) == {-spoken_numbers[0]} and len(spoken_numbers) == 1, text
            assert change[mover] == -sum(paid), text
            Compared.counts["everyone pays you"] += 1
        elif moved and (base := min((-c for c in change.values() if c < 0), default=0)) \
                and (extra := {s: -c - base for s, c in change.items() if c < 0 and -c != base}) \
                and speak_everyone(lang, base) in text:  # all alike, a Friday again on top
            assert all(c < 0 for c in change.values()), text
            for s, more in extra.items():
                assert friday_more(lang, names, s, more, s == mover) in text, text
            Compared.counts["friday more"] += 1
        elif moved:
            money = spoken_numbers  # the pot is the panel's: not said
            assert set(money) == moved, text  # each purse's change, alike ones said once
            assert len(money) <= sum(1 for c in change.values() if c)
            Compared.counts["money"] += 1
        elif new.status is Status.NO_WINNER:
            assert spoken_numbers == [new.pot], text
            Compared.counts["no winner"] += 1
        else:  # no chip moved: no number but the square
            assert spoken_numbers == [], text
            Compared.counts["quiet"] += 1
        if new.status is Status.PLAYING:  # whose turn, unless it is the table's order
            alive = [p.seat for p in new.players if p.position is not None]
            later = [s for s in alive if s > mover] + [s for s in alive if s < mover]
            sat = {e.seat for e in game.events if isinstance(e, ev.SatOut)}  # said to sit
            skipped = [s for s in later if s in sat]  # out: who is next goes without saying
            heard = [s for s in later if s not in sat]
            speak = said.Spoken(lang, names)
            turn, who = speak.turn(new), names[new.to_move] if new.to_move else ""
            if new.pending is Pending.ROLL and not skipped and later \
                    and new.to_move == later[0]:
                assert not text.endswith(turn), text
                Compared.counts["in order"] += 1
            elif new.pending is Pending.ROLL and skipped and heard and new.to_move == heard[0]:
                assert not text.endswith(turn), text  # "Ana misses this turn." says Ben's
                Compared.counts["skip heard"] += 1
            elif new.pending is Pending.ROLL and new.to_move == mover:  # rolls on: 7, 20
                assert not text.endswith(turn), text
                Compared.counts["rolls on"] += 1
            elif new.pending is Pending.ROLL:  # a skip: whose turn it is
                assert text.endswith(turn), text
                Compared.counts["turn said"] += 1
            elif new.to_move != mover:  # another decides: named, their options said later
                assert text.endswith(speak("decides", name=who)), text
                Compared.counts["decides"] += 1
            else:  # the mover decides: the options, without the name just said
                options = [ui(lang, narrate.OPTION_KEYS[c]) for c in CHOICES[new.pending]]
                last = text.rpartition(".")[0].rpartition(".")[2] if lang != "ja" else text
                assert all(o in last for o in options), text
                Compared.counts["own options"] += 1


def test_the_agreement_check_compared_real_results() -> None:
    """Run after the property test (file order): it compared every kind of result."""
    counts = Compared.counts
    assert counts["money"] >= 300 and counts["quiet"] >= 300 and counts["won"] >= 3, counts
    assert counts["in order"] >= 300 and counts["skip heard"] >= 30, counts
    assert counts["everyone pays you"] >= 3, counts  # "turn said": a lap, rare (below)
    assert counts["rolls on"] >= 30 and counts["decides"] >= 10 and counts["own options"] >= 30
    assert counts["sent on"] >= 20, counts


def test_the_storyteller_reads_the_square_and_says_robinson_in_full() -> None:
    game = Game((1, 2)).play(Roll(5))
    for lang in LANGUAGES:
        plain = said.Spoken(lang).result(game)
        told = said.Spoken(lang).result(game, storyteller=True)
        assert story(lang, 5) in told and story(lang, 5) not in plain
    assert "Valovi bacaju Robinsona na obalu" in story("hr", 5)
    assert not any(re.search(r"\b[RP]\.|R:", story(lang, n)) for lang in LANGUAGES
                   for n in range(1, 46))
    assert not any(re.search(r"[\u4e00-\u9fff]", story("ja", n)) for n in range(1, 46))


def test_japanese_is_spoken_in_kana_with_its_particles_as_they_sound() -> None:
    everything = " ".join(filled("ja", key) for key in table("ja"))
    assert not re.search(r"[\u4e00-\u9fff]", everything)  # no kanji: the voice cannot read it
    assert not re.search(r"[はを]\s", everything)  # the particles are written わ, お


@pytest.mark.parametrize(("name", "lang", "ok"), [
    ("Ana", "en", True), ("Đurđa", "hr", True), ("アナ", "ja", True), ("花子", "ja", False),
    ("アナ", "en", False), ("Ana", "ja", True)])
def test_a_name_the_voice_cannot_say_is_said_as_the_seat(name: str, lang: str,
                                                        ok: bool) -> None:
    assert said.speakable(name, lang) is ok
    spoken_name = said.voice_names(lang, {2: name})(2)
    assert (spoken_name == name) is ok


def test_the_longest_names_fit_the_config() -> None:
    from firmware.display.layout import name_fits

    assert all(name_fits(name) for name in LONGEST.values())
    assert all(len(name) == NAME_LETTERS for lang, name in LONGEST.items() if lang != "ja")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_the_same_texts_for_speech_with_the_same_placeholders(
        lang: str) -> None:
    import string

    def fields(template: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(template) if f}

    ours, theirs = table("en"), table(lang)
    assert set(theirs) == set(ours)
    assert [key for key in ours if fields(theirs[key]) != fields(ours[key])] == []
    assert len(ours) == 75


@pytest.mark.parametrize("name,injected", [("[[h@'loU]]", "h@l'oU"), ("[[[", None),
                                           ("]][[", None), ("a[[b", None), ("[][", None)])
def test_a_name_of_brackets_never_turns_the_sentence_into_phonemes(
        espeak: None, name: str, injected: str | None) -> None:
    """espeak-ng reads what follows ``[[`` as phoneme codes, up to ``]]`` or the end: the
    synthesizer is given no two brackets together, the name is not said as the phonemes
    it spells, and the rest of the sentence is said as words (its phonemes as espeak-ng
    shows them with -x: "Take 1 chip")."""
    w = said.Spoken("en", {1: name})
    text = w.result(Game((1, 2)).play(Roll(3)))  # square 3: take a chip from the bank
    command = synthesizer(text, "en", volume=100, speed=160)
    assert name in text and not re.search(r"[\[\]]{2}", command[-1]), command[-1]
    phonemes = subprocess.run(["espeak-ng", "-q", "-x", "-v", "en", "--", command[-1]],
                              capture_output=True, text=True, check=True).stdout
    assert "t'eIk w'0n tS'Ip" in phonemes, phonemes  # "Take 1 chip."
    assert injected is None or injected not in phonemes, phonemes


def test_a_payment_between_players_is_said_as_who_pays_how_many_chips_to_whom() -> None:
    """Read against the events, in words written here, not with the voice's own tables:
    each result of seeded games with one payment between players says it in English as
    "Pay N chips to B." (the mover pays) or "A pays N chips to B.", the count with its
    noun, never two numbers side by side; on 29, with the oath, in one sentence."""
    compared = sworn = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = Game((1, 2, 3, 4), 1)
        while game.state.status is Status.PLAYING and len(game.actions) < 300:
            game = game.play(rng.choice(game.state.legal_actions()))
            paid = [e for e in game.events if isinstance(e, ev.Transfer) and e.amount]
            if len(paid) != 1 or None in (paid[0].payer, paid[0].payee) or any(
                    isinstance(e, ev.Won | ev.Shared) for e in game.events):
                continue
            payment = paid[0]
            mover = next(e.seat for e in game.events if isinstance(e, ev.Rolled | ev.Decided))
            chips = f"{payment.amount} chip{'s' if payment.amount != 1 else ''}"
            expected = (f"Pay {chips} to Player {payment.payee}." if payment.payer == mover
                        else f"Player {payment.payer} pays you {chips}."
                        if payment.payee == mover  # the mover's name was just said
                        else f"Player {payment.payer} pays {chips} to Player {payment.payee}.")
            if any(isinstance(e, ev.FridaySworn) for e in game.events):  # 29: one sentence
                expected = f"Player {payment.payer} pays you {payment.amount} and is your Friday."
                sworn += 1
            assert expected in said.Spoken("en").result(game), (expected, game.events)
            compared += 1
    assert compared >= 50 and sworn >= 10, (compared, sworn)


FAMILY = {"en": ("Ann", "Ben", "Cy", "Dora", "Eve", "Finn"),
          "hr": ("Ana", "Ivo", "Maja", "Čedo", "Pero", "Marko"),
          "fi": ("Kaisa", "Ville", "Aino", "Eero", "Lauri", "Satu"),
          "ja": ("カイ", "ユキ", "ミナ", "ソラ", "ハル", "レン")}
"""A family's names, as a table is played: the names the figures below were measured
with (the seats' own, "Player 3", are longer: the README gives both)."""


def test_nineteen_results_in_twenty_are_heard_within_four_seconds(espeak: None) -> None:
    """Every result of 40 seeded games of 2 to 6 players (random choices), said as the
    table says it at the default speed, each language at its pace: at most 5 % of the
    WAVs last over 4 s, in every language, and the setup's are within 4 s. Before this
    was asked: 15 to 34 % over 4 s, Finnish's longest 9.96 s, the setup 6.4 to 8.1 s.
    Each text is synthesized once and counted as often as it was said."""
    speed = Voice().speed
    over, p95, heard = {}, {}, 0
    for lang in LANGUAGES:
        speak = said.Spoken(lang, dict(enumerate(FAMILY[lang], start=1)))
        texts = Counter[str]()
        for seed in range(40):
            rng, game = random.Random(seed), Game(tuple(range(1, 3 + seed % 5)))
            while game.state.legal_actions() and len(game.actions) < 400:
                game = game.play(rng.choice(game.state.legal_actions()))
                texts[speak.result(game)] += 1
        setups = [speak.setup(range(1, 7), first, ready=True) for first in range(1, 7)]

        def seconds(text: str, lang: str = lang) -> float:
            wav = subprocess.run(synthesizer(text, lang, volume=100, speed=speed),
                                 capture_output=True, check=True).stdout
            return (len(wav) - WAV_HEADER) / BYTES_A_SECOND

        with ThreadPoolExecutor(max_workers=4) as pool:
            lengths = dict(zip(texts, pool.map(seconds, texts), strict=True))
            setup = max(pool.map(seconds, [*setups, speak.setup((1,), None, ready=False)]))
        each = sorted(length for text, length in lengths.items() for _ in range(texts[text]))
        over[lang] = round(100 * sum(length > 4.0 for length in each) / len(each), 1)
        p95[lang] = round(each[len(each) * 95 // 100], 2)
        heard += len(each)
        assert setup <= 4.0, (lang, setup)
    print(f"\nresults over 4 s, heard at {speed} words a minute: {over} % (95th "
          f"percentile {p95} s) of {heard}")
    assert heard >= 4 * 2000 and all(share <= 5.0 for share in over.values()), (heard, over)


def test_every_moment_is_said_as_pinned() -> None:
    """What the voice says, read against what it should say (tests/reference/spoken.txt,
    looked at when written: ``python -m tests.make_reference``), in every language."""
    from ..make_reference import HERE, spoken

    expected = (HERE / "spoken.txt").read_text(encoding="utf-8").splitlines()
    assert spoken() == expected and len(expected) > 1000


def test_a_death_is_said_before_the_chips_and_a_hanged_players_chips_go_into_the_pot() -> None:
    """The voice says the hanging first, with what to do (the token off), then the chips:
    under dead_chips = pot as going into the pot, never "Pay 9 chips" (which sounded
    like a fine on 42), and at the game's last hanging before "nobody is left", which
    said nothing of them. 200 seeded games of four and 400 of two, in every language."""
    rules = HouseRules(dead_chips=DeadChips.POT)
    compared = Counter[str]()
    for lang in LANGUAGES:
        speak = said.Spoken(lang)
        for seed, seats in [*((s, (1, 2, 3, 4)) for s in range(200)),
                            *((s, (1, 2)) for s in range(400))]:
            rng, game = random.Random(seed), Game(seats, rules=rules)
            while game.state.legal_actions():
                game = game.play(rng.choice(game.state.legal_actions()))
                hanged = next((e for e in game.events if isinstance(e, ev.Eliminated)), None)
                if hanged is None:
                    continue
                text, name = speak.result(game), speak.name(hanged.seat)
                death = speak("hanged", name=name)
                assert death in text, text
                paid = [e for e in game.events if isinstance(e, ev.Transfer) and e.amount]
                for chips in paid:  # a hanging moves no chips but the dead one's
                    assert chips.why is ev.Why.DEAD_CHIPS, game.events
                    into_pot = speak("dead_chips", name=name, amount=chips.amount)
                    assert text.index(death) < text.index(into_pot), text
                    compared["into the pot"] += 1
                if game.state.status is Status.NO_WINNER:
                    compared["the last"] += bool(paid)
                compared[lang] += 1
    assert min(compared[lang] for lang in LANGUAGES) >= 25, compared
    assert compared["into the pot"] >= 100 and compared["the last"] >= 4, compared


def test_the_setup_is_said_in_four_seconds_at_most(espeak: None) -> None:
    """Setup says who starts (who plays is on the panel): a WAV of 4 s at most in every
    language for 2 to 8 seats with the seats' own names, the longest (it took 6.4 to
    8.1 s naming everyone)."""
    speed, lengths = Voice().speed, {}
    for lang in LANGUAGES:
        for count in range(2, 9):
            seats = tuple(range(1, count + 1))
            text = said.Spoken(lang).setup(seats, seats[-1], True)
            wav = subprocess.run(synthesizer(text, lang, volume=100, speed=speed),
                                 capture_output=True, check=True).stdout
            lengths[lang, count] = (len(wav) - WAV_HEADER) / BYTES_A_SECOND
    longest = {lang: round(max(v for (of, _), v in lengths.items() if of == lang), 2)
               for lang in LANGUAGES}
    print(f"\nsetup, the longest a language: {longest}")
    assert len(lengths) == 4 * 7 and max(lengths.values()) <= 4.0, lengths


def test_who_is_next_is_said_only_when_the_sitting_out_does_not_say_it() -> None:
    """"Ana misses this turn." says that Ben rolls next: not said again. When every other
    player sits out, whose turn it is is said (the mover's, here Cid's own next turn is
    missed too, and the lap comes back to Ana)."""
    speak = said.Spoken("en", dict(enumerate(NAMES["en"], start=1)))
    skip = play([28, 2, 53, 2, 51, 1] + [0] * 13, 3)[-1]
    assert speak.result(skip) == "Cid, square 12. You miss your next turn. Ana misses this turn."
    assert skip.state.to_move == 2  # Ben: after Ana, as heard
    lap = play([0, 0, 49] + [0] * 14 + [45, 0, 0, 0, 0, 8] + [0] * 5 + [39, 0, 0, 12, 35, 0, 0,
                                                                        0, 50, 0], 3)[-1]
    assert speak.result(lap) == ("Cid, square 12. You miss your next turn. "
                                 "Ana, Ben and Cid miss this turn. Ana's turn.")
