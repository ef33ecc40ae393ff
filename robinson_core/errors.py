"""One exception tree for every kind of misuse of the engine.

Each is a ``ValueError``: the caller handed the engine something it cannot
take, and the message says what was wrong and what is allowed.
"""


class RobinsonError(ValueError):
    """Base of every error the engine raises on bad input."""


class BoardError(RobinsonError):
    """The board table contradicts itself (a bug in the data, found at import)."""


class HouseRuleError(RobinsonError):
    """An unknown house rule, or a value it does not allow."""


class SetupError(RobinsonError):
    """Seats or the first seat do not make a game."""


class IllegalActionError(RobinsonError):
    """The game cannot take that action in the state it is in."""


class ScriptError(RobinsonError):
    """A token of a replay script is unknown or does not fit the game there.

    ``index`` is the 1-based position of the token in the script.
    """

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


class LanguageError(RobinsonError):
    """A language code the table has no texts for."""


class SaveError(RobinsonError):
    """A saved game cannot be read back: damaged, tampered with, or too new."""


def quote(text: str, limit: int = 20) -> str:
    """``text`` quoted for a message, cut short if long: a message stays one readable line.

    >>> quote("banana"), quote("1" * 5000)
    ("'banana'", "'111111111111…' (5000 characters)")
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit - 8]!r}"[:-1] + f"…' ({len(text)} characters)"
