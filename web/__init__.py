"""pegpi web: the phone page. Every phone at the table watches the board live; a paired phone
can fix mistakes, enter what the camera cannot see and set up the next game.

The app talks to the table only through a :class:`device.service.TableService`, given by
whoever assembles the companion (``pegpi.companion``, ``pegpi web --replay``, the tests).
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from device.service import EnrolmentService, TableService
from games.errors import IllegalActionError, PegpiError
from web import api, camera, enrol, fix, pages, pairing, qr, setup, stream
from web.context import Pegpi, shared, table
from web.hub import Hub
from web.limits import STREAMS_MAX, STREAMS_PER_ADDRESS, StreamSlots
from web.phones import Seats, WebError, WrongCodes

__all__ = ["CSP", "DEFAULTS", "create_app", "shared", "table"]

DEFAULTS: dict[str, Any] = {
    "SESSION_COOKIE_NAME": "pegpi",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "PERMANENT_SESSION_LIFETIME": 12 * 3600,
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "PAIR_TRIES": 5,  # wrong codes an address may try per window
    "PAIR_TRIES_ALL": 30,  # wrong codes from everybody per window
    "PAIR_WINDOW": 60.0,  # seconds
    "SSE_KEEPALIVE": 15.0,  # seconds between comment lines on a quiet stream
    "SSE_RETRY_MS": 1500,  # how soon a phone reconnects
    "STREAMS_MAX": STREAMS_MAX,  # open event streams in all (the server gets more threads)
    "STREAMS_PER_ADDRESS": STREAMS_PER_ADDRESS,  # open event streams from one address
    "CAMERA_REFRESH_MS": 1500,
}

CSP = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def create_app(test_config: dict[str, Any] | None = None, *, service: TableService,
               enrolment: EnrolmentService | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS, SECRET_KEY=secrets.token_hex(32))
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.extensions["pegpi"] = Pegpi(
        service=service,
        hub=Hub(service, keepalive=app.config["SSE_KEEPALIVE"], retry_ms=app.config["SSE_RETRY_MS"]),
        seats=Seats(),
        wrong_codes=WrongCodes(app.config["PAIR_TRIES"], app.config["PAIR_TRIES_ALL"],
                               app.config["PAIR_WINDOW"]),
        streams=StreamSlots(int(app.config["STREAMS_MAX"]), int(app.config["STREAMS_PER_ADDRESS"])),
        enrolment=enrolment,
    )

    for module in (pages, api, stream, pairing, fix, setup, camera, qr, enrol):
        app.register_blueprint(module.bp)
    _errors(app)

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    return app


def _errors(app: Flask) -> None:
    def refuse(status: int, message: str) -> Response:
        response = jsonify(error=message)
        response.status_code = status
        return response

    @app.errorhandler(WebError)
    def web_error(exc: WebError) -> Response:
        response = refuse(exc.status, exc.message)
        if exc.retry_after:
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(IllegalActionError)
    def illegal(exc: IllegalActionError) -> Response:
        return refuse(409, _sentence(str(exc)))

    @app.errorhandler(PegpiError)
    def bad_input(exc: PegpiError) -> Response:
        return refuse(400, _sentence(str(exc)))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response | HTTPException:
        if not request.path.startswith("/api/"):
            return exc
        messages = {
            404: "There is no such page on this device.",
            405: f"{request.method} is not allowed here.",
            413: "That request is too large.",
        }
        return refuse(exc.code or 500, messages.get(exc.code or 0, exc.description or exc.name))


def _sentence(text: str) -> str:
    """The engine's messages are written for players; make each a sentence."""
    text = text.strip()
    return text[:1].upper() + text[1:] if text else "That cannot be done now."
