"""Drawing a :class:`~vision.mat.MatLayout` as a printable image (PNG or PDF at true scale).

The felt colour is a mid green: white card faces and coloured backs both stand out from it,
which is what the locator's difference against the empty mat relies on. Markers sit on white
squares with a quiet zone so the detector finds their black border.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.errors import LayoutError
from vision.mat import MARKER_DICT, MatLayout, Zone

#: Felt and ink colours (BGR).
FELT = (58, 112, 46)
INK = (150, 200, 140)
LABEL = (120, 170, 110)


def render_mat(layout: MatLayout, title: str, px_per_mm: float = 4.0) -> np.ndarray:
    """The mat as a BGR image, ``px_per_mm`` pixels per millimetre (4 for the screen and the
    simulator, 8 or more for print)."""
    if px_per_mm <= 0:
        raise LayoutError(f"px_per_mm must be positive, not {px_per_mm!r}")
    w_mm, h_mm = layout.size
    s = float(px_per_mm)
    image = np.empty((round(h_mm * s), round(w_mm * s), 3), np.uint8)
    image[:] = FELT
    line = max(1, int(round(0.6 * s)))
    for zone in layout.zones:
        for slot in zone.slots:
            x0, y0, x1, y1 = (round(v * s) for v in slot.rect)
            cv2.rectangle(image, (x0, y0), (x1, y1), INK, line, cv2.LINE_AA)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICT))
    for marker in layout.markers:
        (mx0, my0), (mx1, my1) = marker.corners[0], marker.corners[2]
        quiet = 3.0  # mm of white round a marker, so its edge is found
        qx0, qy0, qx1, qy1 = (round(v * s) for v in (mx0 - quiet, my0 - quiet, mx1 + quiet, my1 + quiet))
        image[qy0:qy1, qx0:qx1] = 255
        side = round((mx1 - mx0) * s)
        code = cv2.aruco.generateImageMarker(dictionary, marker.id, side)
        image[round(my0 * s): round(my0 * s) + side, round(mx0 * s): round(mx0 * s) + side] = code[..., None]
    return _labels(image, layout, title, s)


def zone_label(zone: Zone) -> str:
    """The words printed in a zone's first outline: seats count from 0, as the CLI, the zone
    names (``seat0``) and game records do."""
    return zone.name if zone.seat is None else f"seat {zone.seat}"


def _labels(image: np.ndarray, layout: MatLayout, title: str, s: float) -> np.ndarray:
    pil = Image.fromarray(image[..., ::-1])
    draw = ImageDraw.Draw(pil)
    small = ImageFont.load_default(size=max(8, round(4.0 * s)))
    for zone in layout.zones:
        text = zone_label(zone)
        x0, y0, x1, y1 = zone.slots[0].rect
        draw.text(((x0 + 2.5) * s, (y0 + 2.0) * s), text, fill=LABEL[::-1], font=small)
    bx0, by0, bx1, by1 = layout.title_box
    size = (by1 - by0) * s * 0.6
    font = ImageFont.load_default(size=max(8, round(size)))
    left, top, right, bottom = draw.textbbox((0, 0), title, font=font)
    room = (bx1 - bx0) * s
    if right - left > room:  # long names shrink to fit the box
        font = ImageFont.load_default(size=max(8, round(size * room / (right - left))))
        left, top, right, bottom = draw.textbbox((0, 0), title, font=font)
    x = (bx0 + bx1) / 2 * s - (right + left) / 2
    y = (by0 + by1) / 2 * s - (bottom + top) / 2
    draw.text((x, y), title, fill=INK[::-1], font=font)
    return np.asarray(pil)[..., ::-1].copy()


def save_mat(layout: MatLayout, title: str, path: str | Path, px_per_mm: float = 8.0) -> Path:
    """Write the mat to ``path``: ``.pdf`` (one page at true scale) or ``.png`` (with its dpi)."""
    path = Path(path)
    kind = path.suffix.lower()
    if kind not in (".pdf", ".png"):
        raise LayoutError(f"cannot write a mat to {path.name!r}: the file must end in .pdf or .png")
    image = Image.fromarray(render_mat(layout, title, px_per_mm)[..., ::-1])
    dpi = px_per_mm * 25.4
    try:
        if kind == ".pdf":
            image.save(path, "PDF", resolution=dpi, quality=95)
        else:
            image.save(path, "PNG", dpi=(dpi, dpi))
    except OSError as exc:
        raise LayoutError(f"cannot write the mat to {str(path)!r}: {exc.strerror or exc}") from exc
    return path
