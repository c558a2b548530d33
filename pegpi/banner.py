"""What the terminal shows phones when the table starts: where to open the page, and how to pair."""

from __future__ import annotations

from device.board.qr import qr_text
from web.netaddr import pairing_url


def banner(prefix: str, urls: list[str], code: str) -> str:
    """The addresses, the pairing code, and a QR code that opens the first address with the code
    in it (a phone scans it from the screen or the log)."""
    where = " or ".join(urls)
    return f"{prefix}: phones: open {where}  pairing code: {code}\n{qr_text(pairing_url(urls[0], code))}"
