"""The companion's configuration: TOML, layered, checked key by key.

Layers, each changing only the keys it names: the package defaults (``device/defaults.toml``),
``/etc/pegpi/config.toml`` when it exists, then the file given with ``--config``. Every key of
the companion's own sections is checked for its type and range; the hardware sections
(``[display]``, ``[leds]``, ``[buttons]``, ``[strip]``) are checked by their own parts. A mistake
raises :class:`ConfigError` naming the file and the key:

>>> try:
...     load_config(text="[web]\\nport = 'eighty'", system=None)
... except ConfigError as exc:
...     print(exc)
<text>: [web] port must be a whole number from 1 to 65535, not 'eighty'
"""

from __future__ import annotations

import copy
import difflib
import importlib
import os
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from games.errors import PegpiError
from games.jsontypes import JSONObject

SYSTEM_CONFIG = Path("/etc/pegpi/config.toml")
HARDWARE_SECTIONS = ("display", "leds", "buttons", "strip")
SOURCES = ("auto", "picamera", "demo")
SOURCE_PREFIXES = ("camera:", "video:", "folder:", "script:")
LEVELS = ("debug", "info", "warning", "error")


class ConfigError(PegpiError, ValueError):
    """A config file that cannot be read or a setting that cannot be right (names file and key)."""


def _whole(low: int, high: int | None = None) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
            return f"a whole number from {low}" + (f" to {high}" if high is not None else " up")
        return None
    return check


def _number(low: float, high: float | None = None) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int | float) or value < low or (
                high is not None and value > high):
            return f"a number from {low:g}" + (f" to {high:g}" if high is not None else " up")
        return None
    return check


def _text(value: Any) -> str | None:
    return None if isinstance(value, str) else "text in quotes"


def _flag(value: Any) -> str | None:
    return None if isinstance(value, bool) else "true or false"


def _one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if value in choices else "one of " + ", ".join(choices)
    return check


def _names(value: Any) -> str | None:
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return None
    return 'a list of player names, like ["Ann", "Bob"]'


def _source(value: Any) -> str | None:
    if isinstance(value, str) and (value in SOURCES or value.startswith(SOURCE_PREFIXES)):
        return None
    return "auto, picamera, demo, camera:N, video:FILE, folder:DIR or script:FILE"


def _table_options(value: Any) -> str | None:
    return None if isinstance(value, dict) else "a table of game options"


#: section -> key -> check (returns what the value should be, or None when it is fine)
SCHEMA: dict[str, dict[str, Callable[[Any], str | None]]] = {
    "table": {"game": _text, "players": _names, "paper": _one_of("A4", "A3", "A2", "A1"), "confidence": _number(0.0, 1.0),
              "options": _table_options},
    "camera": {"source": _source, "width": _whole(64, 8192), "height": _whole(64, 8192), "fps": _number(1, 240),
               "keep_crops": _text},
    "store": {"path": _text, "max_mb": _number(0)},
    "web": {"enabled": _flag, "host": _text, "port": _whole(1, 65535), "threads": _whole(1, 256)},
    "demo": {"seed": _whole(0), "speed": _number(0), "game": _text, "frames": _flag},
    "speech": {"enabled": _flag, "speaker": _text, "volume": _whole(0, 100), "voice": _text},
    "watchdog": {"interval": _number(0)},
    "log": {"level": _one_of(*LEVELS)},
}


def _near(word: str, options: list[str]) -> str:
    close = difflib.get_close_matches(word, options, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check(config: Mapping[str, Any], origin: str = "config") -> None:
    """Raise :class:`ConfigError` for the first wrong section, key or value of ``config``."""
    for section, values in config.items():
        if section in HARDWARE_SECTIONS:
            if not isinstance(values, dict):
                raise ConfigError(f"{origin}: [{section}] must be a section")
            continue
        if section not in SCHEMA:
            known = sorted([*SCHEMA, *HARDWARE_SECTIONS])
            raise ConfigError(f"{origin}: there is no section [{section}]{_near(section, known)}; "
                              f"sections: {', '.join(known)}")
        if not isinstance(values, dict):
            raise ConfigError(f"{origin}: [{section}] must be a section, not a single value")
        keys = SCHEMA[section]
        for key, value in values.items():
            if key not in keys:
                raise ConfigError(f"{origin}: [{section}] has no key {key!r}{_near(key, list(keys))}; "
                                  f"its keys: {', '.join(keys)}")
            wanted = keys[key](value)
            if wanted is not None:
                raise ConfigError(f"{origin}: [{section}] {key} must be {wanted}, not {value!r}")


def _merge(base: JSONObject, over: Mapping[str, Any]) -> JSONObject:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict) and key != "options":
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _parse(text: str, origin: str) -> JSONObject:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin}: not valid TOML: {exc}") from None


def read_file(path: str | Path) -> JSONObject:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it ({exc})") from None
    data = _parse(text, str(path))
    check(data, str(path))
    return data


def defaults() -> JSONObject:
    text = resources.files("device").joinpath("defaults.toml").read_text(encoding="utf-8")
    data = _parse(text, "device/defaults.toml")
    check(data, "device/defaults.toml")
    return data


def load_config(path: str | Path | None = None, *, system: str | Path | None = SYSTEM_CONFIG,
                text: str | None = None, overrides: Mapping[str, Any] | None = None) -> JSONObject:
    """The defaults, then ``system`` (when it exists), then ``path`` (which must exist), then
    ``text`` and ``overrides`` (command-line options), each checked."""
    config = defaults()
    if system is not None and Path(system).is_file():
        config = _merge(config, read_file(system))
    if path is not None:
        config = _merge(config, read_file(path))
    if text is not None:
        data = _parse(text, "<text>")
        check(data, "<text>")
        config = _merge(config, data)
    if overrides:
        check(overrides, "command line")
        config = _merge(config, overrides)
    check_hardware(config)
    return config


def check_hardware(config: Mapping[str, Any]) -> None:
    """Let each hardware part check its own section now, so a mistake stops start-up with its key."""
    parts = {"display": ("device.display", "DisplayConfig"), "leds": ("device.leds", "LedConfig"),
             "buttons": ("device.buttons", "ButtonConfig"), "strip": ("device.strip", "StripConfig")}

    for section, (module, name) in parts.items():
        if section not in config:
            continue
        try:
            cls = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):  # that part is not built: its section waits for it
            continue
        try:
            cls.from_mapping(config[section])
        except PegpiError as exc:
            raise ConfigError(f"config: {exc}") from None
        except TypeError as exc:
            raise ConfigError(f"config: [{section}] {exc}") from None


def store_path(config: Mapping[str, Any]) -> Path:
    """Where the event store lives: ``[store] path``, else systemd's state directory, else the
    user's state directory."""
    given = str(config.get("store", {}).get("path") or "")
    if given:
        return Path(given).expanduser()
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "pegpi.db"
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "pegpi" / "pegpi.db"
