"""Corrections and entries from a paired phone: an action, undo, a corrected action, OK, the card
the device asks about. Each answers with this phone's own view (never the one the service
returned, which is the spectators')."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from games.jsontypes import JSONObject
from web.context import table
from web.phones import WebError, changes_game, json_body, my_seat

bp = Blueprint("fix", __name__, url_prefix="/api")


def _action(data: JSONObject) -> JSONObject:
    action = data.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("act"), str):
        raise WebError(400, 'Send the action as {"action": {"act": "play", "player": 0, "card": "7H"}}.')
    return action


def _my_view() -> Response:
    return jsonify(view=table().view(my_seat()).to_json())


@bp.post("/action")
@changes_game
def action() -> Response:
    table().submit(_action(json_body()), source="phone")
    return _my_view()


@bp.post("/undo")
@changes_game
def undo() -> Response:
    table().undo(source="phone")
    return _my_view()


@bp.post("/correct")
@changes_game
def correct() -> Response:
    data = json_body()
    index = data.get("index")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise WebError(400, "Say which action to correct by its number in the history.")
    table().correct(index, _action(data), source="phone")
    return _my_view()


@bp.post("/confirm")
@changes_game
def confirm() -> Response:
    table().confirm(source="phone")
    return _my_view()


@bp.post("/resolve")
@changes_game
def resolve() -> Response:
    """The card the device asks about (a card it could not read surely) is really this one."""
    card = json_body().get("card")
    if not isinstance(card, str) or not card.strip():
        raise WebError(400, "Tap the card it really is.")
    table().resolve(card.strip(), source="phone")
    return _my_view()
