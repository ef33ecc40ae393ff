"""``robinson names``: the players' names the table keeps, set from the command line
(through the running table's seam when one holds the folder)."""

from __future__ import annotations

import argparse
from pathlib import Path

from firmware.commands import say
from firmware.errors import UsageError
from firmware.saves.folder import state_dir
from firmware.saves.store import Store
from firmware.table.prefs import PREF_KEYS
from robinson_core import (
    SEATS,
)
from robinson_core.errors import quote
from robinson_core.narrate import seat_names
from robinson_core.numbers import whole_number


def run_names(args: argparse.Namespace) -> int:
    from firmware.revision import on_raspberry_pi
    from firmware.table import names

    given: dict[int, str] = {}
    for text in args.names:
        seat, equals, name = text.partition("=")
        number = whole_number(seat)
        if not equals or number is None:
            raise UsageError(f"give names as SEAT=NAME, e.g. 1=Ana, not {quote(text)}")
        if why := names.problem(number, name):
            raise UsageError(why)
        given[number] = name
    changing = bool(given) or args.clear
    directory = state_dir(args.state_dir, on_raspberry_pi())
    if changing and (answer := names_to_the_table(directory, given, args.clear)) is not None:
        return answer
    store = Store(directory, read_only=not changing,  # listing them makes and moves nothing
                  pref_keys=PREF_KEYS)
    if changing:
        store.lock()  # not beside a running table: it would not see them until it starts
    try:
        kept, wrong = names.from_pref(store.prefs().get(names.PREF, ""))
        for why in wrong:
            say(f"robinson names: left out: {why}")
        now = dict(names.merged(kept, given, args.clear))
        if changing:
            store.save_prefs({names.PREF: names.to_pref(tuple(now.items()))})
    except OSError as error:
        raise UsageError(f"cannot save in {store.directory}: {error.strerror}") from None
    finally:
        store.close()
        store.unlock()
    for seat, name in sorted(now.items()):
        print(f"{seat}  {name}")
    if not now:
        print(f"no names kept: the config's [table] seat_names, else {seat_names(args.lang)(1)}, "
              f"{seat_names(args.lang)(2)} …")
    if changing:
        print("the table shows them from its next start")
    return 0


def names_to_the_table(directory: Path, given: dict[int, str], clear: bool) -> int | None:
    """The names through the seam of the table that runs on ``directory`` (it keeps them,
    and shows them at once); None if no table runs there."""
    from firmware.seam.client import ask

    names = {str(seat): "" for seat in SEATS} if clear else {}
    names.update({str(seat): name for seat, name in given.items()})
    answer = ask(directory, "names", names=names)
    if answer is None:
        return None
    why, view = answer
    if why is not None:
        raise UsageError(f"the table refused the names: {why}")
    now = (view or {}).get("given") or {}
    for seat, name in sorted(now.items(), key=lambda item: int(item[0])):
        print(f"{seat}  {name}")
    if not now:
        print("no names kept: the default names")
    print("the table shows them now")
    return 0
