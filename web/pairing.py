"""Pairing a phone with the code on the device, taking a seat, and forgetting the pairing."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, session

from web.context import shared, table
from web.phones import (
    WebError,
    changes_game,
    check_code,
    check_csrf,
    csrf_token,
    json_body,
    keep_seat,
    my_seat,
    phone_id,
    unpair_this_phone,
)

bp = Blueprint("pairing", __name__, url_prefix="/api")


def _take_seat(seat: Any) -> None:
    pegpi = shared()
    if seat is None:
        pegpi.seats.release(phone_id())
        session.pop("seat", None)
        return
    players = pegpi.service.view(None).to_json().get("players") or []
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
        raise WebError(400, f"Choose a seat from 1 to {len(players)}, or watch without one.")
    if not pegpi.seats.take(seat, phone_id()):
        raise WebError(409, f"{players[seat]}'s seat is taken by another phone.")
    keep_seat(seat)


def _me() -> Response:
    return jsonify(paired=True, seat=my_seat(), csrf=csrf_token(),
                   view=table().view(my_seat()).to_json())


@bp.post("/pair")
def pair() -> Response:
    check_csrf()
    data = json_body()
    check_code(data.get("code"))
    session.permanent = True
    if "seat" in data:
        _take_seat(data["seat"])
    return _me()


@bp.post("/seat")
@changes_game
def seat() -> Response:
    data = json_body()
    if "seat" not in data:
        raise WebError(400, "Say which seat: a number, or null to watch.")
    _take_seat(data["seat"])
    return _me()


@bp.post("/unpair")
def unpair() -> Response:
    check_csrf()
    unpair_this_phone()
    return jsonify(paired=False, seat=None, csrf=csrf_token())
