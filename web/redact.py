"""What a phone may read of the action list: other seats' hidden cards are taken out.

Views come from the engine, which already hides what a seat may not see. The history and the
exported record are made of *actions*, and three kinds of action can hold a secret: a deal with
known ``hands``, a discard that names the cards laid away to the crib (entered on a phone because
the camera cannot see them) and New Eleusis' ``rule`` (God's). A phone sees those only for its
own seat.
"""

from __future__ import annotations

from games.jsontypes import JSONObject


def redact_action(action: JSONObject, seat: int | None) -> JSONObject:
    act = action.get("act")
    out = dict(action)
    if act == "deal" and out.get("hands") is not None:
        hands = out["hands"]
        out["hands"] = [h if i == seat else None for i, h in enumerate(hands)] if isinstance(hands, list) else None
        if not any(h is not None for h in out["hands"] or []):
            out.pop("hands")
        out["hidden"] = True
    elif act == "discard" and out.get("cards") is not None and out.get("player") != seat:
        cards = out.pop("cards")
        out["hidden"] = len(cards) if isinstance(cards, list) else True
    elif act == "rule" and out.get("rule") is not None and out.get("player") != seat:
        out.pop("rule")  # God's secret rule (New Eleusis): only God's phone reads it
        out["hidden"] = True
    return out


def has_hidden(actions: list[JSONObject]) -> bool:
    """Does an action list hold any card a seat keeps hidden?"""
    return any(redact_action(a, None) != a for a in actions)


def redact_history(entries: list[JSONObject], seat: int | None) -> list[JSONObject]:
    return [{**e, "action": redact_action(e.get("action") or {}, seat)} for e in entries]
