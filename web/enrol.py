"""Teaching the device a deck from a phone: the enrolment page and its JSON API. Anyone may see
where it stands; starting, confirming a batch, finishing and cancelling need a paired phone."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from device.service import EnrolmentService, EnrolmentStatus
from web.context import shared
from web.phones import WebError, changes_game, csrf_token, is_paired, json_body

bp = Blueprint("enrol", __name__)

#: the most outlines a batch may name (the wizard checks each against its own mat)
MAX_OUTLINES = 64


def _enrolment() -> EnrolmentService:
    service = shared().enrolment
    if service is None:
        raise WebError(404, "This device cannot learn decks: it has no card model.")
    return service


def _answer(status: EnrolmentStatus) -> Response:
    return jsonify(enrolment=status.to_json(), paired=is_paired())


@bp.get("/enrol")
def page() -> str:
    return render_template("enrol.html", csrf=csrf_token())


@bp.get("/api/enrol")
def status() -> Response:
    return _answer(_enrolment().status())


@bp.get("/api/enrol/crop/<int:outline>.jpg")
def crop(outline: int) -> Response:
    jpeg = _enrolment().crop_jpeg(outline)
    if not jpeg:
        raise WebError(404, f"No card lies on outline {outline}.")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/api/enrol/start")
@changes_game
def start() -> Response:
    data = json_body()
    deck, cards, order = data.get("deck"), data.get("cards", "standard"), data.get("order", "given")
    if not isinstance(deck, str) or not deck.strip():
        raise WebError(400, "Give the deck a name.")
    if not isinstance(cards, str) or not isinstance(order, str):
        raise WebError(400, 'Say which cards as {"cards": "standard", "order": "given"}.')
    return _answer(_enrolment().start(deck.strip(), cards=cards, order=order))


@bp.post("/api/enrol/confirm")
@changes_game
def confirm() -> Response:
    raw = json_body().get("names")
    if not isinstance(raw, dict) or len(raw) > MAX_OUTLINES:
        raise WebError(400, 'Send the names by outline, as {"names": {"1": "AS", "2": "2S"}}.')
    names: dict[int, str] = {}
    for key, value in raw.items():
        # outline numbers in ASCII digits ("²" is a digit to Python, not to int()), a few at most
        if not (key.isascii() and key.isdigit() and len(key) <= 4) or not isinstance(value, str):
            shown = key if len(key) <= 8 else key[:8] + "..."
            raise WebError(400, f'Name outline {shown!r} with text, as {{"names": {{"1": "AS"}}}}.')
        names[int(key)] = value
    return _answer(_enrolment().confirm(names))


@bp.post("/api/enrol/finish")
@changes_game
def finish() -> Response:
    return _answer(_enrolment().finish())


@bp.post("/api/enrol/cancel")
@changes_game
def cancel() -> Response:
    return _answer(_enrolment().cancel())
