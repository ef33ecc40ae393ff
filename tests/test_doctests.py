"""The examples in the modules' docstrings are run: a docstring that shows what a call
gives must still give it (four had gone stale unseen: the voice, the menu, a name)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import firmware
import robinson_core


def test_every_example_in_a_docstring_still_holds() -> None:
    tried = failed = 0
    modules = 0
    for package in (firmware, robinson_core):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.startswith("firmware.tools.") or info.name.endswith("__main__"):
                continue  # tools run as programs; their examples are command lines
            module = importlib.import_module(info.name)
            result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
            tried += result.attempted
            failed += result.failed
            modules += 1
    assert failed == 0 and tried >= 60 and modules >= 85, (failed, tried, modules)
