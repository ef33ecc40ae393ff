"""The rules reference of this repository (RULES.md), written from the engine's own data.

The squares, their stories and instructions, and the house rules with their
defaults come from ``board``, ``texts`` and ``house_rules``, so the document
and the engine cannot drift apart; the prose around them (what a turn is, the
money, the rulings) is kept here, beside the tables it explains.
``robinson rules --format markdown`` prints it; a test keeps RULES.md current.

>>> "| 29 |" in markdown() and "`square_33`" in markdown()
True
"""

from __future__ import annotations

from .board import BOARD, HOME, Effect
from .game import MAX_ACTIONS
from .house_rules import NAMES, HouseRules, allowed_values, format_value
from .seats import MAX_PLAYERS, MIN_PLAYERS
from .texts import caption, instruction

INTRO = f"""\
# Robinson — the rules the banker keeps

Robinson is an old dice race over a printed board of {HOME} squares, from
Robinson leaving home to his return 28 years later. The rule sheet that came
with the board (in Croatian, Finnish and Japanese) is short and leaves much to
the table; this is the exact reading that the engine in `robinson_core/`
plays, square by square. Where the sheet can be read two ways the engine makes
a **ruling**, and where a table may fairly want the other reading that ruling
is a **house rule**, with a name and a default, that a game can be started with
changed (`robinson replay --rule NAME=VALUE`, or `[rules]` in the table's
config).

This file is written by `robinson rules --format markdown` from the engine's
board, texts and house rules; a test fails when it is out of date.

## Words

- **Seat**: a place at the table, numbered 1 to {MAX_PLAYERS} clockwise. A player
  is known by their seat, and play goes round in rising seat numbers, from the
  highest back to the lowest. *Ruling*: no sheet says which way play goes; clockwise
  is how a European table plays.
- **Active**: in the game and not hanged on 42.
- **Right-hand neighbour**: the active player whose turn came just before
  yours (the previous active seat, wrapping round). *Ruling*: the sheets name the
  neighbour on 10 and 29 but not who that is; with play going clockwise, the
  player on your right is the one who played before you.
- **The bank**: the table itself. The bank *is* the pot: paying the bank puts
  chips into the pot, collecting from the bank takes them out of it, and the
  winner takes what is left. *Ruling*: the Croatian share-out gives the Friday "a
  third of the *blagajna*" (the cash box) right after "the whole *ulog*" (the pot),
  so that sheet treats the two as one; the Japanese keeps 場 (the pot) and 会計係
  (the banker) apart but never gives the banker money of its own. So a collection
  pays what the pot holds, and the Friday rule's 1 comes from the pot too.
- **Start**: square 0, off the board, where every token begins.

## Setting up

- {MIN_PLAYERS} to {MAX_PLAYERS} players. Each gets the purse and puts the stake
  into the pot (house rules `purse` and `stake`).
- The youngest starts (the sheet: the youngest is also the banker). The table
  asks who starts; the lowest seat unless the table says otherwise.
- Every token begins at start.

## A turn

1. A player who must sit out (square 12) loses this turn: nothing moves, and
   play passes on.
2. A player standing on 7 may stay in the tree instead of rolling.
3. Otherwise the player rolls one die and moves that many squares. *Ruling*: the
   first throw moves and acts. The Croatian and Finnish sheets have the first throw
   written down (hr *zapisuje broj*, fi *merkitsee lapulle*) and moving begin "with
   the second throw"; the Japanese has the player mark themselves on the square
   thrown. The table reads all three as one move from start: the first roll puts
   the token on its square, and that square is carried out like any other (a first
   1 makes everyone pay, a first 4 is the shipwreck).
4. **Exact finish**: a roll that would pass {HOME} counts back from {HOME} by
   the excess: from 43 a 5 ends on 42.
5. The square the token stops on is carried out (the table below), whether
   it was reached going forward, bouncing back, or on a first roll. A square
   reached *because of* another square (25 to 14, 23 to 27, the swap of 36,
   start after 4) is carried out only where the table says so.
6. Play passes to the next active seat, unless square 20 gives the same player
   another roll.

## Money

- **Paying the bank** n: the player pays what they have, at most n. With the
  house rule `debt`, the full n is always paid and a balance may go below 0.
- **Collecting from the bank** n: the player gets what the pot holds, at most n.
- **Paying another player** n: at most what the payer has (the same `debt`
  rule).
- **The Friday rule**: whenever the board tells a master to pay the bank, the
  master's Friday pays the bank 1 as well; whenever it tells a master to collect
  from the bank, the Friday collects 1 as well, from the pot (see the bank,
  above). *Ruling*: the instruction
  triggers it even if the master pays or gets less than asked; the master's
  chips move first, then the Friday's; what a Friday pays or gets by this rule
  never triggers a Friday of its own. It does not apply between players, nor to
  the share-out at {HOME}.
- Chips are never made or lost: the players' chips and the pot always add up
  to the number of players times the purse.
"""

