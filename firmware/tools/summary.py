"""A game as the JSON object that ``robinson replay --json`` and ``robinson state --json`` print."""

from __future__ import annotations

from typing import Any

from robinson_core import Game


def summary(game: Game) -> dict[str, Any]:
    """The contract's keys (status, winner, pot, to_move, players) plus rules and actions."""
    state = game.state
    return {
        "status": state.status.value,
        "winner": state.winner,
        "pot": state.pot,
        "to_move": state.to_move,
        "players": [
            {"seat": p.seat, "position": p.position, "chips": p.chips, "active": p.active,
             "friday": p.friday, "sits_out": p.sits_out}
            for p in state.players
        ],
        "rules": game.rules.as_strings(),
        "actions": [a.token for a in game.actions],
    }


def replay_args(game: Game) -> list[str]:
    """The ``robinson replay`` arguments that reproduce ``game`` exactly."""
    args = ["--seats", ",".join(map(str, game.seats)), "--first", str(game.first)]
    for name, value in game.rules.changed().items():
        args += ["--rule", f"{name}={value}"]
    return args + ["--script", " ".join(a.token for a in game.actions)]
