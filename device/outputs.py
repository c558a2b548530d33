"""The board's outputs (OLED, LEDs, strip) following the session.

:class:`BoardFeed` follows the session's updates in one thread and draws in another: a slow
screen (an announcement holds for a second or two) skips straight to the newest view instead of
falling behind, and an output that fails is logged, never stopping the scoring.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from device.board.outputs import Output
from device.session import Session
from games.view import TableView

log = logging.getLogger("pegpi")


class BoardFeed:
    """Draws the session's newest view on every output; :meth:`run` returns when the session closes."""

    def __init__(self, session: Session, outputs: Sequence[Output],
                 guard: Callable[[Callable[[], None]], Callable[[], None]] | None = None) -> None:
        self.session = session
        self.outputs = list(outputs)
        self._guard = guard or (lambda target: target)
        self._changed = threading.Condition()
        self._newest: TableView | None = None
        self._scored = False
        self._done = False

    def run(self) -> None:
        """Follow the session's updates into the newest view (and whether points were scored
        since the last drawing) until the session closes; the drawer thread shows it."""
        drawer = threading.Thread(target=self._guard(self._draw_loop), name="pegpi-board", daemon=True)
        drawer.start()
        updates = self.session.subscribe()
        try:
            for update in updates:
                if update.kind == "score" and update.score is not None:
                    event = update.score
                    names = self.session.game.side_names()
                    log.info("%s pegs %d: %s", names[event.side], event.points, event.say())
                    with self._changed:
                        self._scored = True
                elif update.kind == "view":
                    with self._changed:
                        self._newest = update.view
                        self._changed.notify()
                elif update.kind == "ask" and update.message:
                    log.info("asking: %s", update.message)
        finally:
            updates.close()  # a generator: closing it unsubscribes
            with self._changed:
                self._done = True
                self._changed.notify()
            drawer.join(timeout=5.0)

    def _draw_loop(self) -> None:
        while True:
            with self._changed:
                while self._newest is None and not self._done:
                    self._changed.wait()
                view, scored = self._newest, self._scored
                self._newest, self._scored = None, False
                if view is None:
                    return
            for out in self.outputs:
                self._safely(out.announce if scored else out.show, view)

    @staticmethod
    def _safely(call: Callable[[TableView], None], view: TableView) -> None:
        try:
            call(view)
        except Exception as exc:  # noqa: BLE001 - an output that fails never stops the scoring
            log.warning("output %s failed: %s", getattr(call, "__qualname__", call), exc)
