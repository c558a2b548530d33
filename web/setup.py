"""Setting up: start a new game (ending the current one) from the registry."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from web.context import shared
from web.phones import WebError, changes_game, json_body, my_seat

bp = Blueprint("setup", __name__, url_prefix="/api")


@bp.post("/new")
@changes_game
def new() -> Response:
    data = json_body()
    game = data.get("game")
    players = data.get("players")
    options = data.get("options", {})
    if not isinstance(game, str) or not game.strip():
        raise WebError(400, "Choose a game.")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise WebError(400, "Give the players' names as a list.")
    names = [p.strip() for p in players]
    if any(not n for n in names):
        raise WebError(400, "Every player needs a name.")
    if any(len(n) > 24 for n in names):
        raise WebError(400, "Keep names to 24 letters or fewer.")
    if len(set(names)) != len(names):
        raise WebError(400, "Give every player a different name.")
    if not isinstance(options, dict):
        raise WebError(400, "Options are an object of names and values.")
    pegpi = shared()
    pegpi.service.new_game(game.strip(), names, options)
    pegpi.seats.clear()  # a new table: phones choose their seats again
    return jsonify(view=pegpi.service.view(my_seat()).to_json())
