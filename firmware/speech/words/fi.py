"""Finnish, to be heard."""

EXPAND = ((r"\bR:n\b", "Robinsonin"), (r"\bR:lle\b", "Robinsonille"), (r"\bR\.", "Robinson"),
          (r"\bP\.", "Perjantai"))

SPOKEN = {
    "where": "{name}, {square}.",
    "where_via": "{name}, {via} sitten {n}.",
    "square": "ruutu {n}",
    "start": "lähtö",
    "and": " ja ",
    "comma": ", ",
    "collect_bank": "Ota {amount:chips}.",
    "collect_bank_other": "{name} saa {amount:chips}.",
    "pay_bank": "Maksa {amount:chips}.",
    "pay_bank_other": "{name} maksaa {amount:chips}.",
    "pay_player": "Maksa {amount:chips} {other:all}.",
    "pay_player_other": "{name} maksaa {amount:chips} {other:all}.",
    "pay_you": "{name} maksaa sinulle {amount:chips}.",  # another pays the mover
    "bank_empty": "Kassa on tyhjä.",
    "gets": "{name} saa {amount}.",
    "gets_own": "Saat {amount}.",  # the mover's own change: their name was just said
    "pays": "{name} maksaa {amount}.",
    "pays_own": "Maksat {amount}.",  # the mover's own change
    "everyone_pays": "Kaikki maksavat {amount}.",
    "friday_pays_more": "{name} maksaa Perjantaina vielä {amount}.",  # square 1
    "friday_pays_more_own": "Maksat Perjantaina vielä {amount}.",
    "others_pay": "{name} saa {gain}, kaikki muut maksavat {amount}.",
    "others_pay_own": "Kaikki maksavat sinulle {amount}.",  # the mover gains
    "others_pay_two": "{name} ja {other} saavat kumpikin {gain}, kaikki muut maksavat {amount}.",
    "hanged": "{name} hirtetään: nappula pois laudalta.",
    "dead_chips": "{amount:chips} {name:abl} kassaan.",
    "won": "{name} voittaa: {pot}.",
    "shared": "{other} saa puolet: {amount}.",
    "shared_right": "{other} oikealla saa puolet: {amount}.",
    "shared_left": "{other} vasemmalla saa puolet: {amount}.",
    "shared_right_past": "{other} oikealla saa puolet: {amount}; {dead} pois pelistä.",
    "shared_left_past": "{other} vasemmalla saa puolet: {amount}; {dead} pois pelistä.",
    "shared_runner_up": "{other}, toisena, saa puolet: {amount}.",
    "shared_friday": "Perjantai {other} saa kolmanneksen: {amount}.",
    "no_winner": "Ketään ei ole jäljellä. Kassaan jää {pot}.",
    "will_sit_out": "{name}: seuraava heitto jää väliin.",
    "will_sit_out_own": "Seuraava heittosi jää väliin.",  # the mover: their name was just said
    "sat_out": "{name}: tämä heitto jää väliin.",
    "sat_out_many": "{names}: tämä heitto jää väliin.",  # several in a row: said once
    "friday_sworn": "{friday} on nyt {name:gen} Perjantai.",
    "friday_oath": "{friday} maksaa sinulle {amount} ja on Perjantaisi.",  # 29
    "bond_ended": "{friday} ei ole enää {name:gen} Perjantai.",
    "swapped": "{name} ja {other} vaihtavat paikkaa.",
    "parrot": "Kaikki: Raukka Robinson!",
    "no_neighbour": "Muita ei ole jäljellä.",
    "choice_roll": "Heittää.",
    "choice_stay_tree": "Jää puuhun.",
    "choice_again": "Heittää uudestaan.",
    "choice_pass": "Ei heitä.",
    "choice_jump": "Purjehtii.",
    "choice_stay_boat": "Jää.",
    "choice_restart": "Aloittaa alusta.",
    "choice_stay_wreck": "Jää.",
    "tree": "Saat jäädä tänne seuraavilla vuoroilla.",
    "roll_again": "Vitonen vie takaisin 14:ään.",
    "jump": "Saat purjehtia eteenpäin pirogilla.",
    "gallows": "Kuutonen täällä tappaa.",
    "shipwreck": "Haaksirikko!",
    "shipwreck_off": "Jäät tähän.",
    "turn": "Vuorossa {name}.",
    "decide": "{name}: lyhyt {short}, pitkä {long}.",
    "decides": "{name} päättää.",  # another player decides: their options with their screen
    "decide_own": "Lyhyt {short}, pitkä {long}.",  # the mover decides: the name was just said
    "setup": "Aloittaa {first}, paina pitkään.",
    "setup_need": "Kytke päälle ainakin kahden pelaajan paikat.",
    "resume": "Tervetuloa takaisin. Pelaajat: {names}.",
    "resume_one": "Tervetuloa takaisin. Vain {names} pelaa.",  # one player left in the game
    "resume_none": "Tervetuloa takaisin.",  # nobody left: the game ended with no winner
    "begin": "Peli alkaa.",
    "voice_on": "Ääni päällä.",
    "story_on": "Tarinankertoja päällä.",
    "story_off": "Tarinankertoja pois.",
    "odds_on": "Kertoimet päällä.",
    "odds_off": "Kertoimet pois.",
    "odds": "Voiton mahdollisuus: {short}, {a} prosenttia; {long}, {b} prosenttia.",
}
