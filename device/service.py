"""The public face of a running table, used by the web app, the buttons and the CLI.

Everything outside ``device`` talks to the table through this interface only; it never reaches
into the engine or the hardware. Actions are given in the game-record form
(``{"act": "go", "player": 0}``), the same vocabulary as a game record.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

JSON = dict[str, Any]


class TableService(Protocol):
    def view(self, seat: int | None = None) -> JSON:
        """What ``seat`` may see (None: a spectator). JSON-ready; never another seat's hidden cards."""

    def submit(self, action: JSON, *, source: str = "phone") -> JSON:
        """Apply one game action (record form). Recorded before it is shown. Returns the new view.
        Raises ``IllegalActionError`` with a reason when the rules refuse it."""

    def undo(self, *, source: str = "phone") -> JSON:
        """Take back the last action (recorded as an undo, never a destructive edit)."""

    def correct(self, index: int, action: JSON, *, source: str = "phone") -> JSON:
        """Replace action number ``index`` of this game by ``action`` (e.g. a misread card)."""

    def confirm(self, *, source: str = "button") -> JSON:
        """Accept what the device is asking about (a low-confidence card read), as the OK button."""

    def new_game(self, game: str, players: list[str], options: JSON | None = None) -> JSON:
        """End the current game and start another (from the registry)."""

    def history(self) -> list[JSON]:
        """Every action of the current game with its index, source and the points it scored."""

    def export(self) -> JSON:
        """The current game as a game record."""

    def subscribe(self) -> Iterator[JSON]:
        """Updates as they happen (each a dict with at least ``"type"``, e.g. ``{"type": "view",
        "view": {...}}``); a consumer that stops iterating is dropped. Used for Server-Sent Events."""

    def games(self) -> list[JSON]:
        """The registry's games (``Spec.to_json()``), for the set-up page."""

    @property
    def pairing_code(self) -> str:
        """The code shown on the device (OLED) that a phone must enter to change anything."""

    def camera_frame(self) -> bytes | None:
        """A recent camera frame as JPEG with the mat, zones and recognised cards drawn on it,
        or None when there is no camera."""
