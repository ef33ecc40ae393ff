"""English, to be heard."""

EXPAND = ((r"\bR\.", "Robinson"),)

SPOKEN = {
    "where": "{name}, {square}.",
    "where_via": "{name}, {via} then {n}.",
    "square": "square {n}",
    "start": "start",
    "and": " and ",
    "comma": ", ",
    "collect_bank": "Take {amount:chips}.",
    "collect_bank_other": "{name} takes {amount:chips}.",
    "pay_bank": "Pay {amount:chips}.",
    "pay_bank_other": "{name} pays {amount:chips}.",
    "pay_player": "Pay {amount:chips} to {other}.",
    "pay_player_other": "{name} pays {amount:chips} to {other}.",
    "pay_you": "{name} pays you {amount:chips}.",  # another pays the mover
    "bank_empty": "The bank is empty.",
    "gets": "{name} gets {amount}.",
    "gets_own": "You get {amount}.",  # the mover's own change: their name was just said
    "pays": "{name} pays {amount}.",
    "pays_own": "You pay {amount}.",  # the mover's own change
    "everyone_pays": "Everyone pays {amount}.",
    "friday_pays_more": "{name} pays {amount} more, as a Friday.",  # square 1, on top
    "friday_pays_more_own": "You pay {amount} more, as a Friday.",
    "others_pay": "{name} gets {gain}, everyone else pays {amount}.",
    "others_pay_own": "Everyone pays you {amount}.",  # the mover gains
    "others_pay_two": "{name} and {other} get {gain} each, everyone else pays {amount}.",
    "hanged": "{name} is hanged: take the token off.",
    "dead_chips": "{name:gen} {amount:chips} go into the pot.",
    "won": "{name} wins {pot}.",
    "shared": "{other} gets half: {amount}.",
    "shared_right": "{other} on the right gets half: {amount}.",
    "shared_left": "{other} on the left gets half: {amount}.",
    "shared_right_past": "With {dead} out, {other} on the right gets half: {amount}.",
    "shared_left_past": "With {dead} out, {other} on the left gets half: {amount}.",
    "shared_runner_up": "{other}, next furthest on, gets half: {amount}.",
    "shared_friday": "Friday {other} gets a third: {amount}.",
    "no_winner": "Nobody is left. The pot of {pot} stays.",
    "will_sit_out": "{name} misses the next turn.",
    "will_sit_out_own": "You miss your next turn.",  # the mover: their name was just said
    "sat_out": "{name} misses this turn.",
    "sat_out_many": "{names} miss this turn.",  # several in a row: said once
    "friday_sworn": "{friday} is now {name:gen} Friday.",
    "friday_oath": "{friday} pays you {amount} and is your Friday.",  # 29
    "bond_ended": "{friday} is no longer {name:gen} Friday.",
    "swapped": "{name} and {other} swap places.",
    "parrot": "Everyone: Poor Robinson!",
    "no_neighbour": "Nobody else is left.",
    "choice_roll": "Climbs down and rolls.",
    "choice_stay_tree": "Stays in the tree.",
    "choice_again": "Rolls again.",
    "choice_pass": "Does not roll again.",
    "choice_jump": "Sails on.",
    "choice_stay_boat": "Stays.",
    "choice_restart": "Starts again.",
    "choice_stay_wreck": "Stays.",
    "tree": "You may stay here on later turns.",
    "roll_again": "A five sends you back to 14.",
    "jump": "You may sail on with the canoe.",
    "gallows": "A six here kills you.",
    "shipwreck": "Shipwrecked!",
    "shipwreck_off": "You stay here.",
    "turn": "{name:gen} turn.",
    "decide": "{name}: short {short}, long {long}.",
    "decides": "{name} decides.",  # another player decides: their options with their screen
    "decide_own": "Short {short}, long {long}.",  # the mover decides: the name was just said
    "setup": "{first} starts; press long to begin.",
    "setup_need": "Switch on the seats of at least two players.",
    "resume": "Welcome back. {names} are playing.",
    "resume_one": "Welcome back. {names} plays on alone.",  # one player left in the game
    "resume_none": "Welcome back.",  # nobody left: the game ended with no winner
    "begin": "The game begins.",
    "voice_on": "Voice on.",
    "story_on": "Storyteller on.",
    "story_off": "Storyteller off.",
    "odds_on": "Odds on.",
    "odds_off": "Odds off.",
    "odds": "Chance to win: {short}, {a} percent; {long}, {b} percent.",
}
