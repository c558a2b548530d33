"""Errors device raises on purpose, under ``games.errors.PegpiError`` like every error of pegpi
(the config's and the store's stand beside the code that raises them: ``device.config``,
``device.store``)."""

from __future__ import annotations

from games.errors import PegpiError


class CompanionError(PegpiError, RuntimeError):
    """The companion cannot start (a bad source, a port in use, a store it cannot open)."""


class HardwareConfigError(PegpiError, ValueError):
    """A [display], [leds], [buttons] or [strip] setting that cannot be right (names the key)."""
