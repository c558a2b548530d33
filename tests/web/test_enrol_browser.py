"""The enrolment page in a real headless Chromium at phone size, against a live waitress: a
phone pairs, opens "Enrol a deck" from Setup, names the deck, sees the twelve cards the camera
read (fed to the device from the simulated table), renames the one laid out of order, enrols
the batch and saves the deck. Screenshots go to test-artifacts/web/. Skips without chromium,
as the other browser tests do (tests/web/ensure_chromium.sh)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.enrolment import EnrolmentMode
from vision.bench.enrol_table import one_batch
from vision.classify import load_default_classifier
from vision.enrol_session import CARD_SETS
from vision.enroll import EnrolledDeck
from web import create_app
from web.serve import Background

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
CODE = "2468"
WAIT_MS = 20_000  # how long to wait for the page to catch up: a wait, not a speed check
DECKTET = CARD_SETS["decktet"] or ()
BATCH = [*DECKTET[:4], "the Sea", *DECKTET[5:12]]  # outline 5 holds a card not asked for


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("PEGPI_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing: run tests/web/ensure_chromium.sh")
        pytest.skip(f"{CHROMIUM} is missing (tests/web/ensure_chromium.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def test_a_phone_walks_one_batch(browser: Any, make_table: Any, record_of: Any, tmp_path: Path) -> None:
    decks: list[EnrolledDeck] = []
    mode = EnrolmentMode(load_default_classifier(None), folder=tmp_path, on_deck=decks.append)
    service = make_table(record_of(), pairing_code=CODE, played=21)
    frames = list(one_batch(BATCH, seed=6).frames())
    context = browser.new_context(viewport={"width": 360, "height": 640}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    with Background(create_app({"SSE_KEEPALIVE": 1.0}, service=service, enrolment=mode), threads=8) as running:
        page.goto(running.url + "/#setup")
        page.click("#pair-open")
        page.fill("#pair-code", CODE)
        page.click("#pair-send")
        page.wait_for_selector("#pair-open.paired")
        page.click("#enrol-link")
        page.wait_for_selector("#enrol-start:not([hidden])")
        page.fill("#enrol-name", "decktet")
        page.select_option("#enrol-cards", "decktet")
        page.click("#enrol-begin")
        page.wait_for_selector("#enrol-run:not([hidden])")
        assert page.locator("#enrol-progress").inner_text() == "0/45 cards enrolled"
        assert DECKTET[0] in page.locator("#enrol-expected").inner_text()
        for frame in frames:  # the players lay the batch; the camera's frames reach the mode
            mode.take_frame(frame)
        page.wait_for_selector("#enrol-outlines input[name='outline-12']")
        shown = page.locator("#enrol-outlines img")
        assert shown.count() == 12  # each outline's crop, as the table cut it
        assert all(shown.nth(i).evaluate("(img) => img.decode().then(() => img.naturalWidth)") > 0
                   for i in range(12))
        assert page.locator("#enrol-outlines input").count() == 12
        assert page.input_value("input[name='outline-5']") == DECKTET[4]  # what it asked for there
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "enrol-batch.png"), full_page=True)
        page.fill("input[name='outline-5']", "the sea")
        page.fill("input[name='outline-6']", "Ace of Sheep")
        page.click("#enrol-confirm")
        page.wait_for_selector("#toast:not([hidden])")
        assert "Outline 6: 'Ace of Sheep' is not a card of this deck" in page.locator("#toast").inner_text()
        page.fill("input[name='outline-6']", DECKTET[5])
        page.click("#enrol-confirm")
        page.wait_for_selector("body[data-enrolled='12']", state="attached")
        assert page.locator("#enrol-progress").inner_text() == "12/45 cards enrolled"
        page.wait_for_selector("#enrol-outlines li.enrolled >> nth=11")
        assert "enrolled as the Sea" in page.locator("#enrol-outlines li").nth(4).inner_text()
        page.screenshot(path=str(ARTIFACTS / "enrol-confirmed.png"), full_page=True)
        page.click("#enrol-finish")  # only 12 of 45: the page asks first (accepted above)
        page.wait_for_selector("#enrol-last:not([hidden])")
        assert "“decktet” is saved" in page.locator("#enrol-last").inner_text()
    context.close()
    assert errors == []
    assert [d.name for d in decks] == ["decktet"] and sorted(decks[0].labels) == sorted(BATCH)
    assert (tmp_path / "decktet.npz").exists()
