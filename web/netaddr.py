"""The addresses a phone on the table's network can open, for the banner, the page and the OLED.

A server listening on every interface (0.0.0.0) is reached by the table's LAN addresses, never
by ``localhost``, which on a phone is the phone itself.
"""

from __future__ import annotations

import ipaddress
import socket

EVERYWHERE = ("0.0.0.0", "::", "")


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that another device could reach, the usual route's first.
    Nothing is sent: connecting a UDP socket only picks the interface a packet would leave by."""
    found: list[str] = []
    for probe in ("192.0.2.1", "10.255.255.255"):  # TEST-NET-1 and a private address: never sent to
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                found.append(sock.getsockname()[0])
        except OSError:
            continue
    try:
        found.extend(str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET))
    except OSError:
        pass
    return list(dict.fromkeys(a for a in found if _usable(a)))


def url_for(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def phone_urls(host: str, port: int, addresses: list[str] | None = None) -> list[str]:
    """Where phones open the page served at ``host``:``port``: the LAN addresses when it listens
    everywhere (``localhost`` only when the machine has no network at all)."""
    if host not in EVERYWHERE:
        return [url_for(host, port)]
    found = lan_addresses() if addresses is None else addresses
    return [url_for(a, port) for a in found] or [url_for("localhost", port)]


def pairing_url(url: str, code: str) -> str:
    """The page's address with the pairing code in it: the page opens its Pair dialog filled in."""
    return f"{url.split('#', 1)[0]}#pair={code}"
