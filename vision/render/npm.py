"""Fetching a package from the npm registry once, into a cache folder (the renderer's only
network use): the commercial-style reference decks the bench reads, and the symbol fonts whose
suit glyphs the training designs may print as pips.

``fetch(spec, root, what)`` leaves the package's files in ``root/package``: done already, or
fetched now with ``npm pack`` and extracted whole (a half-extracted package never appears).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from vision.errors import FetchError

#: the command that fetches packages (tests point it elsewhere)
NPM = "npm"


def data_dir(kind: str) -> Path:
    """``$PEGPI_DATA/<kind>`` if ``PEGPI_DATA`` is set, else ``~/.cache/pegpi/<kind>``."""
    root = os.environ.get("PEGPI_DATA")
    return Path(root) / kind if root else Path.home() / ".cache" / "pegpi" / kind


def slug(package: str, version: str) -> str:
    """The cache folder name of ``package@version``: ``@scope/name`` becomes ``scope-name-<version>``."""
    return f"{package.lstrip('@').replace('/', '-')}-{version}"


def fetch(spec: str, root: Path, what: str, *, error: type[Exception] = FetchError) -> Path:
    """``root`` with the npm package ``spec`` (``name@version``) extracted in ``root/package``.

    ``what`` names what the package is for, in error messages; ``error`` is the exception raised."""
    if (root / "package").is_dir():
        return root
    npm = shutil.which(NPM)
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root, prefix=".fetch-") as tmp:
        if npm is None:  # no Node.js here: the registry's own tarball, checked against its digest
            try:
                tarballs = [download(spec, Path(tmp))]
            except FetchError as exc:
                raise error(f"npm is not installed (or not on PATH) and the registry could not be used "
                            f"directly to fetch {what} ({spec}): {exc}; install Node.js and npm, or "
                            f"extract that package's tarball so that {root / 'package'} holds its files") from exc
        else:
            try:
                run = subprocess.run([npm, "pack", spec, "--pack-destination", tmp], cwd=tmp,
                                     capture_output=True, text=True, timeout=600)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise error(f"npm pack {spec} (for {what}) failed: {exc}") from exc
            tarballs = sorted(Path(tmp).glob("*.tgz"))
            if run.returncode != 0 or not tarballs:
                tail = "\n".join((run.stderr or run.stdout).strip().splitlines()[-12:])
                raise error(f"npm pack {spec} (for {what}) failed with exit code {run.returncode}:\n{tail}")
        out = Path(tmp) / "x"
        try:
            with tarfile.open(tarballs[0]) as tar:
                tar.extractall(out, filter="data")
        except (tarfile.TarError, OSError) as exc:
            raise error(f"cannot extract {tarballs[0].name} ({what}): {exc}") from exc
        if not (out / "package").is_dir():
            raise error(f"{tarballs[0].name} ({what}) has no package/ folder")
        os.replace(out / "package", root / "package")  # whole or not at all
    return root


def registry() -> str:
    """The npm registry npm itself would use (``npm_config_registry``), without a trailing slash."""
    return (os.environ.get("npm_config_registry") or os.environ.get("NPM_CONFIG_REGISTRY")
            or "https://registry.npmjs.org").rstrip("/")


def download(spec: str, into: Path, *, timeout: float = 120.0) -> Path:
    """Fetch ``name@version``'s tarball from the registry without npm: read the version's
    document, download its ``dist.tarball`` and check it against ``dist.integrity`` (sha512)."""
    import base64
    import hashlib
    import json
    import urllib.error
    import urllib.parse
    import urllib.request

    name, _, version = spec.rpartition("@")
    if not name or not version:
        raise FetchError(f"{spec!r} is not name@version")
    url = f"{registry()}/{urllib.parse.quote(name, safe='@')}/{urllib.parse.quote(version)}"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            dist = json.loads(reply.read())["dist"]
        tarball, integrity = str(dist["tarball"]), str(dist["integrity"])
        with urllib.request.urlopen(tarball, timeout=timeout) as reply:
            data = reply.read()
    except (urllib.error.URLError, OSError, ValueError, KeyError, TypeError) as exc:
        raise FetchError(f"{url}: {exc}") from exc
    algorithm, _, digest = integrity.partition("-")
    if algorithm != "sha512" or base64.b64decode(digest) != hashlib.sha512(data).digest():
        raise FetchError(f"{tarball} does not match the registry's digest ({integrity[:24]}...)")
    path = into / f"{slug(name, version)}.tgz"
    path.write_bytes(data)
    return path

