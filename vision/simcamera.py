"""How the simulated table looks through a camera: mat, cards, a hand with its shadow, then a
perspective camera with shake, light gain, vignetting, blur and noise.

Everything is drawn in mat millimetres on a canvas of ``px_per_mm`` with a margin of table
around the mat (where arms come from), then warped into the camera frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.api import CARD_MM
from vision.enroll import Embedder, EnrolledDeck
from vision.mat import MatLayout
from vision.mat_print import render_mat

MARGIN_MM = 70.0  # table visible around the mat (where arms come from)
TABLE = (62, 84, 112)  # wood, BGR
#: the sensor noise (sigma, per channel) of a camera that shows no colour: a NoIR module, a dim webcam
GREY_NOISE = 10.0
SKIN = (118, 150, 205)
SHADOW_MM = (14.0, 18.0)  # where a hand's shadow falls, relative to the hand
SHADOW_DEPTH = 0.6  # how much light the shadow leaves


@dataclass(frozen=True, slots=True)
class CameraPose:
    """Where the camera looks from: the mat's share of the frame height, tilt (the far edge
    shrinks by this fraction), roll in degrees, and offset of the mat centre in pixels."""

    fill: float = 0.86
    tilt: float = 0.08
    roll: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)

    @staticmethod
    def random(rng: np.random.Generator) -> CameraPose:
        return CameraPose(float(rng.uniform(0.8, 0.92)), float(rng.uniform(0.0, 0.15)),
                          float(rng.uniform(-4, 4)), (float(rng.uniform(-30, 30)), float(rng.uniform(-12, 12))))


@dataclass(frozen=True, slots=True)
class CardOnMat:
    """A card lying on the mat: where (mm) and turned by how much (degrees, 90 for sideways)."""

    card: str
    zone: str
    slot: int
    center: tuple[float, float]
    angle: float  # degrees, 90 for a card lying sideways


def default_card_art(design: int = 7, px_per_mm: float = 3.0) -> Callable[[str], np.ndarray]:
    """Card faces from :mod:`vision.render` (BGRA, alpha cuts the round corners): the French
    cards and their back, and the Decktet's cards by name (``"the Author"``)."""
    from vision.render import CARD_IDS, render_card
    from vision.render.decktet import render_decktet

    french = {*CARD_IDS, "back"}

    def art(card: str) -> np.ndarray:
        if card in french:
            return render_card(card, design, px_per_mm=px_per_mm, alpha=True)
        return render_decktet(card, DECKTET_DESIGN, px_per_mm=px_per_mm, alpha=True)

    return art


#: the design of the simulated table's Decktet (the deck :func:`simulated_decktet` enrols)
DECKTET_DESIGN = 0


