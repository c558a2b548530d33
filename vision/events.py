"""What vision tells the rest of pegpi: a card appeared in or left a zone of the mat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.table import Zone

EventKind = Literal["placed", "removed"]


@dataclass(frozen=True, slots=True)
class TableEvent:
    """A card ``placed`` in or ``removed`` from ``zone`` (slot ``slot`` of it, when the zone has
    outlines) at time ``t`` (seconds, the frame's clock). ``card`` is a card id as the engine
    prints it (``"10H"``, ``"RJ"``), an enrolled name, ``"back"`` or ``"unknown"``;
    ``confidence`` is the classifier's, in 0..1."""

    zone: str
    card: str
    kind: EventKind
    t: float
    confidence: float
    slot: int | None = None

    @property
    def place(self) -> Zone:
        """The zone as a value (the one place a mat's zone name is read); raises ``ZoneError``
        for a name no mat has."""
        return Zone.parse(self.zone)

    def __str__(self) -> str:
        where = self.zone if self.slot is None else f"{self.zone}[{self.slot}]"
        return f"{self.t:8.3f}s {self.kind:<7} {self.card:<7} {where} ({self.confidence:.2f})"
