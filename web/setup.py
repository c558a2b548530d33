"""Setting up: start a new game (ending the current one) from the registry, and the mat it needs."""

from __future__ import annotations

import functools
import io

from flask import Blueprint, Response, jsonify

from games import get_game
from games.errors import PegpiError
from web.context import shared
from web.phones import WebError, changes_game, json_body, my_seat

bp = Blueprint("setup", __name__, url_prefix="/api")

#: the mat's resolution: on the phone's screen, and for the printer (about 200 dpi)
MAT_PX_PER_MM = {"png": 2.0, "pdf": 8.0}


@bp.get("/mat/<game>/<int:seats>.<kind>")
def mat(game: str, seats: int, kind: str) -> Response:
    """The printed mat a game is played on at ``seats`` seats: a PNG to look at, a PDF to print
    at true scale (the paper it needs is in the file name)."""
    if kind not in MAT_PX_PER_MM:
        raise WebError(404, "A mat is a .png (to look at) or a .pdf (to print).")
    try:
        spec = get_game(game).spec
    except PegpiError as exc:
        raise WebError(404, str(exc)) from None
    if seats not in spec.players:
        raise WebError(404, f"{spec.title} is played by {', '.join(map(str, spec.players))} players, not {seats}.")
    try:
        body, paper = _mat_file(spec.name, seats, kind)
    except PegpiError as exc:
        raise WebError(404, f"{spec.title} has no printed mat: {exc}") from None
    name = f"pegpi-mat-{spec.name}-{seats}-{paper}.{kind}"
    return Response(body, mimetype="image/png" if kind == "png" else "application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{name}"', "Cache-Control": "max-age=3600"})


@functools.lru_cache(maxsize=8)
def _mat_file(game: str, seats: int, kind: str) -> tuple[bytes, str]:
    """The mat's file and its paper (drawn once: a PDF for print takes a few seconds on a Pi)."""
    from PIL import Image

    from vision.mat import layout_for
    from vision.mat_print import render_mat

    spec = get_game(game).spec
    layout = layout_for(spec.table, seats)
    px = MAT_PX_PER_MM[kind]
    image = Image.fromarray(render_mat(layout, spec.title, px)[..., ::-1])
    out = io.BytesIO()
    dpi = px * 25.4
    if kind == "pdf":
        image.save(out, "PDF", resolution=dpi)
    else:
        image.save(out, "PNG", dpi=(dpi, dpi))
    return out.getvalue(), layout.paper


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
