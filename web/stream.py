"""Live updates by Server-Sent Events: each phone gets its own seat's view after every change."""

from __future__ import annotations

from flask import Blueprint, Response

from web.context import shared
from web.phones import my_seat, seat_guard

bp = Blueprint("stream", __name__, url_prefix="/api")


@bp.get("/stream")
def stream() -> Response:
    seat = my_seat()  # read now: the stream outlives the request's session
    hub = shared().hub
    return Response(
        hub.listen(seat, seat_guard(seat)),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
