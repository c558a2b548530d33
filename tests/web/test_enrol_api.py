"""The enrolment API: a paired phone teaches the device a deck from frames of the simulated
table (fed to the device's enrolment mode as the table loop would), one batch confirmed,
a renamed card, clear refusals, and the finished deck handed to the card reader."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from device.enrolment import EnrolmentMode
from vision.bench.enrol_table import one_batch
from vision.classify import OnnxCardClassifier, load_default_classifier
from vision.enrol_session import CARD_SETS
from vision.enroll import EnrolledDeck
from vision.sources import Frame
from web import create_app

#: the Decktet-like set, in the order the wizard asks for it
DECKTET = CARD_SETS["decktet"] or ()
#: the batch laid: the first twelve cards asked for, but on outline 5 a card from later in the
#: deck instead of the one asked for (the players rename it)
BATCH = [*DECKTET[:4], "the Sea", *DECKTET[5:12]]


@functools.lru_cache(maxsize=1)
def batch_frames() -> tuple[Frame, ...]:
    return tuple(one_batch(BATCH, seed=4).frames())


@functools.lru_cache(maxsize=1)
def reader() -> OnnxCardClassifier:
    return load_default_classifier(None)


@pytest.fixture
def mode(tmp_path: Path) -> Any:
    got: list[EnrolledDeck] = []
    mode = EnrolmentMode(reader(), folder=tmp_path, on_deck=got.append)
    mode.decks_given = got  # type: ignore[attr-defined]
    return mode


@pytest.fixture
def enrol_app(service: Any, mode: EnrolmentMode) -> Any:
    app = create_app({"TESTING": True, "SECRET_KEY": "test only"}, service=service, enrolment=mode)
    yield app
    app.extensions["pegpi"].hub.close()


def test_a_paired_phone_enrols_a_batch(enrol_app: Any, mode: EnrolmentMode, new_phone: Any, tmp_path: Path) -> None:
    watcher = new_phone(enrol_app)
    assert watcher.get("/api/enrol").get_json()["enrolment"]["active"] is False
    refused = watcher.post("/api/enrol/start", {"deck": "decktet", "cards": "decktet"})
    assert refused.status_code == 403 and "Pair this phone" in refused.get_json()["error"]
    phone = new_phone(enrol_app)
    assert phone.pair().status_code == 200
    assert phone.post("/api/enrol/start", {"deck": " ", "cards": "decktet"}).get_json()["error"] == "Give the deck a name."
    bad = phone.post("/api/enrol/start", {"deck": "decktet", "cards": "tarot"})
    assert bad.status_code == 400 and bad.get_json()["error"].startswith("Unknown card set 'tarot'")
    started = phone.post("/api/enrol/start", {"deck": "decktet", "cards": "decktet"}).get_json()["enrolment"]
    assert started["active"] and started["total"] == 45 and started["enrolled"] == 0
    assert started["expected"] == list(DECKTET[:12]) and "the Sea" not in DECKTET[:12]
    again = phone.post("/api/enrol/start", {"deck": "other", "cards": "decktet"})
    assert again.status_code == 400 and "is being enrolled" in again.get_json()["error"]

    for frame in batch_frames():  # the table loop hands the camera's frames to the mode
        assert mode.take_frame(frame)
    status = watcher.get("/api/enrol").get_json()["enrolment"]
    outlines = status["outlines"]
    assert [o["state"] for o in outlines] == ["card"] * 12
    assert [o["proposal"] for o in outlines] == list(DECKTET[:12])  # laid in order: each as asked
    assert all(o["read"] not in DECKTET for o in outlines)  # the stock model reads none of them
    crop = watcher.get(f"/api/enrol/crop/1.jpg?look={outlines[0]['look']}")
    assert crop.status_code == 200 and crop.data[:2] == b"\xff\xd8"
    names = {str(o["outline"]): o["proposal"] for o in outlines}
    names["5"] = "the sea"  # the card laid there is not the one asked for: the players rename it
    wrong = phone.post("/api/enrol/confirm", {"names": {**names, "6": "Ace of Sheep"}})
    assert wrong.status_code == 400
    assert wrong.get_json()["error"] == (f"Outline 6: 'Ace of Sheep' is not a card of this deck (for example "
                                         f"{', '.join(DECKTET[:3])})")
    assert phone.post("/api/enrol/confirm", {"names": ["AS"]}).status_code == 400
    # outline numbers are ASCII digits: a superscript two or a number of thousands of digits is refused
    for key, shown in (("²", "'²'"), ("9" * 5000, "'99999999...'"), ("-1", "'-1'")):
        odd = phone.post("/api/enrol/confirm", {"names": {key: "AS"}})
        assert odd.status_code == 400 and odd.get_json()["error"].startswith(f"Name outline {shown} with text")
    assert watcher.post("/api/enrol/confirm", {"names": names}).status_code == 403
    done = phone.post("/api/enrol/confirm", {"names": names}).get_json()["enrolment"]
    assert done["enrolled"] == 12 and done["batches"] == 1
    assert done["enrolled_names"][4] == "the Sea"
    assert "the Sea" not in done["expected"] and done["expected"][0] == DECKTET[4]  # asked for, not laid yet

    finished = phone.post("/api/enrol/finish").get_json()["enrolment"]
    assert finished["active"] is False and finished["last"] == "decktet"
    assert (tmp_path / "decktet.npz").exists()
    given = mode.decks_given  # type: ignore[attr-defined]
    assert [d.name for d in given] == ["decktet"] and sorted(given[0].labels) == sorted(BATCH)
    assert mode.take_frame(batch_frames()[0]) is False  # the camera is the game's again
    gone = phone.post("/api/enrol/confirm", {"names": names})
    assert gone.status_code == 400 and gone.get_json()["error"] == "No deck is being enrolled: start one first"


def test_cancel_and_a_device_without_a_model(enrol_app: Any, paired: Any, service: Any, new_phone: Any) -> None:
    phone = new_phone(enrol_app)
    phone.pair()
    phone.post("/api/enrol/start", {"deck": "later", "cards": "standard"})
    assert phone.post("/api/enrol/cancel").get_json()["enrolment"]["active"] is False
    plain = create_app({"TESTING": True, "SECRET_KEY": "test only"}, service=service)
    answer = plain.test_client().get("/api/enrol")
    assert answer.status_code == 404 and "cannot learn decks" in answer.get_json()["error"]
    assert plain.test_client().get("/enrol").status_code == 200
    plain.extensions["pegpi"].hub.close()
