"""`pegpi web` and `pegpi bench web` from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pegpi.cli import main

RECORD = Path(__file__).parent / "game.json"


def test_bench_web_reports_latency_and_memory(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "web", "--clients", "3", "--updates", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["store"] == "sqlite on disk, synced"
    assert result["clients"] == 3 and result["updates"] == 4 and result["deliveries"] == 12
    lat = result["latency_ms"]
    assert 0 < lat["median"] <= lat["p95"] <= lat["max"]
    assert 0 < result["server_rss_mb"]["before_clients"] <= result["server_rss_mb"]["after_updates"]


def test_web_serves_a_replayed_record(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    served: dict[str, Any] = {}

    def fake_serve(app: Any, host: str, port: int, threads: int) -> None:
        served.update(app=app, host=host, port=port, threads=threads)

    monkeypatch.setattr("web.serve.serve", fake_serve)
    monkeypatch.setattr("web.netaddr.lan_addresses", lambda: ["192.168.1.20"])
    assert main(["web", "--replay", str(RECORD), "--played", "10", "--port", "8123", "--code", "4321"]) == 0
    out = capsys.readouterr().out
    # the table's LAN address (a phone's localhost is the phone), and a QR code of it
    assert "http://192.168.1.20:8123/" in out and "pairing code: 4321" in out and "localhost" not in out
    assert "\u2584" in out
    assert served["port"] == 8123 and served["threads"] == 32
    service = served["app"].extensions["pegpi"].service
    assert service.view().to_json()["actions"] == 10 and service.pairing_code == "4321"
    assert service.steps_left == len(json.loads(RECORD.read_text())["actions"]) - 10


def test_web_refuses_a_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["web", "--replay", str(bad)]) == 2
    assert "bad.json is not valid JSON" in capsys.readouterr().err


def test_web_plays_the_first_actions_at_most(monkeypatch: pytest.MonkeyPatch) -> None:
    served: dict[str, Any] = {}
    monkeypatch.setattr("web.serve.serve", lambda app, **_: served.update(app=app))
    actions = len(json.loads(RECORD.read_text())["actions"])
    assert main(["web", "--replay", str(RECORD), "--played", str(actions + 5)]) == 0
    service = served["app"].extensions["pegpi"].service
    assert service.view().to_json()["actions"] == actions and service.steps_left == 0
