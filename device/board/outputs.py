"""The peg board's outputs together (OLED, LEDs, strip), fed with views and drawn in their own thread.

The session calls ``update(view)`` after every action and goes straight on; a worker thread draws.
A view whose scores went up is a scoring moment: it is announced (the animation on the OLED,
the flash of the score LED); any other view is simply shown. When views pile up behind a long
announcement, the older ones are only shown, so the board never lags far behind the table.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from games.view import TableView

log = logging.getLogger(__name__)

BACKLOG = 2  # with more views than this waiting, the older ones are shown, not announced


class Output(Protocol):
    def show(self, view: TableView) -> None: ...

    def announce(self, view: TableView) -> None: ...

    def close(self) -> None: ...


def is_scoring(before: TableView | None, after: TableView) -> bool:
    """True when ``after`` is a new scoring moment: it has a ``last`` and some score went up."""
    if after.last is None or before is None:
        return False
    old, new = [s.score for s in before.sides], [s.score for s in after.sides]
    if len(old) != len(new):
        return False  # a new game, not a score
    return any(b > a for a, b in zip(old, new, strict=True))


class PegBoard:
    """``update(view)`` from any thread; ``wait()`` until everything queued is drawn; ``close()``."""

    def __init__(self, *outputs: Output, on_error: Callable[[Exception], None] | None = None) -> None:
        self.outputs = [o for o in outputs if o is not None]
        self._queue: queue.Queue[TableView | None] = queue.Queue()
        self._previous: TableView | None = None
        self._on_error = on_error
        self._worker = threading.Thread(target=self._run, name="pegpi-board", daemon=True)
        self._worker.start()

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | None = None) -> PegBoard:
        """Open the display, LEDs and strip of a config with ``[display]``, ``[leds]``, ``[strip]``
        sections (defaults: ``hardware/defaults.toml``); what is missing is a warning."""
        from device.display import BoardDisplay
        from device.leds import TableLights
        from device.strip import PegStrip

        config = config or {}
        # The lights first: their flash runs in the background while the OLED animates.
        return cls(TableLights(config.get("leds")), PegStrip(config.get("strip")),
                   BoardDisplay.from_config(config.get("display")))

    def update(self, view: TableView) -> None:
        self._queue.put(view)

    def wait(self) -> None:
        """Block until every view given so far is drawn (tests; a clean shutdown)."""
        self._queue.join()

    def _run(self) -> None:
        while True:
            view = self._queue.get()
            try:
                if view is None:
                    return
                self._draw(view, announce=self._queue.qsize() < BACKLOG)
            finally:
                self._queue.task_done()

    def _draw(self, view: TableView, *, announce: bool) -> None:
        scoring = is_scoring(self._previous, view)
        self._previous = view
        for output in self.outputs:
            try:
                if scoring and announce:
                    output.announce(view)
                else:
                    output.show(view)
            except Exception as exc:  # noqa: BLE001 - one broken output must not stop the others or the game
                log.warning("board: %s failed (%s: %s)", type(output).__name__, type(exc).__name__, exc)
                if self._on_error is not None:
                    self._on_error(exc)

    def close(self) -> None:
        if self._worker.is_alive():
            self._queue.put(None)
            self._worker.join()
        for output in self.outputs:
            output.close()

    def __enter__(self) -> PegBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
