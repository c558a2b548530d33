"""Phones find the table: its LAN addresses (never localhost), and QR codes of the address and
of the address with the pairing code, on the page, in the terminal and on the OLED."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image

from device.board.qr import qr_text, render_qr
from device.replay import ReplaySession
from pegpi.banner import banner
from web import create_app
from web.netaddr import lan_addresses, pairing_url, phone_urls


def decode(image: Image.Image, scale: int = 4) -> str:
    """What a QR reader (OpenCV's) finds in ``image``, drawn as light modules on a dark margin."""
    pixels = np.array(image.convert("L"))
    pixels = np.kron(pixels, np.ones((scale, scale), dtype=np.uint8))
    pixels = cv2.copyMakeBorder(pixels, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(pixels)
    return str(text)


def test_phones_are_given_lan_addresses_never_localhost() -> None:
    assert phone_urls("0.0.0.0", 8080, ["192.168.1.20", "10.0.0.5"]) == [
        "http://192.168.1.20:8080/", "http://10.0.0.5:8080/"]
    assert phone_urls("192.168.1.20", 8080, []) == ["http://192.168.1.20:8080/"]
    assert phone_urls("0.0.0.0", 8080, []) == ["http://localhost:8080/"]  # no network at all
    assert all(not a.startswith("127.") for a in lan_addresses())


def test_the_pairing_link_holds_the_code() -> None:
    assert pairing_url("http://192.168.1.20:8080/", "ACE34") == "http://192.168.1.20:8080/#pair=ACE34"


def test_the_terminal_shows_the_addresses_and_a_qr_code_that_scans() -> None:
    text = banner("pegpi", ["http://192.168.1.20:8080/"], "ACE34")
    first, *rows = text.splitlines()
    assert first == "pegpi: phones: open http://192.168.1.20:8080/  pairing code: ACE34"
    # each character is two modules tall: a full block is light above and below
    light = {"\u2588": (255, 255), "\u2580": (255, 0), "\u2584": (0, 255), " ": (0, 0)}
    picture = Image.new("L", (len(rows[0]), 2 * len(rows)))
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            top, bottom = light[char]
            picture.putpixel((x, 2 * y), top)
            picture.putpixel((x, 2 * y + 1), bottom)
    assert decode(picture) == "http://192.168.1.20:8080/#pair=ACE34"
    assert qr_text("x") != qr_text("y")


@pytest.mark.parametrize("size", [(128, 64), (256, 64)])
def test_the_oled_qr_code_scans(size: tuple[int, int]) -> None:
    link = "http://192.168.100.200:8080/#pair=ACE34"
    image = render_qr(link, size, lines=["Scan to pair", "ACE34"])
    assert image.size == size
    assert decode(image) == link


def test_the_page_gives_its_address_and_a_paired_phone_the_pairing_link(monkeypatch: Any) -> None:
    monkeypatch.setattr("web.netaddr.lan_addresses", lambda: ["192.168.1.20"])
    app = create_app({"TESTING": True, "SECRET_KEY": "test only"}, service=ReplaySession(pairing_code="1357"))
    phone = app.test_client()
    # opened on the table itself (localhost): the LAN address stands in
    seen = phone.get("/api/address", base_url="http://localhost:8080").get_json()
    assert seen["urls"] == ["http://192.168.1.20:8080/"] and "pair_qr" not in seen
    assert seen["qr"].startswith("data:image/svg+xml")
    # opened from the LAN: the address the phone used
    seen = phone.get("/api/address", base_url="http://192.168.1.77:8080").get_json()
    assert seen["urls"] == ["http://192.168.1.77:8080/"]
    lan = "http://192.168.1.77:8080"
    csrf = phone.get("/api/me", base_url=lan).get_json()["csrf"]
    assert phone.post("/api/pair", json={"code": "1357"}, headers={"X-CSRF-Token": csrf},
                      base_url=lan).status_code == 200
    seen = phone.get("/api/address", base_url="http://192.168.1.77:8080").get_json()
    assert seen["pair_url"] == "http://192.168.1.77:8080/#pair=1357"
    assert seen["pair_qr"].startswith("data:image/svg+xml")
