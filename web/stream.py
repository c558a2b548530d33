"""Live updates by Server-Sent Events: each phone gets its own seat's view after every change."""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Blueprint, Flask, Response, current_app, request

from web.limits import STREAMS_MAX, STREAMS_PER_ADDRESS, StreamSlots
from web.phones import WebError, my_seat, seat_guard

bp = Blueprint("stream", __name__, url_prefix="/api")
_made = threading.Lock()


def slots(app: Flask) -> StreamSlots:
    """The app's stream counter (made on first use from STREAMS_MAX and STREAMS_PER_ADDRESS)."""
    with _made:
        found = app.extensions.get("pegpi.streams")
        if not isinstance(found, StreamSlots):
            found = app.extensions["pegpi.streams"] = StreamSlots(
                int(app.config.get("STREAMS_MAX", STREAMS_MAX)),
                int(app.config.get("STREAMS_PER_ADDRESS", STREAMS_PER_ADDRESS)))
        return found


@bp.get("/stream")
def stream() -> Response:
    seat = my_seat()  # read now: the stream outlives the request's session
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    release = slots(app).take(request.remote_addr or "?")
    if release is None:
        raise WebError(503, "Too many live boards are open: close one, or wait a little.", retry_after=10)
    # waitress tells a running response that its phone hung up (with channel_request_lookahead)
    gone: Callable[[], bool] = request.environ.get("waitress.client_disconnected") or (lambda: False)
    hub = app.extensions["pegpi"].hub
    try:
        response = Response(
            hub.listen(seat, seat_guard(seat), gone=gone),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
    except BaseException:
        release()
        raise
    response.call_on_close(release)
    return response
