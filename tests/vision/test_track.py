"""The tracker on hand-made sightings and a fake clock: placing, removing, occlusion, classify on change."""

from __future__ import annotations

import numpy as np
import pytest

from vision.api import Prediction
from vision.locate import SIGNATURE, SeenCard, Sighting
from vision.mat import layout_for
from vision.track import Tracker, TrackerConfig

LAYOUT = layout_for("pegging", 2)
QUAD = np.zeros((4, 2), np.float32)


def look(seed: int) -> np.ndarray:
    """A random normalised signature: different seeds are different cards."""
    v = np.random.default_rng(seed).normal(size=SIGNATURE[0] * SIGNATURE[1]).astype(np.float32)
    v -= v.mean()
    return v / np.linalg.norm(v)


LOOKS = {"7H": look(1), "8C": look(2), "JS": look(3), "KD": look(4)}


def card(name: str, zone: str = "seat0", slot: int = 0, noise: float = 0.0, seed: int = 0) -> SeenCard:
    sig = LOOKS[name] + noise * look(100 + seed)
    return SeenCard(zone, slot, QUAD, sig / np.linalg.norm(sig))


class Reader:
    """Stand-in classifier: recognises a sighting by which known look it matches; counts what it is asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, cards):
        out = []
        for c in cards:
            name = max(LOOKS, key=lambda n: float(np.dot(LOOKS[n], c.signature)))
            self.asked.append(name)
            out.append(Prediction(name, 0.9))
        return out


def feed(tracker, reader, frames, t0=0.0, dt=1 / 30):
    """frames: list of (cards, occluded zones); returns [(frame index, event)]."""
    out = []
    for i, (cards, occluded) in enumerate(frames):
        for e in tracker.update(Sighting(tuple(cards), frozenset(occluded)), t0 + i * dt, reader):
            out.append((i, e))
    return out


@pytest.mark.parametrize("stable", [1, 3, 5])
def test_a_card_is_placed_after_the_configured_number_of_stable_frames(stable):
    tracker, reader = Tracker(LAYOUT, TrackerConfig(stable_frames=stable)), Reader()
    frames = [([], ())] * 2 + [([card("7H", noise=0.1, seed=i)], ()) for i in range(10)]
    events = feed(tracker, reader, frames)
    assert [(i, e.zone, e.slot, e.card, e.kind) for i, e in events] == [(2 + stable - 1, "seat0", 0, "7H", "placed")]
    assert events[0][1].t == pytest.approx((2 + stable - 1) / 30)
    assert reader.asked == ["7H"]  # classified once, not every frame


def test_a_flicker_shorter_than_the_stable_frames_is_no_card():
    tracker, reader = Tracker(LAYOUT, TrackerConfig(stable_frames=3)), Reader()
    frames = [([card("7H")], ()), ([card("7H")], ()), ([], ()), ([card("7H")], ()), ([], ())] * 3
    assert feed(tracker, reader, frames) == []
    assert reader.asked == []


def test_removal_waits_for_the_removal_time_on_the_frames_clock():
    tracker, reader = Tracker(LAYOUT, TrackerConfig(stable_frames=2, removal_s=0.5)), Reader()
    frames = [([card("7H")], ())] * 3 + [([], ())] * 30
    events = feed(tracker, reader, frames, dt=0.1)
    assert [(i, e.kind, e.card) for i, e in events] == [(1, "placed", "7H"), (8, "removed", "7H")]
    assert events[1][1].t == pytest.approx(0.8)  # gone from t=0.3, removed once 0.5 s have passed


def test_a_hand_over_the_zone_is_occlusion_not_removal():
    tracker, reader = Tracker(LAYOUT, TrackerConfig(stable_frames=2, removal_s=0.3)), Reader()
    hand = ([], ("seat0", "crib"))
    frames = [([card("7H")], ())] * 3 + [hand] * 40 + [([card("7H", noise=0.05)], ())] * 5
    events = feed(tracker, reader, frames)
    assert [(e.kind, e.card) for _, e in events] == [("placed", "7H")]
    assert reader.asked == ["7H", "7H"]  # read once more after the hand: it may have swapped the card


@pytest.mark.parametrize(("zone", "table", "expected"), [
    ("pile", "pile", [("placed", "JS"), ("placed", "JH")]),
    ("seat0", "pegging", [("placed", "JS"), ("removed", "JS"), ("placed", "JH")]),
])
def test_a_look_alike_swapped_under_a_hand_is_caught(zone, table, expected):
    readings = [Prediction("JS", 0.9), Prediction("JH", 0.9)]
    tracker = Tracker(layout_for(table, 2), TrackerConfig(stable_frames=2))
    frames = [([card("JS", zone)], ())] * 3 + [([], (zone,))] * 5 + [([card("JS", zone, noise=0.02)], ())] * 4
    events = feed(tracker, lambda cards: [readings.pop(0) for _ in cards], frames)
    assert [(e.kind, e.card) for _, e in events] == expected


@pytest.mark.parametrize(("second", "expected"), [
    ("JS", [("placed", "JC"), ("removed", "JS")]),  # read right after the hand: nothing changed
    ("JC", [("placed", "JC"), ("removed", "JS")]),  # misread again: still the card the players named
    ("KD", [("placed", "JC"), ("removed", "JS"), ("placed", "KD"), ("removed", "KD")]),  # a card swapped in
])
def test_a_card_the_players_corrected_stays_corrected(second, expected):
    readings = [Prediction("JC", 0.7), Prediction(second, 0.95)]
    tracker = Tracker(LAYOUT, TrackerConfig(stable_frames=2, removal_s=0.1))
    look_again = [([], ("seat0",))] * 5 + [([card("JS", noise=0.02)], ())] * 4
    events = feed(tracker, lambda cards: [readings.pop(0) for _ in cards], [([card("JS")], ())] * 3)
    tracker.correct("seat0", 0, "JS")  # the device asked; the players said the jack of spades
    assert tracker.on_table() == {("seat0", 0): "JS"}
    events += feed(tracker, lambda cards: [readings.pop(0) for _ in cards], look_again + [([], ())] * 6, t0=1.0)
    assert [(e.kind, e.card) for _, e in events] == expected and readings == []


@pytest.mark.parametrize(("look_again", "expected"), [(0.85, "JS"), (0.0, "JC")])
def test_a_card_read_below_the_asking_threshold_is_looked_at_again_first(look_again, expected):
    # the hand leaving still covers part of the jack of spades: its first look reads the jack of clubs
    readings = [Prediction("JC", 0.55), Prediction("JS", 0.99), Prediction("JS", 0.99)]
    tracker = Tracker(LAYOUT, TrackerConfig(stable_frames=2, retries=2, retry_frames=2, look_again=look_again))
    events = feed(tracker, lambda cards: [readings.pop(0) for _ in cards], [([card("JS")], ())] * 8)
    assert [(e.kind, e.card) for _, e in events] == [("placed", expected)]


def test_a_doubtful_second_look_keeps_the_card():
    readings = [Prediction("7H", 0.9)] + [Prediction("unknown", 0.2)] * 3
    tracker = Tracker(LAYOUT, TrackerConfig(stable_frames=2, retries=2, retry_frames=2))
    frames = [([card("7H")], ())] * 3 + [([], ("seat0",))] * 5 + [([card("7H")], ())] * 12
    events = feed(tracker, lambda cards: [readings.pop(0) for _ in cards], frames)
    assert [(e.kind, e.card) for _, e in events] == [("placed", "7H")]
    assert readings == [] and tracker.on_table() == {("seat0", 0): "7H"}


@pytest.mark.parametrize(("second", "expected"), [
    (Prediction("4S", 0.74), [("placed", "9S")]),  # shaded by a hand still near: not unseated
    (Prediction("JH", 0.95), [("placed", "9S"), ("removed", "9S"), ("placed", "JH")]),  # a swap
])
def test_a_card_read_well_is_only_unseated_by_a_sure_look_after_a_hand(second, expected):
    readings = [Prediction("9S", 0.99)] + [second] * 3
    tracker = Tracker(LAYOUT, TrackerConfig(stable_frames=2, retries=2, retry_frames=2, look_again=0.85))
    frames = [([card("7H")], ())] * 3 + [([], ("seat0",))] * 5 + [([card("7H", noise=0.02)], ())] * 12
    events = feed(tracker, lambda cards: [readings.pop(0) for _ in cards], frames)
    assert [(e.kind, e.card) for _, e in events] == expected
    assert tracker.on_table() == {("seat0", 0): expected[-1][1]}


def test_on_a_pile_a_doubtful_read_after_a_hand_is_a_new_card():
    # a hand over a pile usually lays a card on it: an unsure reading of another card is that card
    readings = [Prediction("9S", 0.99)] + [Prediction("4S", 0.74)] * 3
    tracker = Tracker(layout_for("pile", 2), TrackerConfig(stable_frames=2, retries=2, retry_frames=2,
                                                           look_again=0.85))
    frames = [([card("7H", "pile")], ())] * 3 + [([], ("pile",))] * 5 + [([card("7H", "pile", noise=0.02)], ())] * 12
    events = feed(tracker, lambda cards: [readings.pop(0) for _ in cards], frames)
    assert [(e.kind, e.card) for _, e in events] == [("placed", "9S"), ("placed", "4S")]


def test_a_different_card_in_the_same_slot_is_a_removal_and_a_placement():
    tracker, reader = Tracker(LAYOUT, TrackerConfig(stable_frames=2, removal_s=5.0)), Reader()
    frames = [([card("7H")], ())] * 3 + [([], ("seat0",))] * 4 + [([card("KD")], ())] * 3
    events = feed(tracker, reader, frames)
    assert [(e.kind, e.card) for _, e in events] == [("placed", "7H"), ("removed", "7H"), ("placed", "KD")]


def test_same_card_with_a_new_look_gives_no_event():
    class Always7H(Reader):
        def __call__(self, cards):
            self.asked += ["7H"] * len(cards)
            return [Prediction("7H", 0.9) for _ in cards]

    tracker, reader = Tracker(LAYOUT, TrackerConfig(stable_frames=2)), Always7H()
    frames = [([card("7H")], ())] * 3 + [([card("8C")], ())] * 3  # the light changed its look completely
    events = feed(tracker, reader, frames)
    assert [(e.kind, e.card) for _, e in events] == [("placed", "7H")]
    assert reader.asked == ["7H", "7H"]


def test_slots_and_zones_are_tracked_apart_and_the_mat_lost_freezes_everything():
    tracker, reader = Tracker(LAYOUT, TrackerConfig(stable_frames=2, removal_s=0.2)), Reader()
    both = [card("7H", "seat0", 0), card("8C", "crib", 2)]
    events = feed(tracker, reader, [(both, ())] * 2)
    assert sorted((e.zone, e.slot, e.card) for _, e in events) == [("crib", 2, "8C"), ("seat0", 0, "7H")]
    for i in range(20):  # mat not seen for a while: nothing is removed
        assert tracker.update(None, 1.0 + i * 0.1, reader) == []
    assert tracker.on_table() == {("seat0", 0): "7H", ("crib", 2): "8C"}


def test_a_pile_zone_covering_a_card_is_not_a_removal():
    layout = layout_for("pile", 2)
    tracker, reader = Tracker(layout, TrackerConfig(stable_frames=2)), Reader()
    frames = [([card("7H", "pile")], ())] * 3 + [([card("JS", "pile")], ())] * 3
    events = feed(tracker, reader, frames)
    assert [(e.kind, e.card) for _, e in events] == [("placed", "7H"), ("placed", "JS")]


def test_an_unsure_reading_is_tried_again_before_it_is_reported():
    answers = [Prediction("unknown", 0.2), Prediction("7H", 0.35), Prediction("7H", 0.9)]

    def hesitant(cards):
        return [answers.pop(0) for _ in cards]

    config = TrackerConfig(stable_frames=2, retries=2, retry_frames=3)
    tracker = Tracker(LAYOUT, config)
    events = feed(tracker, hesitant, [([card("7H")], ())] * 12)
    # frames 1 (unknown), 4 (unsure 7H), 7 (sure): reported once, at the sure reading
    assert [(i, e.card, e.confidence) for i, e in events] == [(7, "7H", 0.9)]
    assert answers == []


def test_a_card_never_read_is_reported_as_unknown_after_the_retries():
    calls = []

    def blind(cards):
        calls.append(len(cards))
        return [Prediction("unknown", 0.1) for _ in cards]

    tracker = Tracker(LAYOUT, TrackerConfig(stable_frames=2, retries=2, retry_frames=3))
    events = feed(tracker, blind, [([card("7H")], ())] * 20)
    assert [(i, e.card, e.kind) for i, e in events] == [(7, "unknown", "placed")]
    assert len(calls) == 3


def test_a_card_whose_outline_is_found_two_ways_in_turn_is_still_placed():
    # touching its neighbour, a card's outline is cut one way, then the other: two looks in turn
    tracker, reader = Tracker(LAYOUT, TrackerConfig(stable_frames=3)), Reader()
    first = card("7H")
    second = SeenCard("seat0", 0, QUAD, look(77))
    frames = [([first if i % 2 == 0 else second], ()) for i in range(8)]
    events = feed(tracker, reader, frames)
    assert [(e.kind, e.slot) for _, e in events] == [("placed", 0)]
