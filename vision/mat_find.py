"""Finding the mat in a camera frame: ArUco markers -> homography from frame pixels to mat mm.

Markers are looked for on a downscaled grey frame (cheap), their corners refined to sub-pixel
and scaled back. The last good homography is kept while markers are briefly covered (a hand,
a sleeve); after ``hold_s`` without enough markers the mat is reported lost.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import FrameError
from vision.mat import MARKER_DICT, MatLayout


@dataclass(frozen=True, slots=True)
class MatPose:
    """Where the mat is in the frame. ``to_mat`` maps frame pixels to mat mm, ``to_frame`` back.
    ``fresh`` is false when the pose is held from an earlier frame (markers covered);
    ``markers`` says how many were seen."""

    to_mat: np.ndarray
    to_frame: np.ndarray
    markers: int
    fresh: bool
    t: float


class MatFinder:
    """Finds the mat's markers frame after frame. One per camera; keeps the last good pose."""

    def __init__(self, layout: MatLayout, *, detect_width: int = 640, hold_s: float = 2.0,
                 min_markers: int = 3, max_error_mm: float = 3.0) -> None:
        self.layout = layout
        self.detect_width = detect_width
        self.hold_s = hold_s
        self.min_markers = min_markers
        self.max_error_mm = max_error_mm
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICT))
        wide = cv2.aruco.DetectorParameters()
        wide.adaptiveThreshWinSizeMin, wide.adaptiveThreshWinSizeMax, wide.adaptiveThreshWinSizeStep = 7, 23, 8
        wide.minMarkerPerimeterRate, wide.maxMarkerPerimeterRate = 0.03, 0.5
        wide.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.ArucoDetector(dictionary, wide)
        # around a marker's expected place it fills much of the window: a cheap, narrow search
        near = cv2.aruco.DetectorParameters()
        near.adaptiveThreshWinSizeMin, near.adaptiveThreshWinSizeMax, near.adaptiveThreshWinSizeStep = 7, 15, 8
        near.minMarkerPerimeterRate, near.maxMarkerPerimeterRate = 0.2, 4.0
        near.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._near = cv2.aruco.ArucoDetector(dictionary, near)
        self._mm = layout.marker_points()
        self._last: MatPose | None = None
        #: whether the search round the markers' last places is passed over: once its corners give
        #: no pose where the whole frame's do (an A1 mat at 720p: each marker found some 3 px too
        #: wide, 3.1 mm of error), every frame of this camera would search twice
        self._near_misreads = False

    @property
    def last(self) -> MatPose | None:
        return self._last

    def detect(self, frame: np.ndarray) -> dict[int, np.ndarray]:
        """Marker id -> its 4 corners in full-frame pixels, for the markers of this mat. Looks
        first where the markers were (small windows), then over the whole downscaled frame."""
        if frame.ndim not in (2, 3) or frame.dtype != np.uint8 or frame.size == 0:
            raise FrameError(f"a frame must be a uint8 grey or BGR image, not {frame.dtype} {frame.shape}")
        near: dict[int, np.ndarray] = {}
        if self._last is not None and not self._near_misreads:
            near = self._detect_near(frame, self._last)
            if len(near) >= self.min_markers:
                return near
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return {**self._detect_wide(grey), **near}  # full-resolution corners win

    def _detect_near(self, frame: np.ndarray, pose: MatPose) -> dict[int, np.ndarray]:
        found: dict[int, np.ndarray] = {}
        h, w = frame.shape[:2]
        for mid, corners_mm in self._mm.items():
            expected = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2).astype(np.float64), pose.to_frame)
            expected = expected.reshape(4, 2)
            side = float(np.linalg.norm(expected[1] - expected[0]))
            pad = 0.7 * side + 8
            x0, y0 = (int(max(0, v)) for v in expected.min(axis=0) - pad)
            x1, y1 = (int(min(lim, v)) for v, lim in zip(expected.max(axis=0) + pad, (w, h), strict=True))
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            window = frame[y0:y1, x0:x1]
            grey = window if window.ndim == 2 else cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)
            corners, ids, _ = self._near.detectMarkers(grey)
            if ids is None:
                continue
            for quad, got in zip(corners, ids.ravel(), strict=True):
                if int(got) == mid:
                    found[mid] = quad.reshape(4, 2) + np.array([x0, y0], np.float32)
                    break
        return found

    def _detect_wide(self, grey: np.ndarray) -> dict[int, np.ndarray]:
        h, w = grey.shape
        scale = 1.0
        if w > self.detect_width:
            scale = w / self.detect_width
            grey = cv2.resize(grey, (self.detect_width, round(h / scale)), interpolation=cv2.INTER_AREA)
        corners, ids, _ = self._detector.detectMarkers(grey)
        found: dict[int, np.ndarray] = {}
        if ids is None:
            return found
        for quad, mid in zip(corners, ids.ravel(), strict=True):
            if int(mid) in self._mm and int(mid) not in found:
                # pixel centres: (x + 0.5) * scale - 0.5 maps a downscaled pixel back
                found[int(mid)] = (quad.reshape(4, 2) + 0.5) * scale - 0.5
        return found

    def find(self, frame: np.ndarray, t: float) -> MatPose | None:
        """The mat's pose in this frame: fresh from the markers, held from the last good frame
        while they are covered, or None when the mat is lost (never seen, or not for ``hold_s``)."""
        found = self.detect(frame)
        pose = self._solve(found, t) if len(found) >= self.min_markers else None
        if pose is None and self._last is not None and not self._near_misreads and len(found) >= self.min_markers:
            # the search round the markers' last places found corners that disagree: the whole
            # frame's search is asked instead, and from then on alone if it gives a pose
            grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            wide = self._detect_wide(grey)
            pose = self._solve(wide, t) if len(wide) >= self.min_markers else None
            self._near_misreads = pose is not None
        if pose is not None:
            self._last = pose
            return pose
        if self._last is not None and t - self._last.t <= self.hold_s:
            last = self._last
            return MatPose(last.to_mat, last.to_frame, len(found), False, last.t)
        return None

    def _solve(self, found: dict[int, np.ndarray], t: float) -> MatPose | None:
        src = np.concatenate([found[i] for i in sorted(found)]).astype(np.float32)
        dst = np.concatenate([self._mm[i] for i in sorted(found)]).astype(np.float32)
        to_mat, _ = cv2.findHomography(src, dst, 0)
        if to_mat is None or abs(np.linalg.det(to_mat)) < 1e-12:
            return None
        projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), to_mat).reshape(-1, 2)
        if float(np.sqrt(((projected - dst) ** 2).sum(axis=1).mean())) > self.max_error_mm:
            return None  # a misread marker: keep the last good pose instead
        return MatPose(to_mat, np.linalg.inv(to_mat), len(found), True, t)


def mat_transform(pose: MatPose, px_per_mm: float) -> np.ndarray:
    """Frame pixels -> mat image pixels at ``px_per_mm``."""
    scale = np.diag([px_per_mm, px_per_mm, 1.0])
    transform: np.ndarray = scale @ pose.to_mat
    return transform


def warp_mat(frame: np.ndarray, pose: MatPose, layout: MatLayout, px_per_mm: float,
             out: np.ndarray | None = None) -> np.ndarray:
    """The top-down mat image at ``px_per_mm`` (``out`` is reused when given, to spare allocations)."""
    w, h = (round(v * px_per_mm) for v in layout.size)
    if out is None:
        out = np.empty((h, w) + frame.shape[2:], frame.dtype)
    cv2.warpPerspective(frame, mat_transform(pose, px_per_mm), (w, h), dst=out, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    return out
