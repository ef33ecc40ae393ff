"""The table's settings: one TOML file, validated whole before anything starts.

Every key has a built-in default; an unknown key or a bad value stops the app with one
ConfigError naming the file, the key and what is allowed. The rooms: what the settings
are (``settings``), how a file of them is found and read so that nothing in it can hang
the table (``file``), every key checked into them (``reading``), and what a paired phone
may change of them, kept in the state folder (``phone``). Which pin does what is the
wiring's (``firmware.wiring``); which sound device plays, the sound cards'
(``firmware.runtime.soundcards``).
"""
