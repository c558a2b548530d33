"""The board page: one HTML page that every phone opens; the rest is drawn from the JSON views."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

from web.phones import csrf_token

bp = Blueprint("pages", __name__)


@bp.get("/")
def board() -> str:
    return render_template("board.html", csrf=csrf_token(),
                           camera_refresh=current_app.config["CAMERA_REFRESH_MS"])