class TableCamera:
    """Renders scenes of one mat through one camera. Create once per simulated table."""

    def __init__(self, layout: MatLayout, *, title: str, size: tuple[int, int], pose: CameraPose, seed: int,
                 card_art: Callable[[str], np.ndarray], px_per_mm: float, noise: float, blur: float,
                 grey: bool = False) -> None:
        self.layout = layout
        self.size = size
        self.pose = pose
        self.seed = seed
        self.s = px_per_mm
        self._title = title
        self._art_fn = card_art
        self._art: dict[str, np.ndarray] = {}
        self._noise_level = noise
        self._blur = blur
        #: a camera that shows no colour (a NoIR module): its noise still differs by channel
        self.grey = grey
        self._vignette: np.ndarray | None = None
        self._noise: list[tuple[np.ndarray, np.ndarray]] = []
        self._mat: np.ndarray | None = None
        self._shade: np.ndarray | None = None
        self._base_cache: tuple[tuple[CardOnMat, ...], np.ndarray] | None = None
        self._canvas: np.ndarray | None = None

    def to_frame(self) -> np.ndarray:
        """The camera's homography from mat mm to frame pixels (without shake)."""
        w_mm, h_mm = self.layout.size
        fw, fh = self.size
        p = self.pose
        scale = p.fill * fh / h_mm
        half_w, half_h = w_mm * scale / 2, h_mm * scale / 2
        shrink = 1.0 - p.tilt
        pts = np.array([[-half_w * shrink, -half_h], [half_w * shrink, -half_h], [half_w, half_h], [-half_w, half_h]])
        a = math.radians(p.roll)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = pts @ rot.T + np.array([fw / 2 + p.offset[0], fh / 2 + p.offset[1]])
        src = np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], np.float32)
        return cv2.getPerspectiveTransform(src, pts.astype(np.float32))

    def render(self, cards: tuple[CardOnMat, ...], hand: tuple[tuple[float, float], tuple[float, float]] | None,
               held: str | None, gain: float, shake: float, index: int) -> np.ndarray:
        """One camera frame: ``hand`` is (hand, arm entry) in mm or None; ``held`` a card in the hand."""
        canvas = self._scene_canvas(cards, hand, held)
        m = self._mm_to_canvas()
        to_frame = self.to_frame() @ np.linalg.inv(m)
        if shake > 0:
            rng = np.random.default_rng((self.seed, index))
            dx, dy = rng.normal(0, shake, 2)
            to_frame = np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]]) @ to_frame
        frame = cv2.warpPerspective(canvas, to_frame, self.size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE)
        return self._camera_effects(frame, gain, index)

    def _mm_to_canvas(self) -> np.ndarray:
        return np.array([[self.s, 0, MARGIN_MM * self.s], [0, self.s, MARGIN_MM * self.s], [0, 0, 1]])

    def _base(self, cards: tuple[CardOnMat, ...]) -> np.ndarray:
        """Table, mat and lying cards at ``s`` px/mm (cached while the cards do not change)."""
        if self._base_cache is not None and self._base_cache[0] == cards:
            return self._base_cache[1]
        pad = round(MARGIN_MM * self.s)
        if self._mat is None:
            self._mat = render_mat(self.layout, self._title, self.s)
        mat = self._mat
        base = np.empty((mat.shape[0] + 2 * pad, mat.shape[1] + 2 * pad, 3), np.uint8)
        base[:] = TABLE
        base[pad:pad + mat.shape[0], pad:pad + mat.shape[1]] = mat
        for lying in cards:
            self._paste(base, lying.card, lying.center, lying.angle)
        self._base_cache = (cards, base)
        return base

    def _scene_canvas(self, cards: tuple[CardOnMat, ...],
                      hand: tuple[tuple[float, float], tuple[float, float]] | None, held: str | None) -> np.ndarray:
        base = self._base(cards)
        if hand is None:
            return base
        if self._canvas is None or self._canvas.shape != base.shape:
            self._canvas = np.empty_like(base)
        canvas = self._canvas
        np.copyto(canvas, base)
        (hx, hy), (ex, ey) = hand
        if held is not None:
            self._paste(canvas, held, (hx, hy + 25.0), 8.0)
        to_px = self._mm_to_canvas()

        def px(x: float | tuple[float, float], y: float = 0.0) -> tuple[int, int]:
            if isinstance(x, tuple):
                x, y = x
            return (round(to_px[0, 0] * x + to_px[0, 2]), round(to_px[1, 1] * y + to_px[1, 2]))

        angle = math.degrees(math.atan2(hy - ey, hx - ex))
        self._shadow(canvas, px((ex + SHADOW_MM[0], ey + SHADOW_MM[1])), px((hx + SHADOW_MM[0], hy + SHADOW_MM[1])),
                     angle)
        cv2.line(canvas, px(ex, ey), px(hx, hy), SKIN, round(65 * self.s), cv2.LINE_AA)
        cv2.ellipse(canvas, px(hx, hy), (round(55 * self.s), round(45 * self.s)), angle, 0, 360, SKIN, -1,
                    cv2.LINE_AA)
        darker = tuple(int(c * 0.85) for c in SKIN)
        cv2.ellipse(canvas, px(hx, hy), (round(30 * self.s), round(22 * self.s)), angle, 0, 360, darker, -1,
                    cv2.LINE_AA)
        return canvas

    def _shadow(self, canvas: np.ndarray, entry: tuple[int, int], hand: tuple[int, int], angle: float) -> None:
        """The hand's soft-edged shadow, cast down and to the right by the room light."""
        if self._shade is None or self._shade.shape != canvas.shape[:2]:
            self._shade = np.zeros(canvas.shape[:2], np.uint8)
        shade = self._shade
        shade[:] = 0
        cv2.line(shade, entry, hand, 255, round(60 * self.s))
        cv2.ellipse(shade, hand, (round(52 * self.s), round(42 * self.s)), angle, 0, 360, 255, -1)
        x, y, w, h = cv2.boundingRect(shade)
        if w == 0 or h == 0:
            return
        region = canvas[y:y + h, x:x + w]
        soft = cv2.blur(shade[y:y + h, x:x + w], (9, 9))
        # OpenCV takes a scalar for the second operand; older stubs list arrays only
        darker = cv2.multiply(region, (SHADOW_DEPTH,) * 3 + (0,), dtype=cv2.CV_8U)  # type: ignore[call-overload, unused-ignore]
        weight = cv2.merge([soft] * 3)
        region[:] = cv2.add(cv2.multiply(darker, weight, scale=1 / 255, dtype=cv2.CV_8U),
                            cv2.multiply(region, cv2.bitwise_not(weight), scale=1 / 255, dtype=cv2.CV_8U))

    def _paste(self, canvas: np.ndarray, card: str, center: tuple[float, float], angle: float) -> None:
        art = self._art.get(card)
        if art is None:
            art = self._art[card] = self._card_art(card)
        h, w = art.shape[:2]
        to_px = self._mm_to_canvas()
        cx, cy = to_px[0, 0] * center[0] + to_px[0, 2], to_px[1, 1] * center[1] + to_px[1, 2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)
        m[:, 2] += (cx - w / 2, cy - h / 2)
        big = int(math.hypot(w, h)) + 4
        x0, y0 = max(0, int(cx - big / 2)), max(0, int(cy - big / 2))
        x1, y1 = min(canvas.shape[1], x0 + big), min(canvas.shape[0], y0 + big)
        m[:, 2] -= (x0, y0)
        patch = cv2.warpAffine(art, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        alpha = patch[..., 3:4].astype(np.float32) / 255.0
        region = canvas[y0:y1, x0:x1]
        region[:] = (patch[..., :3] * alpha + region * (1.0 - alpha)).astype(np.uint8)

    def _card_art(self, card: str) -> np.ndarray:
        art = self._art_fn(card)
        want = (round(CARD_MM[1] * self.s), round(CARD_MM[0] * self.s))
        if art.shape[:2] != want:
            art = cv2.resize(art, want[::-1], interpolation=cv2.INTER_AREA)
        if art.shape[2] == 3:
            art = np.dstack([art, np.full(art.shape[:2], 255, np.uint8)])
        return art

    def _camera_effects(self, frame: np.ndarray, gain: float, index: int) -> np.ndarray:
        if self._vignette is None:
            fh, fw = frame.shape[:2]
            yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
            r2 = ((xx - fw / 2) / fw) ** 2 + ((yy - fh / 2) / fh) ** 2
            shade = np.clip(255.0 * (1.0 - 0.35 * r2), 0, 255).astype(np.uint8)
            self._vignette = cv2.merge([shade, shade, shade])
            rng = np.random.default_rng(self.seed + 1)
            for _ in range(3):
                noise = rng.normal(0, self._noise_level, frame.shape)
                self._noise.append((np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8)))
        if self.grey:
            frame = cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        if self._blur > 0:  # focus and motion blur
            frame = cv2.GaussianBlur(frame, (0, 0), self._blur)
        out = cv2.multiply(frame, self._vignette, scale=gain / 255.0, dtype=cv2.CV_8U)
        plus, minus = self._noise[index % len(self._noise)]
        cv2.add(out, plus, dst=out)
        cv2.subtract(out, minus, dst=out)
        return out


