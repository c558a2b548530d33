"""Live updates by Server-Sent Events: each phone gets its own seat's view after every change."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, request

from web.context import shared
from web.phones import WebError, my_seat, seat_guard

bp = Blueprint("stream", __name__, url_prefix="/api")


@bp.get("/stream")
def stream() -> Response:
    seat = my_seat()  # read now: the stream outlives the request's session
    parts = shared()
    release = parts.streams.take(request.remote_addr or "?")
    if release is None:
        raise WebError(503, "Too many live boards are open: close one, or wait a little.", retry_after=10)
    # waitress tells a running response that its phone hung up (with channel_request_lookahead)
    gone: Callable[[], bool] = request.environ.get("waitress.client_disconnected") or (lambda: False)
    hub = parts.hub
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
