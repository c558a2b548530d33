"""What every blueprint of the phone page shares: the table's service, the hub of live streams,
the paired seats, the wrong-code limits and the open streams, kept at ``app.extensions["pegpi"]``."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from device.service import EnrolmentService, TableService
from web.hub import Hub
from web.limits import StreamSlots
from web.phones import Seats, WrongCodes


@dataclass
class Pegpi:
    """What the blueprints share, at ``app.extensions["pegpi"]``."""

    service: TableService
    hub: Hub
    seats: Seats
    wrong_codes: WrongCodes
    streams: StreamSlots  # the open event streams, capped in all and per address
    enrolment: EnrolmentService | None = None  # teaching the card model a deck (None: not here)


def shared() -> Pegpi:
    """This app's shared parts (inside a request or an app context)."""
    pegpi = current_app.extensions["pegpi"]
    assert isinstance(pegpi, Pegpi)
    return pegpi


def table() -> TableService:
    """The table this app serves (inside a request or an app context)."""
    return shared().service
