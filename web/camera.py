"""What the camera sees: a recent frame with the mat, zones and recognised cards drawn on it."""

from __future__ import annotations

from flask import Blueprint, Response

from web.context import table
from web.phones import WebError

bp = Blueprint("camera", __name__)


@bp.get("/camera.jpg")
def frame() -> Response:
    jpeg = table().camera_frame()
    if not jpeg:
        raise WebError(404, "No camera: enter the cards by tapping them on the Fix page.")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
