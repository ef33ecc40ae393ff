"""Croatian, to be heard."""

EXPAND = ((r"bacaju R\. na", "bacaju Robinsona na"), (r"\bR\.-u\b", "Robinsonu"),
          (r"\bR\.", "Robinson"))

SPOKEN = {
    "where": "{name}, {square}.",
    "where_via": "{name}, {via} pa {n}.",
    "square": "polje {n}",
    "start": "start",
    "and": " i ",
    "comma": ", ",
    "collect_bank": "Uzmi {amount:chips}.",
    "collect_bank_other": "{name} uzima {amount:chips}.",
    "pay_bank": "Plati {amount:chips}.",
    "pay_bank_other": "{name} plaća {amount:chips}.",
    "pay_player": "Plati {amount:chips} {other:dat}.",
    "pay_player_other": "{name} plaća {amount:chips} {other:dat}.",
    "pay_you": "{name} ti plaća {amount:chips}.",  # another pays the mover
    "bank_empty": "Blagajna je prazna.",
    "gets": "{name} dobiva {amount}.",
    "gets_own": "Dobivaš {amount}.",  # the mover's own change: their name was just said
    "pays": "{name} plaća {amount}.",
    "pays_own": "Plaćaš {amount}.",  # the mover's own change
    "everyone_pays": "Svi plaćaju po {amount}.",
    "friday_pays_more": "{name} kao Petak plaća još {amount}.",  # square 1, on top
    "friday_pays_more_own": "Kao Petak plaćaš još {amount}.",
    "others_pay": "{name} dobiva {gain}, svi ostali plaćaju po {amount}.",
    "others_pay_own": "Svi ti plaćaju po {amount}.",  # the mover gains
    "others_pay_two": "{name} i {other} dobivaju po {gain}, svi ostali plaćaju po {amount}.",
    "hanged": "{name} ispada iz igre: makni figuru.",
    "dead_chips": "{amount:chips} {name:gen} ide u ulog.",
    "won": "{name} pobjeđuje: {pot}.",
    "shared": "{other} dobiva pola: {amount}.",
    "shared_right": "{other} zdesna dobiva pola: {amount}.",
    "shared_left": "{other} slijeva dobiva pola: {amount}.",
    "shared_right_past": "{other} zdesna dobiva pola: {amount}; {dead} izvan igre.",
    "shared_left_past": "{other} slijeva dobiva pola: {amount}; {dead} izvan igre.",
    "shared_runner_up": "Pola dobiva {other}, na drugom mjestu: {amount}.",
    "shared_friday": "Petak {other} dobiva trećinu: {amount}.",
    "no_winner": "Nitko nije ostao. Ulog od {pot} ostaje.",
    "will_sit_out": "{name} gubi sljedeće bacanje.",
    "will_sit_out_own": "Gubiš sljedeće bacanje.",  # the mover: their name was just said
    "sat_out": "{name} gubi ovo bacanje.",
    "sat_out_many": "{names} gube ovo bacanje.",  # several in a row: said once
    "friday_sworn": "{name} dobiva Petka: {friday}.",
    "friday_oath": "{friday} ti plaća {amount} i tvoj je Petak.",  # 29
    "bond_ended": "{friday} više nije Petak {name:gen}.",
    "swapped": "{name} i {other} mijenjaju mjesta.",
    "parrot": "Svi: Jadni Robinson!",
    "no_neighbour": "Nitko drugi nije ostao.",
    "choice_roll": "Silazi i baca.",
    "choice_stay_tree": "Ostaje na drvetu.",
    "choice_again": "Baca još jednom.",
    "choice_pass": "Ne baca ponovno.",
    "choice_jump": "Plovi dalje.",
    "choice_stay_boat": "Ostaje.",
    "choice_restart": "Kreće ispočetka.",
    "choice_stay_wreck": "Ostaje.",
    "tree": "U sljedećim potezima smiješ ostati ovdje.",
    "roll_again": "Petica te vraća na 14.",
    "jump": "Smiješ ploviti dalje pirogom.",
    "gallows": "Šestica te ovdje ubija.",
    "shipwreck": "Brodolom!",
    "shipwreck_off": "Ostaješ ovdje.",
    "turn": "Na redu je {name}.",
    "decide": "{name}: kratko {short}, dugo {long}.",
    "decides": "{name} odlučuje.",  # another player decides: their options with their screen
    "decide_own": "Kratko {short}, dugo {long}.",  # the mover decides: the name was just said
    "setup": "Počinje {first}; pritisni dugo.",
    "setup_need": "Uključite sjedala barem dvaju igrača.",
    "resume": "Dobro došli natrag. Igraju {names}.",
    "resume_one": "Dobro došli natrag. Igra samo {names}.",  # one player left in the game
    "resume_none": "Dobro došli natrag.",  # nobody left: the game ended with no winner
    "begin": "Igra počinje.",
    "voice_on": "Glas uključen.",
    "story_on": "Pripovjedač uključen.",
    "story_off": "Pripovjedač isključen.",
    "odds_on": "Izgledi uključeni.",
    "odds_off": "Izgledi isključeni.",
    "odds": "Izgledi za pobjedu: {short}, {a} posto; {long}, {b} posto.",
}
