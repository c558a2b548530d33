"""The JSON API of views: the board, this phone, the history, the games, the record."""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify

from web.context import table
from web.phones import WebError, csrf_token, is_paired, my_seat
from web.redact import has_hidden, redact_history

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/view")
def view() -> Response:
    return jsonify(table().view(my_seat()).to_json())


@bp.get("/me")
def me() -> Response:
    return jsonify(paired=is_paired(), seat=my_seat(), csrf=csrf_token())


@bp.get("/history")
def history() -> Response:
    return jsonify(history=redact_history([e.to_json() for e in table().history()], my_seat()))


@bp.get("/games")
def games() -> Response:
    return jsonify(games=table().games())


@bp.get("/export")
def export() -> Response:
    if not is_paired():
        raise WebError(403, "Pair this phone first: the game record is for the players.")
    service = table()
    record = service.export()
    over = service.view(None).to_json().get("phase") == "over"
    if not over and has_hidden(list(record.get("actions") or [])):
        raise WebError(409, "The record holds cards still hidden in players' hands: "
                            "export it when the game is over.")
    body = json.dumps(record, indent=1)
    name = f"pegpi-{record.get('game', 'game')}.json"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
