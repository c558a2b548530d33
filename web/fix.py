"""Corrections and entries from a paired phone: an action, undo, a corrected action, confirm."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from games.errors import PegpiError
from web.phones import WebError, changes_game, json_body, my_seat

bp = Blueprint("fix", __name__, url_prefix="/api")


def _action(data: dict[str, Any]) -> dict[str, Any]:
    action = data.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("act"), str):
        raise WebError(400, 'Send the action as {"action": {"act": "play", "player": 0, "card": "7H"}}.')
    return action


def _then_view(change: Callable[[Any], Any]) -> Response:
    """Make the change, then answer with this phone's own view (never the one the service
    returned, which may be for another seat)."""
    service = current_app.extensions["pegpi"].service
    try:
        change(service)
    except PegpiError:
        raise
    except (ValueError, LookupError, TypeError) as exc:
        raise WebError(400, str(exc) or "The table refused that.") from exc
    return jsonify(view=service.view(my_seat()))


@bp.post("/action")
@changes_game
def action() -> Response:
    act = _action(json_body())
    return _then_view(lambda s: s.submit(act, source="phone"))


@bp.post("/undo")
@changes_game
def undo() -> Response:
    return _then_view(lambda s: s.undo(source="phone"))


@bp.post("/correct")
@changes_game
def correct() -> Response:
    data = json_body()
    index = data.get("index")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise WebError(400, "Say which action to correct by its number in the history.")
    act = _action(data)
    return _then_view(lambda s: s.correct(index, act, source="phone"))


@bp.post("/confirm")
@changes_game
def confirm() -> Response:
    return _then_view(lambda s: s.confirm(source="phone"))


@bp.post("/resolve")
@changes_game
def resolve() -> Response:
    """The card the device asks about (a card it could not read surely) is really this one."""
    card = json_body().get("card")
    if not isinstance(card, str) or not card.strip():
        raise WebError(400, "Tap the card it really is.")
    service = current_app.extensions["pegpi"].service
    if not callable(getattr(service, "resolve", None)):
        raise WebError(409, "The device is not asking about any card.")
    return _then_view(lambda s: s.resolve(card.strip(), source="phone"))
