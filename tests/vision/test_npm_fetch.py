"""`make test` fetches its symbol fonts without Node.js: straight from the registry over HTTP,
checked against the registry's digest. A registry served on loopback stands in for npmjs.org."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from vision.render import npm


def tarball() -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        data = b"a font"
        info = tarfile.TarInfo("package/400Regular/Font.ttf")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[dict[str, bytes]]:
    files: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            body = files.get(self.path)
            self.send_response(200 if body is not None else 404)
            self.end_headers()
            self.wfile.write(body or b"{}")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    data = tarball()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    files["/@fonts/symbols/-/symbols-1.0.0.tgz"] = data
    files["/@fonts%2Fsymbols/1.0.0"] = json.dumps(
        {"dist": {"tarball": base + "/@fonts/symbols/-/symbols-1.0.0.tgz", "integrity": digest}}).encode()
    monkeypatch.setenv("npm_config_registry", base)
    monkeypatch.setenv("PATH", str(tmp_path / "no-node-here"))  # npm is not installed
    yield files
    server.shutdown()
    server.server_close()


def test_without_npm_the_package_comes_from_the_registry(registry: dict[str, bytes], tmp_path: Path) -> None:
    root = npm.fetch("@fonts/symbols@1.0.0", tmp_path / "cache", "the symbol fonts")
    assert (root / "package" / "400Regular" / "Font.ttf").read_bytes() == b"a font"


def test_a_tarball_that_does_not_match_its_digest_is_refused(registry: dict[str, bytes], tmp_path: Path) -> None:
    registry["/@fonts/symbols/-/symbols-1.0.0.tgz"] += b"tampered"
    with pytest.raises(npm.FetchError, match="does not match the registry's digest"):
        npm.fetch("@fonts/symbols@1.0.0", tmp_path / "cache", "the symbol fonts")
    assert not (tmp_path / "cache" / "package").exists()


def test_an_unknown_package_names_the_registry_and_npm(registry: dict[str, bytes], tmp_path: Path) -> None:
    with pytest.raises(npm.FetchError, match=r"npm is not installed.*@fonts/other@2\.0\.0"):
        npm.fetch("@fonts/other@2.0.0", tmp_path / "cache", "the symbol fonts")
