"""What a phone may read of the action list: other seats' hidden cards are taken out.

Views come from the engine, which already hides what a seat may not see. The history and the
exported record are made of *actions*, and some can hold hidden cards: a deal with known
``hands``, and the cards one player keeps face down, entered on that player's phone (the cards
laid away to the crib, a hand entered in a trick game, Bourré's discards and draws, the cards
laid away with Briscola's monte, the card a Gin Rummy player draws from the stock, a Skull card
laid face down or lost) and New Eleusis' ``rule`` (God's). A phone sees those only for its own
seat; the cards a deal puts face down in the middle (Fight the Landlord's three) it does not see
at all.
"""

from __future__ import annotations

from games.jsontypes import JSONObject

#: The fields of a player's action that name cards only that player may see.
PRIVATE: dict[str, tuple[str, ...]] = {
    "discard": ("cards",), "hand": ("cards",), "draw": ("cards", "drawn", "card"), "monte": ("cards",),
    "rule": ("rule",), "lay": ("card",), "lose": ("card",),
}


def redact_action(action: JSONObject, seat: int | None) -> JSONObject:
    act = action.get("act")
    out = dict(action)
    if act == "deal" and (out.get("hands") is not None or out.get("cards") is not None):
        hands = out.get("hands")
        out["hands"] = [h if i == seat else None for i, h in enumerate(hands)] if isinstance(hands, list) else None
        if not any(h is not None for h in out["hands"] or []):
            out.pop("hands")
        out.pop("cards", None)
        out["hidden"] = True
    elif isinstance(act, str) and act in PRIVATE and out.get("player") != seat:
        for key in PRIVATE[act]:
            cards = out.pop(key, None)
            if cards is not None and "hidden" not in out:
                out["hidden"] = len(cards) if isinstance(cards, list) else True
    return out


def has_hidden(actions: list[JSONObject]) -> bool:
    """Does an action list hold any card a seat keeps hidden?"""
    return any(redact_action(a, None) != a for a in actions)


def redact_history(entries: list[JSONObject], seat: int | None) -> list[JSONObject]:
    return [{**e, "action": redact_action(e.get("action") or {}, seat)} for e in entries]
