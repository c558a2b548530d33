"""The phone page in a real headless Chromium at phone size (360x640), against a live waitress.

A replayed game is watched as it updates over Server-Sent Events; then the phone pairs, says go,
undoes it, corrects a misread card from the history and enters a card by tapping. Screenshots
go to test-artifacts/web/. Needs Debian's chromium (tests/web/ensure_chromium.sh); without it
these tests skip, unless PEGPI_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from web import create_app
from web.serve import Background

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
        "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
CODE = "2468"
WAIT_MS = 15_000  # how long to wait for the page to catch up: a wait, not a speed check


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


@pytest.fixture
def table(record_of: Any, make_table: Any) -> Iterator[tuple[str, Any]]:
    """The table's Session, served by waitress on a free loopback port, replaying a record: the
    starter of the second deal has just been turned (21 actions)."""
    service = make_table(record_of(), pairing_code=CODE, played=21)
    with Background(create_app({"SSE_KEEPALIVE": 1.0}, service=service), threads=8) as running:
        yield running.url, service


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 360, "height": 640}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # a request the test's own navigation cancels (net::ERR_ABORTED) is not the page failing
    page.on("requestfailed", lambda request: errors.append(f"{request.url}: {request.failure}")
            if "/api/stream" not in request.url and "/camera.jpg" not in request.url
            and "ERR_ABORTED" not in (request.failure or "") else None)
    yield page
    context.close()
    assert errors == []


def shot(page: Any, name: str) -> None:
    page.wait_for_selector("#toast", state="hidden")  # as a player sees it, once the note has gone
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def wait_actions(page: Any, count: int) -> None:
    page.wait_for_selector(f"body[data-actions='{count}']", state="attached")


def scores_shown(page: Any) -> list[int]:
    return [int(text.split("+")[0]) for text in page.locator(".side .score").all_inner_texts()]


def fits_the_phone(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_replayed_game_is_watched_live(table: tuple[str, Any], page: Any) -> None:
    url, service = table
    page.goto(url)
    wait_actions(page, 21)
    page.wait_for_selector(".live.on")
    assert page.locator("#starter .card").get_attribute("data-card") == "2C"
    for n in range(22, 28):
        service.step()  # as if the camera had just read a card
        wait_actions(page, n)
        assert page.locator("#pile .card").last.get_attribute("data-card") == \
            service.history()[-1].action["card"]
    view = service.view().to_json()
    assert scores_shown(page) == [s["score"] for s in view["sides"]]
    assert page.locator("#count").inner_text() == str(view["count"]) == "27"
    assert page.locator("#prompt").inner_text() == view["prompt"]
    assert page.locator(".side.turn .name").inner_text() == "Ann"
    assert page.locator("#pegboard .peg-front").count() == 2
    assert fits_the_phone(page)
    shot(page, "board")
    while view["phase"] != "show" or not view["show"]:
        service.step()
        view = service.view().to_json()
    wait_actions(page, view["actions"])
    page.locator("#show").scroll_into_view_if_needed()
    says = page.locator("#show li .pts").all_inner_texts()
    assert says == [item["say"] for item in view["show"]["items"]]
    assert page.locator("#show .total").inner_text().startswith(str(view["show"]["total"]))
    shot(page, "show")
    page.click("a[data-tab=history]")
    page.wait_for_selector(f".act[data-index='{view['actions'] - 1}']")
    assert fits_the_phone(page)
    shot(page, "history")


def test_pair_undo_correct_and_tap_a_card(table: tuple[str, Any], page: Any) -> None:
    url, service = table
    for _ in range(6):
        service.step()  # Ann to play at a count of 27
    page.goto(url + "#fix")
    wait_actions(page, 27)
    assert page.locator("#fix-locked").is_visible()
    # pair: a wrong code first
    page.click("#fix-locked [data-pair]")
    page.fill("#pair-code", "1357")
    page.click("#pair-send")
    page.wait_for_selector("#pair-error:not([hidden])")
    assert "not the code" in page.locator("#pair-error").inner_text()
    page.fill("#pair-code", CODE)
    page.click("#pair-seat button[data-seat='0']")
    shot(page, "pair")
    page.click("#pair-send")
    page.wait_for_selector("#fix-open:not([hidden])")
    assert page.locator("#pair-open").inner_text() == "Ann"
    # say go for Ann, then undo it
    assert page.locator("#go").inner_text() == "Go for Ann"
    page.click("#go")
    wait_actions(page, 28)
    last = service.history()[-1]
    assert (last.action, last.source) == ({"act": "go", "player": 0}, "phone")
    page.click("#undo")
    wait_actions(page, 27)
    assert len(service.history()) == 27
    # the camera misread Bob's 4C as the 4S: fix it from the history
    assert service.history()[26].action == {"act": "play", "player": 1, "card": "4S"}
    page.click("a[data-tab=history]")
    page.click(".act[data-index='26'] button.fix")
    page.wait_for_selector("#entry-title:has-text('Correct action 27')")
    page.click("#picker button[data-rank='4']")
    page.click("#picker button[data-suit='C']")
    assert page.locator("#entry-cards .card").get_attribute("data-card") == "4C"
    page.locator("#entry").evaluate("form => form.scrollIntoView()")
    shot(page, "correct")
    page.click("#entry-send")
    page.wait_for_selector(".toast:has-text('corrected')")
    assert service.history()[26].action["card"] == "4C"
    assert page.locator("#pile .card").last.get_attribute("data-card") == "4C"
    # no camera: Ann's ace of clubs entered by tapping
    assert page.locator("#entry-title").inner_text() == "Enter an action"
    assert page.locator("#entry-act").input_value() == "play"
    assert page.locator("#entry-player button[aria-pressed=true]").inner_text() == "Ann"
    page.click("#picker button[data-rank='A']")
    page.click("#picker button[data-suit='C']")
    page.click("#entry-send")
    wait_actions(page, 28)
    assert service.history()[-1].action == {"act": "play", "player": 0, "card": "AC"}
    assert page.locator("#count").inner_text() == "28"
    # a refusal is shown as the engine words it
    page.click("#picker button[data-rank='K']")
    page.click("#picker button[data-suit='D']")
    page.click("#entry-send")
    page.wait_for_selector(".toast:has-text('over 31')")
    assert len(service.history()) == 28
    # any action of any game, written as in a game record
    page.select_option("#entry-act", "other")
    page.fill("#entry-raw", '{"act": "go", "player": 1}')
    page.click("#entry-send")
    wait_actions(page, 29)
    assert service.history()[-1].action == {"act": "go", "player": 1}
    assert fits_the_phone(page)


def test_a_watcher_cannot_change_anything(table: tuple[str, Any], page: Any) -> None:
    url, service = table
    page.goto(url)
    wait_actions(page, 21)
    status = page.evaluate("""async () => (await fetch('/api/undo', {method: 'POST',
        headers: {'X-CSRF-Token': document.querySelector('meta[name=csrf-token]').content}})).status""")
    assert status == 403
    assert len(service.history()) == 21
    page.click("a[data-tab=setup]")
    page.wait_for_selector("#setup-game option[value=cribbage5]", state="attached")
    assert page.locator("#setup-start").is_disabled()
    page.click("a[data-tab=camera]")
    page.wait_for_selector("#camera-note:has-text('No camera')")


def pair(page: Any, seat: int | None = None) -> None:
    page.click("#pair-open")
    page.fill("#pair-code", CODE.lower() if not CODE.isdigit() else CODE)
    if seat is not None:
        page.click(f"#pair-seat button[data-seat='{seat}']")
    page.click("#pair-send")
    page.wait_for_selector("#pair-open.paired")


def test_the_device_asks_and_a_phone_answers(table: tuple[str, Any], page: Any) -> None:
    from device.protocols import Ask

    url, session = table
    for _ in range(6):
        session.step()  # Ann to play at a count of 27
    page.goto(url)
    wait_actions(page, 27)
    pair(page)
    with session._lock:  # what the pegging protocol does with a card it read with low confidence
        session.protocol.ask = Ask("confirm", "is that the AC in Ann's row? OK, or correct it",
                                   actions=[session.game.action_from_json({"act": "play", "player": 0, "card": "AC"})])
    session.publish_view()
    page.wait_for_selector("#ask-link:not([hidden])")
    assert "is that the AC" in page.locator("#ask-link").inner_text()
    shot(page, "ask")
    page.click("#ask-link")
    page.wait_for_selector("#ask:not([hidden])")
    page.click("#ask-ok")
    wait_actions(page, 28)
    assert session.history()[-1].action == {"act": "play", "player": 0, "card": "AC"}
    page.wait_for_selector("#ask", state="hidden")


def test_a_deck_the_table_misreads_brings_the_offer_to_teach_it(table: tuple[str, Any], page: Any) -> None:
    url, session = table
    page.goto(url)
    wait_actions(page, 21)
    pair(page)
    assert page.locator("#teach").is_hidden()
    with session._lock:  # the camera records Ann's 3S and Bob's 4D
        session.apply([{"act": "play", "player": 0, "card": "3S"}], source="table")
        session.apply([{"act": "play", "player": 1, "card": "4D"}], source="table")
    wait_actions(page, 23)
    session.correct(21, {"act": "play", "player": 0, "card": "3C"})  # the players fix what was misread
    assert page.locator("#teach").is_hidden()  # one misreading may be bad luck
    session.correct(22, {"act": "play", "player": 1, "card": "4H"})
    page.wait_for_selector("#teach:not([hidden])")
    assert "read 2 cards of this game as others" in page.locator("#teach").inner_text()
    assert fits_the_phone(page)
    shot(page, "teach")
    page.click("#teach-close")  # not now: gone until the table misreads another card
    page.wait_for_selector("#teach", state="hidden")
    with session._lock:
        session.apply([{"act": "play", "player": 0, "card": "AH"}], source="table")
    session.correct(23, {"act": "play", "player": 0, "card": "AD"})
    page.wait_for_selector("#teach:not([hidden])")
    assert "read 3 cards" in page.locator("#teach").inner_text()
    page.click("#teach-link")
    page.wait_for_url("**/enrol")


def test_a_deck_the_table_keeps_asking_about_brings_the_offer_too(table: tuple[str, Any], page: Any) -> None:
    from device.protocols import Ask
    from device.session import TEACH_ASKED

    url, session = table
    page.goto(url)
    wait_actions(page, 21)
    for card in [rank + suit for suit in "SHDC" for rank in "23456789"][:TEACH_ASKED]:
        with session._lock:  # what a table protocol does with each card it read unsurely
            before = session.protocol.ask
            session.protocol.ask = Ask("confirm", f"is that the {card}? OK, or correct it", card=card)
            session._asked(before)
    page.wait_for_selector("#teach:not([hidden])")
    assert f"asked about {TEACH_ASKED} cards of this game" in page.locator("#teach").inner_text()


def test_set_up_a_game_that_is_not_pegged(table: tuple[str, Any], page: Any) -> None:
    url, session = table
    page.goto(url + "#setup")
    wait_actions(page, 21)
    pair(page, seat=0)
    page.wait_for_selector("#setup-game option[value=ohhell]", state="attached")
    page.select_option("#setup-game", "ohhell")
    page.click("#setup-count button:has-text('3')")
    assert page.locator("#setup-mat-pdf").get_attribute("href") == "/api/mat/ohhell/3.pdf"  # the mat it needs
    for i, name in enumerate(["Cy", "Di", "Ed"]):
        page.locator("#setup-names input").nth(i).fill(name)
    page.on("dialog", lambda dialog: dialog.accept())  # "Start a new game? This one ends."
    page.click("#setup-start")
    page.wait_for_selector("body[data-actions='0']", state="attached")
    view = session.view().to_json()
    assert view["game"] == "ohhell" and view["players"] == ["Cy", "Di", "Ed"]
    assert page.locator("#pegboard").is_hidden()
    assert page.locator("#score-table th").all_inner_texts() == ["", "Cy", "Di", "Ed"]
    assert page.locator("#score-table tfoot td").all_inner_texts() == ["Total", "0", "0", "0"]
    # a new table: seats are chosen again (the phone's own state comes a moment after the view)
    page.wait_for_selector("#pair-open:text-is('Paired')", timeout=WAIT_MS)
    assert page.locator("#this-mat").get_attribute("href") == "/api/mat/ohhell/3.pdf"
    assert fits_the_phone(page)
    shot(page, "ohhell")


# -- the camera's picture ------------------------------------------------------------------------


def jpeg(colour: tuple[int, int, int], size: tuple[int, int] = (320, 240)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", quality=95)
    return out.getvalue()


@pytest.fixture
def served(record_of: Any, make_table: Any) -> Iterator[tuple[str, Any]]:
    service = make_table(record_of(), pairing_code=CODE, played=21)
    with Background(create_app({"SSE_KEEPALIVE": 1.0, "CAMERA_REFRESH_MS": 300}, service=service)) as running:
        yield running.url, service


def test_the_camera_tab_shows_the_camera_picture(served: tuple[str, Any], page: Any) -> None:
    url, service = served
    service.set_frame_provider(lambda: jpeg((200, 30, 30)))
    page.goto(url + "#camera")
    shown = 0
    for _ in range(WAIT_MS // 100):  # wait_for_function would need eval, which the CSP forbids
        shown = page.evaluate("document.getElementById('camera').naturalWidth")
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == 320
    picture = Image.open(io.BytesIO(page.locator("#camera").screenshot())).convert("RGB")
    r, g, b = picture.getpixel((picture.width // 2, picture.height // 2))
    assert r > 150 and g < 80 and b < 80, (r, g, b)


def scanned(page: Any, selector: str, ending: str = "") -> str:
    """What a QR reader finds in the picture ``selector`` as the phone shows it (waiting, as long
    as the page's waits, for a reading that ends with ``ending``)."""
    import cv2
    import numpy as np

    # looked at again until it reads: a picture whose source was just changed may still show the
    # one before, or be half drawn, as a phone's camera would also find for a moment
    found = ""
    readers = (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco())
    for _ in range(WAIT_MS // 100):
        if page.evaluate(f"(e => e.complete && e.naturalWidth > 0)(document.querySelector('{selector}'))"):
            pixels = np.array(Image.open(io.BytesIO(page.locator(selector).screenshot())).convert("L"))
            # as a phone sees it: the picture on the page with the page round it (light, as a
            # reader wants), at its size and at twice it. Two of OpenCV's readers, as a phone's is
            # surer than either: its classic one misses about 1 code in 250 of these addresses
            # (a port's digits decide), its ArUco-based one none of 533 tried
            framed = cv2.copyMakeBorder(pixels, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)
            for shown in (framed, cv2.resize(framed, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)):
                for reader in readers:
                    found = str(reader.detectAndDecode(shown)[0])
                    if found:
                        break
                if found:
                    break
            if found and found.endswith(ending):
                break
        page.wait_for_timeout(100)
    return found


def test_the_address_and_the_pairing_link_are_qr_codes(served: tuple[str, Any], page: Any) -> None:
    url, service = served
    port = url.rstrip("/").rsplit(":", 1)[1]
    page.goto(url)
    wait_actions(page, 21)
    page.click("#pair-open")
    page.wait_for_selector("#pair-address:not([hidden])")
    address = scanned(page, "#pair-address-qr")
    assert address.startswith("http://") and address.endswith(f":{port}/") and "localhost" not in address
    assert address in page.locator("#pair-address-url").inner_text()
    page.click("#pair-cancel")
    # the link in the paired phone's code opens the Pair dialog filled in
    page.goto(url + "#pair=" + CODE)
    page.wait_for_selector("#pair-dialog[open]")
    assert page.locator("#pair-code").input_value() == CODE
    page.click("#pair-seat button[data-seat='1']")
    page.click("#pair-send")
    page.wait_for_selector("#pair-open.paired")
    assert page.locator("#pair-open").inner_text() == "Bob"
    page.click("a[data-tab=setup]")
    page.wait_for_selector("#invite:not([hidden])")
    assert scanned(page, "#invite-qr", f"#pair={CODE}").endswith(f":{port}/#pair={CODE}")


# -- only facts of the deal on the table -----------------------------------------------------------


@pytest.fixture
def serve_record(make_table: Any) -> Iterator[Any]:
    """``serve_record(record, played)``: the table's Session replaying ``record``, served live."""
    running: list[Any] = []

    def serve(record: dict[str, Any], played: int) -> tuple[str, Any]:
        service = make_table(record, pairing_code=CODE, played=played)
        server = Background(create_app({"SSE_KEEPALIVE": 1.0}, service=service)).__enter__()
        running.append(server)
        return server.url, service

    yield serve
    for server in running:
        server.stop()


def test_the_board_shows_only_this_deal_s_facts(serve_record: Any, record_of: Any, page: Any) -> None:
    url, service = serve_record(record_of(known_hands=True), 15)  # Bob has shown his hand
    page.goto(url)
    wait_actions(page, 15)
    assert page.locator("#show .label").text_content() == "Bob's hand"
    service.step()  # Ann shows: Bob's count stays on the page, a line above
    wait_actions(page, 16)
    assert page.locator("#show .label").text_content() == "Ann's hand"
    assert page.locator("#shows-before").text_content().startswith("Bob's hand 2")
    service.step()  # Ann's crib
    wait_actions(page, 17)
    assert page.locator("#show .label").text_content() == "Ann's crib"
    assert "Ann's crib" in page.locator("#deal").inner_text()  # not the next dealer's
    service.step()  # Bob deals: the counts stay until the next card, the last score goes
    wait_actions(page, 18)
    assert page.locator("#show .label").text_content() == "Ann's crib"
    assert page.locator("#last").is_hidden()
    assert page.locator(".side .gain").count() == 0
    assert "Bob's crib" in page.locator("#deal").inner_text()
    for n in (19, 20, 21):  # discards, then the starter is turned: the counts go
        service.step()
        wait_actions(page, n)
    assert page.locator("#show").is_hidden() and page.locator("#shows-before").is_hidden()
    # his heels is said once
    while len(service.history()) < 38:
        service.step()
    wait_actions(page, 38)
    assert page.locator("#last").inner_text().splitlines()[-1] == "Ann +2 his heels 2"


def test_history_puts_points_on_the_scorer_s_line_and_shows_cards(serve_record: Any, page: Any) -> None:
    from device.board import samples

    plays = [{"act": "play", "player": p, "card": c} for p, c in samples.SHOW_PLAY]
    record = {"game": "cribbage", "players": ["Ann", "Bob"],
              "actions": [*samples.GOES, {"act": "go", "player": 0}]}
    url, _ = serve_record(record, len(record["actions"]))
    page.goto(url + "#history")
    last = len(record["actions"]) - 1
    row = page.locator(f".act[data-index='{last}']")
    row.wait_for()
    assert "Ann: go" in row.inner_text() and "Bob +1" not in row.inner_text()
    assert page.locator(".act.pegs").first.inner_text().strip() == "Bob +1: go for 1"
    # a show told without its cards lists the cards it counted
    record = {"game": "cribbage", "players": ["Ann", "Bob"],
              "actions": [*samples.SHOW_DEAL, *plays, {"act": "show", "player": 1}]}
    url, _ = serve_record(record, len(record["actions"]))
    page.goto(url + "#history")
    row = page.locator(f".act[data-index='{len(record['actions']) - 1}']")
    row.wait_for()
    shown = [c.get_attribute("data-card") for c in row.locator(".card").all()]
    assert sorted(shown) == sorted(["5H", "5S", "JD", "4C", "5D"])


def test_the_board_s_labels_read_on_a_phone(table: tuple[str, Any], page: Any) -> None:
    url, _ = table
    page.goto(url)
    wait_actions(page, 21)
    heights = page.evaluate("[...document.querySelectorAll('#pegboard text')].map("
                            "(t) => [t.textContent, t.getBoundingClientRect().height])")
    assert {text for text, _ in heights} >= {"41", "81", "121", "S", "SS"}
    assert min(height for _, height in heights) >= 11, heights
    shot(page, "board-labels")


# -- the pile games: stacks, slaps, God's rule -------------------------------------------------------


def _served(make_table: Any, record: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    service = make_table(record, pairing_code=CODE, played=len(record["actions"]))
    with Background(create_app({"SSE_KEEPALIVE": 1.0}, service=service), threads=8) as running:
        yield running.url, service


@pytest.fixture
def ratscrew(make_table: Any) -> Iterator[tuple[str, Any]]:
    record = {"game": "ratscrew", "players": ["Ann", "Bob", "Cy"],
              "actions": [{"act": "deal", "dealer": 2}, {"act": "play", "player": 0, "card": "9S"},
                          {"act": "play", "player": 1, "card": "9D"}]}
    yield from _served(make_table, record)


@pytest.fixture
def eleusis(make_table: Any) -> Iterator[tuple[str, Any]]:
    record = {"game": "eleusis", "players": ["Ann", "Bob", "Cy", "Di"], "actions": [{"act": "deal", "dealer": 0}]}
    yield from _served(make_table, record)


def test_the_stacks_show_and_a_slap_is_tapped(ratscrew: tuple[str, Any], page: Any) -> None:
    url, session = ratscrew
    page.goto(url)
    wait_actions(page, 3)
    assert page.locator("#pile-box .stack b").all_inner_texts() == ["17", "16", "17"]
    assert "pair" in page.locator("#pile-box .slappable").inner_text()
    pair(page, seat=2)
    page.click("#pile-box button.slap")
    wait_actions(page, 4)
    assert session.entries[-1].action == {"act": "slap", "player": 2}
    assert page.locator("#pile-box .stack b").all_inner_texts() == ["17", "16", "19"]
    assert "Cy slapped pair" in page.locator("#pile-box .ruling").inner_text()


def test_god_builds_the_rule_on_gods_phone_only(eleusis: tuple[str, Any], page: Any, browser: Any) -> None:
    url, session = eleusis
    page.goto(url)
    wait_actions(page, 1)
    assert page.locator("#rule-box").is_hidden()  # a watcher: no rule, no library
    pair(page, seat=0)
    page.wait_for_selector("#rule-box:not([hidden])")
    page.locator("#rule-box .rule-row select").nth(1).select_option("is")  # a card is ...
    page.locator("#rule-box .rule-row select").nth(3).select_option("black")  # ... the card played is black
    page.click("#rule-box button:has-text('+ condition')")
    page.locator("#rule-box > select").nth(1).select_option("or")
    page.locator("#rule-box .rule-row").nth(1).locator("select").nth(3).select_option("royal")
    page.click("#rule-box button:has-text('Use the rule built')")
    wait_actions(page, 2)
    rule = session.state.rule
    assert rule is not None and rule.to_json() == {"or": [{"is": "black", "card": 0}, {"is": "royal", "card": 0}]}
    assert page.locator("#rule-box").is_hidden()
    other = browser.new_context(viewport={"width": 360, "height": 640}).new_page()
    try:
        other.goto(url)
        other.wait_for_selector("body[data-actions='2']", state="attached")
        pair(other, seat=1)
        assert "royal" not in other.content() and "black" not in other.locator("main").inner_text()
    finally:
        other.context.close()


def test_a_string_of_cards_is_entered_on_the_phone(make_table: Any, page: Any) -> None:
    record = {"game": "eleusis", "players": ["Ann", "Bob", "Cy", "Di"],
              "actions": [{"act": "deal", "dealer": 0}, {"act": "rule", "player": 0, "rule": "alternate-colours"},
                          {"act": "starter", "card": "5H"}]}
    for url, session in _served(make_table, record):
        page.goto(url + "#fix")
        wait_actions(page, 3)
        pair(page, seat=2)
        page.select_option("#entry-act", "play")
        assert "1 to 4" in page.locator("#entry-cards-label").inner_text()
        for rank, suit in (("8", "spades"), ("4", "diamonds")):
            page.click(f"#picker button.rank[data-rank='{rank}']")
            page.click(f"#picker button[aria-label='{suit}']")
        page.click("#entry-send")
        wait_actions(page, 4)
        assert session.entries[-1].action == {"act": "play", "player": 2, "cards": ["8S", "4D"]}

def test_oh_hell_bids_on_the_phone_with_the_dealer_s_hook(table: tuple[str, Any], page: Any) -> None:
    url, session = table
    session.new_game("ohhell", ["Cy", "Di", "Ed"], {"most": 1})
    page.goto(url)
    page.wait_for_selector("body[data-actions='0']", state="attached")
    pair(page, seat=0)
    page.goto(url)
    page.click("#tricks button:has-text('Ed')")  # who deals first
    wait_actions(page, 1)
    session.submit({"act": "trump", "card": "5S"})  # the camera reads the trump card
    wait_actions(page, 2)
    page.click("#tricks .trick-buttons button:has-text('1')")  # Cy bids 1
    wait_actions(page, 3)
    page.click("#tricks .trick-buttons button:has-text('0')")  # Di bids 0
    wait_actions(page, 4)
    hook = page.locator("#tricks .trick-buttons button:has-text('0')")
    assert hook.is_disabled()  # Ed deals: 1 + 0 + 0 would add up to the one trick
    page.click("#tricks .trick-buttons button:has-text('1')")
    wait_actions(page, 5)
    assert session.view().to_json()["bids"] == [1, 0, 1]
    assert "trumps" in page.locator("#tricks").inner_text().lower()
    shot(page, "ohhell-bids")
    assert fits_the_phone(page)


BRISCOLA = ["Ann", "Bob", "Cy", "Di", "Ed"]


def _briscola(url: str, session: Any, page: Any, variant: str, first: bool = True) -> None:
    """A new game of Briscola Chiamata in ``variant``, Ann dealing (the auction starts at Ed:
    the deal and the play go to the right), on a paired phone."""
    session.new_game("briscola", BRISCOLA, {"variant": variant})
    if first:
        page.goto(url)
        page.wait_for_selector("body[data-actions='0']", state="attached")
        pair(page, seat=0)
    wait_actions(page, 0)
    page.click("#tricks button:has-text('Ann')")  # who deals first
    wait_actions(page, 1)


def test_briscola_bids_a_rank_then_points_and_calls_a_card_on_the_phone(table: tuple[str, Any], page: Any) -> None:
    url, session = table
    _briscola(url, session, page, "basic")
    buttons = "#tricks .trick-buttons"
    page.click(f"{buttons} button:text-is('3')")  # Ed calls a three
    wait_actions(page, 2)
    ranks = page.locator(f"{buttons} button").all_inner_texts()
    assert "A" not in ranks and "3" not in ranks and "K" in ranks  # only a call above the three
    page.fill(f"{buttons} input.bid-points", "70")
    page.click(f"{buttons} button:has-text('2 for points')")  # Di: the two, for 70
    wait_actions(page, 3)
    assert page.locator(f"{buttons} input.bid-points").input_value() == "71"
    for _ in range(4):  # Cy, Bob, Ann and Ed pass
        actions = len(session.entries)
        page.click(f"{buttons} button:text-is('Pass')")
        wait_actions(page, actions + 1)
    assert "di calls a card" in page.locator("#tricks").inner_text().lower()
    page.click("#tricks .call-ranks button[data-rank='2']")
    page.click("#tricks .call-suits button[aria-label='hearts']")
    wait_actions(page, 8)
    said = [e.action for e in session.entries[1:]]
    assert said == [{"act": "bid", "player": 4, "rank": "3"}, {"act": "bid", "player": 3, "rank": "2", "points": 70},
                    {"act": "pass", "player": 2}, {"act": "pass", "player": 1}, {"act": "pass", "player": 0},
                    {"act": "pass", "player": 4}, {"act": "call", "player": 3, "card": "2H"}]
    assert session.view().to_json()["trump_suit"] == "H"
    shot(page, "briscola-call")
    assert fits_the_phone(page)


def test_briscola_reopens_or_deals_again_and_takes_the_monte_on_the_phone(table: tuple[str, Any], page: Any) -> None:
    url, session = table
    _briscola(url, session, page, "subito")
    buttons = "#tricks .trick-buttons"
    for n in range(5):  # everyone passes
        page.click(f"{buttons} button:text-is('Pass')")
        wait_actions(page, 2 + n)
    assert "everyone passed" in page.locator("#tricks").inner_text().lower()
    page.click(f"{buttons} button:has-text('Deal again')")
    wait_actions(page, 7)
    assert session.entries[-1].action == {"act": "redeal"} and session.view().phase == "deal"

    _briscola(url, session, page, "monte", first=False)
    page.fill(f"{buttons} input.bid-points", "75")
    page.click(f"{buttons} button:has-text('Bid points')")  # Ed bids 75
    wait_actions(page, 2)
    for n in range(4):
        page.click(f"{buttons} button:text-is('Pass')")
        wait_actions(page, 3 + n)
    page.click(f"{buttons} button:has-text('Take the monte')")
    wait_actions(page, 7)
    page.click("#tricks .call-ranks button[data-rank='A']")  # any card may be called: the ace
    page.click("#tricks .call-suits button[aria-label='spades']")
    wait_actions(page, 8)
    assert [e.action for e in session.entries[-3:]] == [
        {"act": "pass", "player": 0}, {"act": "monte", "player": 4}, {"act": "call", "player": 4, "card": "AS"}]
