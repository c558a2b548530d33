"""The companion's TOML config: layered, every key checked, errors that name the file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.config import SCHEMA, ConfigError, defaults, load_config, store_path
from pegpi.cli import main


def test_the_package_defaults_are_complete_and_valid() -> None:
    config = defaults()
    for section, keys in SCHEMA.items():
        assert section in config, section
        assert set(config[section]) <= set(keys)
    assert load_config(system=None) == config


def test_layers_change_only_the_keys_they_name(tmp_path: Path) -> None:
    system = tmp_path / "system.toml"
    system.write_text('[web]\nport = 8081\nthreads = 20\n[table]\nplayers = ["Cy", "Di", "Ed"]\n')
    mine = tmp_path / "mine.toml"
    mine.write_text('[web]\nport = 9000\n[table.options]\ntarget = 61\n')
    config = load_config(mine, system=system)
    assert config["web"]["port"] == 9000  # --config wins
    assert config["web"]["threads"] == 20  # the system file's, where --config is silent
    assert config["web"]["host"] == defaults()["web"]["host"]  # the package's, where both are silent
    assert config["table"]["players"] == ["Cy", "Di", "Ed"]
    assert config["table"]["options"] == {"target": 61}


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("[web]\nport = 'eighty'", ["[web]", "port", "eighty"]),
        ("[web]\nport = 70000", ["[web]", "port", "70000"]),
        ("[web]\nprot = 8080", ["[web]", "'prot'", "did you mean 'port'"]),
        ("[wbe]\nport = 8080", ["[wbe]", "did you mean 'web'"]),
        ("[table]\nconfidence = 1.5", ["[table]", "confidence", "1.5"]),
        ("[table]\nplayers = 'Ann'", ["[table]", "players"]),
        ("[camera]\nsource = 'webcam'", ["[camera]", "source", "webcam"]),
        ("[web]\nenabled = 'yes'", ["[web]", "enabled", "true or false"]),
        ("[log]\nlevel = 'loud'", ["[log]", "level", "loud"]),
        ("web = 3", ["[web]", "section"]),
        ("[display]\ndriver = 'crt'", ["[display]", "driver", "crt"]),
        ("[table\n", ["not valid TOML", "line 1"]),
    ],
)
def test_a_mistake_names_the_key(text: str, names: list[str]) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(text=text, system=None)
    for name in names:
        assert name in str(caught.value)


def test_a_corrupt_or_missing_config_file_is_a_clear_error(tmp_path: Path) -> None:
    garbage = tmp_path / "config.toml"
    garbage.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ConfigError, match="config.toml"):
        load_config(garbage, system=None)
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "absent.toml", system=None)


def test_pegpi_run_stops_on_a_bad_config_with_the_key_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    bad = tmp_path / "pegpi.toml"
    bad.write_text("[store]\nmax_mb = -1\n")
    assert main(["run", "--config", str(bad), "--no-web", "--db", str(tmp_path / "t.db")]) == 2
    err = capsys.readouterr().err
    assert "[store] max_mb" in err and "pegpi.toml" in err
    assert not (tmp_path / "t.db").exists()  # nothing was started


def test_the_store_goes_to_systemds_state_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    assert store_path(defaults()) == tmp_path / "state" / "pegpi.db"
    assert store_path({"store": {"path": str(tmp_path / "x.db")}}) == tmp_path / "x.db"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert store_path(defaults()) == tmp_path / "xdg" / "pegpi" / "pegpi.db"
