"""Why a card of the hand cannot be played now: the engine's refusal of it, for the card help at the table.

Only for the seat whose play it is, with no coup-fourré window open: then the game is the one the seat sees, and a
refusal names nothing but its own cards and the public tableaux.  A hazard is judged against the first opponent
after the seat's side; the page says the reason in words (``reason.*``), as it does a refused move.
"""

from __future__ import annotations

from ...actions import ACTION_CODES
from ...cards import GROUP, HAZARD, KIND_OF
from ...state import Game


def refusals(game: Game, seat: int) -> list[dict | None] | None:
    """For each card of ``seat``'s hand, None when it can be played somewhere, else ``{"reason", "params"}``;
    None when the seat is not choosing a card to play."""
    if game.is_over or game.to_act != seat or game.decision != "play":
        return None
    legal = game.legal_actions()
    opponent = (game.side_of(seat) + 1) % game.nsides
    out: list[dict | None] = []
    for card in game.hand(seat):
        if any(a == f"play {card}" or a.startswith(f"play {card} ") for a in legal):
            out.append(None)
            continue
        action = f"play {card} {opponent}" if GROUP[KIND_OF[card]] == HAZARD else f"play {card}"
        exc = game.refusal(ACTION_CODES[action])
        out.append({"reason": exc.reason, "params": exc.params})
    return out
