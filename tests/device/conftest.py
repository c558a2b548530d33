"""Fixtures shared by the device tests: gpiozero's own MockFactory as the pin factory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """Mock pins (PWM-capable, so LED bars dim) for the length of one test."""
    previous = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = previous
