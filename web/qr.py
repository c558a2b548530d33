"""The table's address for phones, as links and QR codes: ``GET /api/address``.

Every phone gets the page's address (to show another player); a paired phone also gets the
address with the pairing code in it, which pairs the phone that opens it (after it picks a seat).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, jsonify, request

from web.context import table
from web.netaddr import pairing_url, phone_urls
from web.phones import is_paired

bp = Blueprint("address", __name__, url_prefix="/api")


def svg_uri(data: str) -> str:
    """A QR code of ``data`` as an SVG data: URI (the page's CSP allows data: images), with the
    four-module quiet zone the QR standard asks for: a narrower one fails some phones' readers."""
    import segno

    return str(segno.make(data, error="m", micro=False).svg_data_uri(scale=4, border=4))


def page_urls() -> list[str]:
    """The addresses another phone can open: the one this phone used, unless that is this machine
    only (localhost), when the table's LAN addresses stand in."""
    here = urlsplit(request.host_url)
    host, port = here.hostname or "", here.port or 80
    if host in ("localhost", "127.0.0.1", "::1") or host.startswith("127."):
        return phone_urls("0.0.0.0", port)
    return [request.host_url]


@bp.get("/address")
def address() -> Response:
    urls = page_urls()
    body: dict[str, object] = {"urls": urls, "qr": svg_uri(urls[0])}
    if is_paired():
        link = pairing_url(urls[0], table().pairing_code)
        body.update(pair_url=link, pair_qr=svg_uri(link))
    return jsonify(body)