NOTES = {
    1: "The mover pays too. Each master among the payers brings their Friday in. "
       "*Ruling*: the sheet's travel money (hr *putni novac*, fi *matkakassaan*) goes "
       "into the pot, so it is a payment to the bank, and the only one that can make a "
       "master pay the bank (every other fine lies below 29).",
    4: "The next roll moves from start again. All three sheets say *may* (hr *Smiješ*, "
       "fi *Saat*, ja *やり直せます*), as on 7, 20 and 23, but an old game's \"you may "
       "start again\" is a penalty in play. House rule `square_4`: `back` (default) as "
       "above; `ask`: the player decides, as on 23: `restart` (the default, a short "
       "press) or `stay`; `stay`: nothing happens.",
    7: "Asked at the start of each later turn spent on 7; the default is to roll. "
       "*Ruling*: the choice is made before the die is thrown: staying is for a throw "
       "(hr *smiješ ostati više od jednog bacanja*, fi *useamman heiton ajan*), not "
       "after seeing it.",
    10: "Not a bank payment: no Friday rule. *Ruling*: with nobody else left, nothing "
        "is paid and the table says so.",
    12: "The turn after this one is lost.",
    17: "Everyone says \"Poor Robinson!\" with the parrot; no chips move.",
    20: "The player may roll again at once (the default). The new roll moves on "
        "from 20, so a 5 lands on 25: the sheet's warning.",
    23: "The player may sail on to 27 (the default); 27 does nothing.",
    25: "With `chain_25_to_14` (the default) square 14 is then carried out: collect 2.",
    29: "The neighbour pays 2 and becomes the mover's Friday for the rest of the game. "
        "*Ruling*: one Friday per master and one master per Friday; a new oath "
        "replaces the mover's old Friday and frees the new Friday from any old "
        "master; the same oath again moves only the 2 chips. A Friday may also be "
        "a master: the rule above keeps chains harmless. With nobody else left, "
        "there is no Friday and the table says so.",
    32: "*Ruling*: the sheet says *they* collect (hr *Dobivaju*, fi *He saavat*): "
        "Robinson and his Friday fight the cannibals together, so the mover's own "
        "Friday neither pays nor collects; the Japanese sheet says only \"1 from each "
        "participant\". House rule `square_32`: `mover` (default) as above; `both`: the "
        "mover and the mover's Friday each collect 1 from every other active player "
        "(each payer pays the mover first, then the Friday; the two do not pay each "
        "other); `everyone`: the mover collects 1 from every other active player, their "
        "Friday included. Without a Friday all three are the same. Between players: no "
        "Friday rule. With nobody else left, nothing is collected.",
    33: "House rule `square_33`: the story is Friday's, and the Finnish sheet says "
        "*he* gets 3 (*Saa*, where the squares that pay one player say *you* get, "
        "*Saat*, and 32 says *they* get, *He saavat*). "
        "`mover` (default): the mover collects 3, and the Friday rule gives the "
        "mover's Friday 1. `friday`: the mover's Friday collects the 3 instead, "
        "with no Friday rule on top; a mover with no Friday collects the 3.",
    36: "*Ruling*: if several stand on 41, the first of them after the mover in turn "
        "order; neither square is carried out after the swap.",
    42: "A player who starts a move on 42 and rolls a 6 (42 + 6 bounces back to 42) "
        "is hanged: see below.",
    45: "The game ends: see the share-out below.",
}
"""What the square's own instruction leaves open, in the reference's words."""

RULE_NOTES = {
    "purse": "Chips each player starts with (0 to 999).",
    "stake": "Chips each player puts into the pot at the start (0 to the purse).",
    "debt": "`false`: nobody pays more than they have. `true`: the full amount is "
            "always paid and balances may go below 0.",
    "square_4": "What the shipwreck on square 4 does: `back` to start, `ask` the player "
                "(`restart` or `stay`), or `stay` (the sheet's \"may\" read as optional: "
                "nothing happens). The earlier `restart_on_4` is still read: `true` is "
                "`back`, `false` is `stay`.",
    "chain_25_to_14": "`true`: sent back from 25 to 14, the player collects the 2 of "
                      "square 14 (the sheet's \"two glasses of wine\").",
    "dead_chips": "`keep`: a hanged player keeps their chips. `pot`: their chips go into "
                  "the pot; with `debt`, only a positive balance does, and a debt stays "
                  "with the dead player (the pot never shrinks because someone died).",
    "share_with": "Who gets half the pot when the winner has no Friday: `right` (the "
                  "right-hand neighbour), `left` (the next active seat), `runner_up` (the "
                  "active player furthest along; ties go to the first after the winner "
                  "in turn order) or `none`.",
    "square_33": "Who collects the 3 of square 33: `mover`, or the mover's `friday` "
                 "(see square 33).",
    "square_32": "Who collects on square 32: the `mover` from all but their Friday, "
                 "`both` the mover and their Friday, or the mover from `everyone` "
                 "(see square 32).",
}
"""A sentence or two on each house rule, longer than the one-line text the screens use."""

