"""The JSON API of views: the board, this phone, the history, the games, the record."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from web.phones import WebError, csrf_token, is_paired, my_seat
from web.redact import has_hidden, redact_history

bp = Blueprint("api", __name__, url_prefix="/api")


def service() -> Any:
    return current_app.extensions["pegpi"].service


@bp.get("/view")
def view() -> Response:
    return jsonify(service().view(my_seat()))


@bp.get("/me")
def me() -> Response:
    return jsonify(paired=is_paired(), seat=my_seat(), csrf=csrf_token())


@bp.get("/history")
def history() -> Response:
    return jsonify(history=redact_history([_entry(e) for e in service().history()], my_seat()))


def _entry(entry: dict[str, Any]) -> dict[str, Any]:
    """One history entry in one shape: ``points`` a number, ``scores`` what was scored and why
    (a service may give ``points`` as the list of its score events)."""
    points = entry.get("points")
    scores = entry.get("scores")
    if isinstance(points, list):
        scores, points = points, sum(int(e.get("points", 0)) for e in points if isinstance(e, dict))
    scores = [
        {"side": e.get("side", e.get("player")), "seat": e.get("seat"), "points": e.get("points", 0),
         "kind": e.get("kind"), "say": e.get("say", ""), "cards": e.get("cards") or []}
        for e in scores or [] if isinstance(e, dict)
    ]
    return {"index": entry.get("index"), "action": entry.get("action") or {}, "source": entry.get("source"),
            "corrected": bool(entry.get("corrected")), "points": points or 0, "scores": scores}


@bp.get("/games")
def games() -> Response:
    return jsonify(games=service().games())


@bp.get("/export")
def export() -> Response:
    if not is_paired():
        raise WebError(403, "Pair this phone first: the game record is for the players.")
    record = service().export()
    over = service().view(None).get("phase") == "over"
    if not over and has_hidden(list(record.get("actions") or [])):
        raise WebError(409, "The record holds cards still hidden in players' hands: "
                            "export it when the game is over.")
    body = json.dumps(record, indent=1)
    name = f"pegpi-{record.get('game', 'game')}.json"
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})

