"""Table protocols: how a game is played on the mat, turning table events into game actions.

A protocol belongs to one :class:`device.session.Session` and is only called with the session's
lock held. It keeps what lies on the mat and, when it is unsure (a card read with low confidence,
a card it cannot read, a play the rules refuse), an :class:`Ask`: the device says what it wants
(OLED, LEDs, phone) and waits. Events that arrive meanwhile wait in order behind the question.

``protocol_for(session)`` picks the protocol named by the game's ``spec.table``; games whose
protocol is not built yet get :class:`PhoneOnly` (every action from the buttons or the phone).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from device.session import Session

JSON = dict[str, Any]


@dataclass
class Ask:
    """A question the device is waiting on. ``kind``: ``confirm`` (a low-confidence read: OK
    applies ``actions``), ``unreadable`` (a card it cannot read) or ``illegal`` (the rules refuse
    what was read: OK ignores the card). Taking the card away, or entering the right action on
    the phone, also answers it."""

    kind: str
    text: str
    zone: str | None = None
    slot: int | None = None
    card: str | None = None
    actions: list[JSON] = field(default_factory=list)

    def to_json(self) -> JSON:
        return {"kind": self.kind, "text": self.text, "zone": self.zone, "slot": self.slot,
                "card": self.card, "actions": list(self.actions)}


class TableProtocol:
    """The base: no table reading; answers to the session's hooks."""

    name = "phone"

    def __init__(self, session: Session) -> None:
        self.session = session
        self.ask: Ask | None = None

    def reset(self) -> None:
        """The game changed under the protocol (start-up, undo, correction, new game)."""
        self.ask = None

    def on_events(self, events: Any, *, on_table: Any = None, input: str | None = None) -> None:
        """Table events (``vision.events.TableEvent``) in the order they happened."""

    def confirm(self, *, source: str, input: str | None = None) -> None:
        from games.errors import IllegalActionError

        raise IllegalActionError("there is nothing to confirm: the device is not asking anything")

    def resolve(self, card: str, *, source: str) -> None:
        """The card asked about is really ``card``."""
        from games.errors import IllegalActionError

        raise IllegalActionError("there is nothing to correct: the device is not asking about a card")

    def answered(self, action: JSON) -> None:
        """An action from the phone or a button was recorded: it answers any question pending."""

    def after_change(self) -> None:
        """An action from the phone or a button was applied."""


class PhoneOnly(TableProtocol):
    """For games whose table protocol is not built yet: the camera is not used to score."""


def protocol_for(session: Session) -> TableProtocol:
    table = session.game.spec.table
    if table == "pegging":
        from device.protocols.pegging import PeggingProtocol, supports

        if supports(session.game):
            return PeggingProtocol(session)
    return PhoneOnly(session)