def simulated_decktet(classifier: Embedder, *, px_per_mm: float = 4.0) -> EnrolledDeck:
    """The simulated table's Decktet enrolled for ``classifier``: what a player does once with a
    real Decktet (``pegpi enroll``), so frames of it can be read. Kept in the cache folder (not
    among the player's enrolled decks), one per model."""
    from games.decktet import DECKTET
    from vision.enroll import enroll
    from vision.render.decktet import render_decktet
    from vision.render.npm import data_dir

    folder = data_dir("simulated")
    cached = folder / "simulated-decktet.npz"
    if cached.is_file():
        try:
            deck = EnrolledDeck.load(cached)
        except (OSError, ValueError, KeyError):  # a damaged cache is made again
            deck = None
        if deck is not None and deck.model == classifier.model_id:
            return deck
    names = [card.name for card in DECKTET]
    crops = [render_decktet(name, DECKTET_DESIGN, px_per_mm=px_per_mm) for name in names]
    deck = enroll(classifier, "simulated-decktet", crops, names, save=False, merge=False, augment=SIM_AUGMENT)
    try:
        deck.save(folder)
    except OSError:  # a read-only home: enrol again next time
        pass
    return deck


#: variants per enrolled view of the simulated Decktet (a player's enrolment uses more)
SIM_AUGMENT = 8