OUTRO = f"""\
## Hanged on 42

- The hanged player's token leaves the board. They take no more turns, pay and
  get nothing, and are passed over when looking for a right-hand neighbour, a
  player on 41, or someone to share with.
- Every Friday bond they are part of ends.
- Their chips stay theirs, or go into the pot (house rule `dead_chips`).
- If one player is left, they play on alone until they win or are hanged too.
  *Ruling*: the sheet's winner is the first to reach {HOME}; the last one standing
  has not reached it.
  If nobody is left, the game ends with no winner and the pot stays where it is.

## The share-out on {HOME}

The winner takes the whole pot, then gives part of it away:
- a winner with a Friday gives the Friday a third of the pot, rounded down;
- a winner without one gives half of the pot, rounded down, to the player the
  house rule `share_with` names;
- with nobody else active, nothing is shared.

*Ruling*: rounded down, so an odd chip stays with the winner. Where the winner has
no Friday the Japanese sheet says *山分け* ("split equally") and the others "share
your winnings": half, to one player.

## Decisions

Three squares ask the player (four with `square_4 = ask`); the first word is the
default, what a short press of the ROLL button means:
- after landing on 4, with `square_4 = ask`: `restart` or `stay`;
- on 7, at the start of a turn: `roll` or `stay`;
- after landing on 20: `again` or `pass`;
- after landing on 23: `jump` or `stay`.

## Rulings for cases the sheet does not reach

Each has a test named after it in `tests/`.
- **Nobody else left** (10, 29, 32 with one active player): there is nobody to
  pay, to swear in, or to collect from, so no chips move; on 10 and 29 the
  table says that nobody else is left.
- **A dead player's debt** (`debt` with `dead_chips = pot`): only chips go into
  the pot; a negative balance stays with the dead.
- **A Friday who is also a master**: allowed; the Friday rule never chains.
- **Staying on 7 for ever**: a player who always stays can keep a game going;
  that is the player's choice, and the engine lets them.

## The table's own rulings

The sheet has no undo and no abandoned games; the table has both, and rules them so
that neither can be used to play again what the die already decided.
- **Undo keeps the die** (a ruling of the table's, not a house rule: tested in
  `tests/table/test_play.py` and `tests/table/test_machine.py`): the menu's undo takes
  back the game, not the die. A roll taken back is owed to the position it was rolled
  from: the next roll from there shows the same face, however the game gets back to
  it (at once, over a restart, after a new game and a bring-back, or in a game begun
  anew alike); several taken back come again in their order. A choice taken back too
  and made the other way leads elsewhere, and no face is owed there. Undo mends a
  wrong choice; it never buys a new throw.
- **A game holds at most {MAX_ACTIONS:,} actions**: far past any real game (only two
  players staying on 7 for ever reach it); at the limit the table says so and takes
  no more, and the game can still be put away.
- **Nothing is thrown away unasked**: putting a game in progress away (a long press
  on the title, or the menu's new game) asks first, and the menu's *bring back*
  puts the last game put away unfinished back in play. A game that is over goes
  through setup again, with the seats as switched on then.
"""


def markdown() -> str:
    """The whole reference, as Markdown (English; the captions are the table's own)."""
    rules = HouseRules()
    rows = ["## The squares", "",
            "A square not listed does nothing but tell its story. Amounts are in chips; "
            "the wording is the instruction the table shows (in English).", "",
            "| sq | story | the table says | and |", "|---|---|---|---|"]
    for square in BOARD[1:]:
        told = instruction("en", square.number, rules)
        note = NOTES.get(square.number, "")
        if square.effect is Effect.NONE and not note:
            continue
        rows.append(f"| {square.number} | {caption('en', square.number)} | {told} | {note} |")
    quiet = [str(s.number) for s in BOARD[1:]
             if s.effect is Effect.NONE and s.number not in NOTES]
    rows += ["", f"Story only: {', '.join(quiet)}.", ""]
    house = ["## House rules", "", "| house rule | default | values | meaning |",
             "|---|---|---|---|"]
    for name in NAMES:
        values = ", ".join(f"`{v}`" for v in allowed_values(name)) or (
            "`true`, `false`" if isinstance(getattr(rules, name), bool) else "a whole number")
        house.append(f"| `{name}` | `{format_value(getattr(rules, name))}` | {values} | "
                     f"{RULE_NOTES[name]} |")
    house.append("")
    return "\n".join([INTRO, *rows, *house, OUTRO]).rstrip("\n") + "\n"
