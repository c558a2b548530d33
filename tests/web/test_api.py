"""Every route of the phone page through Flask's test client, and every way a request can be bad."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from web import create_app

CODE = "2468"  # as in conftest.py
Phone = Any  # conftest.Phone: a test client that sends its CSRF token

# -- the page and its files ----------------------------------------------------------------------


def test_page_is_served_with_its_token_and_strict_headers(client: Any) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    token = client.get("/api/me").get_json()["csrf"]
    assert f'<meta name="csrf-token" content="{token}">' in html
    assert 'name="viewport"' in html
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path, kind", [
    ("/static/pegpi.js", "javascript"), ("/static/pegpi.css", "text/css"), ("/static/icon.svg", "image/svg+xml"),
])
def test_static_files_are_served_by_the_device(client: Any, path: str, kind: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert kind in response.content_type


@pytest.mark.parametrize("path", ["/", "/static/pegpi.js", "/static/pegpi.css", "/static/icon.svg"])
def test_nothing_is_fetched_from_the_internet(client: Any, path: str) -> None:
    text = client.get(path).get_data(as_text=True)
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"')]*", text))
    assert urls <= {"http://www.w3.org/2000/svg"}, urls  # the SVG namespace is a name, not a download


# -- views -------------------------------------------------------------------------------------------


def test_spectators_get_the_spectator_view(client: Any, service: Any) -> None:
    view = client.get("/api/view").get_json()
    assert view == json.loads(json.dumps(service.view(None).to_json()))
    assert view["seat"] is None and view["hand"] is None
    assert client.get("/api/view").headers["Cache-Control"] == "no-store"


def test_me_says_who_this_phone_is(client: Any) -> None:
    me = client.get("/api/me").get_json()
    assert me["paired"] is False and me["seat"] is None and len(me["csrf"]) > 20
    assert client.get("/api/me").get_json()["csrf"] == me["csrf"]  # one token per session


def test_history_lists_every_action_with_its_points(client: Any, service: Any) -> None:
    history = client.get("/api/history").get_json()["history"]
    assert [e["index"] for e in history] == list(range(27))
    assert history[0]["action"] == {"act": "cut", "player": 0, "card": "9S"}
    scored = [e for e in history if e["points"]]
    assert scored and all(e["points"] == sum(s["points"] for s in e["scores"]) for e in scored)
    assert sum(e["points"] for e in history) == sum(s["score"] for s in service.view().to_json()["sides"])
    shows = [s for e in history for s in e["scores"] if e["action"]["act"] == "show"]
    assert shows and all(s["say"] for s in shows)


def test_games_come_from_the_registry(client: Any) -> None:
    games = client.get("/api/games").get_json()["games"]
    names = {g["name"] for g in games}
    assert {"cribbage", "cribbage5"} <= names
    crib = next(g for g in games if g["name"] == "cribbage")
    assert crib["players"] == [2] and any(o["name"] == "target" for o in crib["options"])


def test_export_is_for_paired_phones(phone: Phone, paired: Phone, service: Any) -> None:
    refused = phone.get("/api/export")
    assert refused.status_code == 403 and "Pair this phone" in refused.get_json()["error"]
    response = paired.get("/api/export")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    record = json.loads(response.get_data(as_text=True))
    assert record == service.export() and len(record["actions"]) == 27


def test_export_waits_for_the_end_when_cards_are_hidden(new_phone: Any, record_of: Any, make_table: Any) -> None:
    service = make_table(record_of(known_hands=True), played=10)
    phone = new_phone(create_app({"TESTING": True}, service=service))
    phone.pair()
    response = phone.get("/api/export")
    assert response.status_code == 409 and "when the game is over" in response.get_json()["error"]
    while service.steps_left:
        service.step()
    assert phone.get("/api/export").status_code == 200


# -- pairing -----------------------------------------------------------------------------------------


def test_pairing_with_the_code_opens_the_fixes(phone: Phone) -> None:
    assert phone.post("/api/undo").status_code == 403
    response = phone.pair()
    assert response.status_code == 200
    assert response.get_json()["paired"] is True
    assert phone.get("/api/me").get_json()["paired"] is True
    assert phone.post("/api/undo").status_code == 200


@pytest.mark.parametrize("body, status, words", [
    ({"code": "1111"}, 403, "not the code"),
    ({"code": ""}, 400, "Enter the pairing code"),
    ({}, 400, "Enter the pairing code"),
    ({"code": None}, 400, "Enter the pairing code"),
    ({"code": ["2468"]}, 400, "Enter the pairing code"),
    ({"code": True}, 400, "Enter the pairing code"),
    ({"code": CODE, "seat": 2}, 400, "Choose a seat"),
    ({"code": CODE, "seat": -1}, 400, "Choose a seat"),
    ({"code": CODE, "seat": "0"}, 400, "Choose a seat"),
    ({"code": CODE, "seat": True}, 400, "Choose a seat"),
])
def test_bad_pairings_are_refused(phone: Phone, body: dict[str, Any], status: int, words: str) -> None:
    response = phone.post("/api/pair", body)
    assert response.status_code == status
    assert words in response.get_json()["error"]


def test_a_numeric_code_pairs_too(phone: Phone) -> None:
    assert phone.post("/api/pair", {"code": int(CODE)}).status_code == 200


def test_wrong_codes_are_rate_limited(app: Any, phone: Phone, new_phone: Any) -> None:
    tries = app.config["PAIR_TRIES"]
    for _ in range(tries):
        assert phone.pair(code="0000").status_code == 403
    response = phone.pair(code=CODE)  # even the right code waits
    assert response.status_code == 429
    assert "Too many wrong codes" in response.get_json()["error"]
    assert int(response.headers["Retry-After"]) >= 1
    other = new_phone(app)  # another phone (same address in tests) waits as well
    assert other.pair().status_code == 429


def test_the_limit_lifts_after_the_window(app: Any, phone: Phone) -> None:
    from web.phones import WrongCodes

    now = [1000.0]
    app.extensions["pegpi"].wrong_codes = WrongCodes(2, 100, 60.0, clock=lambda: now[0])
    phone.pair(code="0")
    phone.pair(code="0")
    assert phone.pair().status_code == 429
    now[0] += 61
    assert phone.pair().status_code == 200


def test_a_new_code_on_the_device_unpairs_every_phone(paired: Phone, service: Any) -> None:
    service._code = "9999"
    assert paired.get("/api/me").get_json()["paired"] is False
    assert paired.post("/api/undo").status_code == 403


def test_unpair_forgets_the_phone(paired: Phone) -> None:
    assert paired.post("/api/unpair").get_json()["paired"] is False
    assert paired.post("/api/undo").status_code == 403


# -- seats and hidden cards ----------------------------------------------------------------------------


@pytest.fixture
def known(record_of: Any, make_table: Any) -> Any:
    return make_table(record_of(known_hands=True))


def test_a_seat_is_one_phones_and_shows_its_own_hand(known: Any, new_phone: Any) -> None:
    app = create_app({"TESTING": True}, service=known)
    for _ in range(4):
        known.step()  # dealt, Ann has laid away
    ann = new_phone(app)
    assert ann.pair(seat=0).get_json()["seat"] == 0
    view = ann.get("/api/view").get_json()
    assert view["seat"] == 0 and view["hand"] == known.view(0).to_json()["hand"] and len(view["hand"]) == 4
    thief = new_phone(app)
    taken = thief.pair(seat=0)
    assert taken.status_code == 409 and "taken by another phone" in taken.get_json()["error"]
    assert thief.get("/api/view").get_json()["hand"] is None  # paired, but a spectator
    assert thief.post("/api/seat", {"seat": 1}).get_json()["seat"] == 1
    assert ann.post("/api/seat", {"seat": None}).get_json()["seat"] is None
    assert thief.post("/api/seat", {"seat": 0}).get_json()["seat"] == 0
    assert new_phone(app).get("/api/view").get_json()["hand"] is None


@pytest.mark.parametrize("body, status", [({}, 400), ({"seat": 5}, 400), ({"seat": "Ann"}, 400)])
def test_bad_seats_are_refused(paired: Phone, body: dict[str, Any], status: int) -> None:
    assert paired.post("/api/seat", body).status_code == status


def test_taking_a_seat_needs_pairing(phone: Phone) -> None:
    assert phone.post("/api/seat", {"seat": 0}).status_code == 403


def _cards_in(data: Any) -> set[str]:
    text = json.dumps(data)
    return set(re.findall(r'"(10[SHDC]|[2-9AJQK][SHDC])"', text))


def _hidden_cards(service: Any, seat: int) -> set[str]:
    """``seat``'s cards that nobody else has seen yet."""
    mine = service.view(seat).to_json()
    public = service.view(None).to_json()
    secret = set(mine.get("hand") or []) | set(mine.get("laid_away") or [])
    return secret - _cards_in(public)


def test_no_response_reveals_another_seats_hidden_cards(known: Any, new_phone: Any) -> None:
    app = create_app({"TESTING": True}, service=known)
    ann, watcher = new_phone(app), new_phone(app)
    ann.pair(seat=0)
    checked = 0
    while known.steps_left:
        known.step()
        bob_secret = _hidden_cards(known, 1)
        for phone in (ann, watcher):
            history = phone.get("/api/history").get_json()["history"]
            deal = max(e["index"] for e in history if e["action"]["act"] in ("deal", "cut"))
            this_deal = history[deal:]  # earlier deals were shuffled back into the pack
            for data in (phone.get("/api/view").get_json(), this_deal):
                assert not _cards_in(data) & bob_secret, known.view(None).to_json()["actions"]
                checked += bool(bob_secret)
    assert checked > 100


def test_history_shows_a_phone_its_own_discards_only(known: Any, new_phone: Any) -> None:
    app = create_app({"TESTING": True}, service=known)
    for _ in range(5):
        known.step()
    ann, watcher = new_phone(app), new_phone(app)
    ann.pair(seat=0)
    mine = {e["index"]: e["action"] for e in ann.get("/api/history").get_json()["history"]}
    theirs = {e["index"]: e["action"] for e in watcher.get("/api/history").get_json()["history"]}
    assert mine[3]["cards"] == known.export()["actions"][3]["cards"]  # Ann's own discard
    assert "cards" not in mine[4] and mine[4]["hidden"] == 2  # Bob's
    assert "cards" not in theirs[3] and "cards" not in theirs[4]
    assert mine[2]["hands"] == [known.export()["actions"][2]["hands"][0], None]
    assert "hands" not in theirs[2]


# -- entering, undoing, correcting -----------------------------------------------------------------------


def test_an_action_is_applied_and_the_phone_gets_its_own_view(paired: Phone, service: Any) -> None:
    response = paired.post("/api/action", {"action": {"act": "go", "player": 0}})
    assert response.status_code == 200
    view = response.get_json()["view"]
    assert view["actions"] == 28 and view["seat"] is None
    assert service.history()[-1].source == "phone"


@pytest.mark.parametrize("body, status, words", [
    ({"action": {"act": "play", "player": 0, "card": "KD"}}, 409, "would take the count to 37, over 31"),
    ({"action": {"act": "play", "player": 1, "card": "AC"}}, 409, "not Bob's turn"),
    ({"action": {"act": "play", "player": 0, "card": "4D"}}, 409, "already been seen"),
    ({"action": {"act": "play", "player": 5, "card": "AH"}}, 409, "no player 5"),
    ({"action": {"act": "starter", "card": "AH"}}, 409, "Cannot starter now"),
    ({"action": {"act": "play", "player": 0, "card": "1X"}}, 400, "1X"),
    ({"action": {"act": "play", "player": 0, "card": "RJ"}}, 400, "without jokers"),
    ({"action": {"act": "play", "player": 0}}, 400, "needs 'card'"),
    ({"action": {"act": "play", "player": "Bob", "card": "AH"}}, 400, "whole number"),
    ({"action": {"act": "play", "player": 0, "card": "AH", "x": 1}}, 400, "no field 'x'"),
    ({"action": {"act": "fly", "player": 1}}, 400, "no action 'fly'"),
    ({"action": {"act": 3}}, 400, "Send the action"),
    ({"action": "go"}, 400, "Send the action"),
    ({"action": None}, 400, "Send the action"),
    ({}, 400, "Send the action"),
])
def test_bad_actions_are_refused_with_a_reason(paired: Phone, service: Any,
                                               body: dict[str, Any], status: int, words: str) -> None:
    before = service.export()
    response = paired.post("/api/action", body)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert service.export() == before


@pytest.mark.parametrize("url", ["/api/action", "/api/undo", "/api/correct", "/api/confirm", "/api/new",
                                 "/api/seat"])
def test_changes_need_pairing(phone: Phone, url: str, service: Any) -> None:
    before = service.export()
    response = phone.post(url, {"action": {"act": "go", "player": 1}, "index": 0})
    assert response.status_code == 403
    assert "Pair this phone" in response.get_json()["error"]
    assert service.export() == before


@pytest.mark.parametrize("url", ["/api/action", "/api/undo", "/api/correct", "/api/confirm", "/api/new",
                                 "/api/seat", "/api/pair", "/api/unpair"])
@pytest.mark.parametrize("token", [None, "", "forged"])
def test_changes_need_the_csrf_token(paired: Phone, url: str, token: str | None,
                                     service: Any) -> None:
    before = service.export()
    headers = {} if token is None else {"X-CSRF-Token": token}
    response = paired.client.post(url, json={"action": {"act": "go", "player": 1}, "code": CODE},
                                  headers=headers)
    assert response.status_code == 403
    assert "reload it" in response.get_json()["error"]
    assert service.export() == before


@pytest.mark.parametrize("url", ["/api/action", "/api/correct", "/api/new", "/api/pair", "/api/seat"])
def test_bodies_must_be_json_objects(paired: Phone, url: str) -> None:
    form = paired.post(url, None, data="act=go", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    listed = paired.post(url, ["go"])
    assert listed.status_code == 400 and "JSON object" in listed.get_json()["error"]


def test_undo_takes_back_the_last_action(paired: Phone, service: Any) -> None:
    before = service.view().to_json()
    response = paired.post("/api/undo")
    assert response.status_code == 200
    assert response.get_json()["view"]["actions"] == 26
    assert len(service.history()) == 26
    service.step()  # the replay plays the undone action again
    assert service.view().to_json() == before


def test_undo_with_nothing_to_undo(paired: Phone, service: Any) -> None:
    service.new_game("cribbage", ["Ann", "Bob"])
    response = paired.post("/api/undo")
    assert response.status_code == 409 and "nothing to undo" in response.get_json()["error"]


def test_a_misread_card_is_corrected(paired: Phone, service: Any) -> None:
    assert service.history()[26].action == {"act": "play", "player": 1, "card": "4S"}
    response = paired.post("/api/correct", {"index": 26, "action": {"act": "play", "player": 1, "card": "4C"}})
    assert response.status_code == 200
    assert response.get_json()["view"]["pile"][-1] == "4C"
    assert service.history()[26].action["card"] == "4C"
    assert service.history()[26].source == "phone"
    assert len(service.history()) == 27


@pytest.mark.parametrize("body, status, words", [
    ({"index": 27, "action": {"act": "go", "player": 1}}, 409, "no action 27"),
    ({"index": -1, "action": {"act": "go", "player": 1}}, 400, "which action"),
    ({"index": "3", "action": {"act": "go", "player": 1}}, 400, "which action"),
    ({"index": True, "action": {"act": "go", "player": 1}}, 400, "which action"),
    ({"action": {"act": "go", "player": 1}}, 400, "which action"),
    ({"index": 3}, 400, "Send the action"),
    ({"index": 26, "action": {"act": "play", "player": 1, "card": "ZZ"}}, 400, "ZZ"),
    # 5H was played two actions earlier: the corrected game is impossible, so nothing changes
    ({"index": 26, "action": {"act": "play", "player": 1, "card": "5H"}}, 409, "already been seen"),
    # a king for the 4D: four actions later the 4S would take the count past 31
    ({"index": 22, "action": {"act": "play", "player": 1, "card": "KH"}}, 409, "4S would take the count to 33"),
])
def test_bad_corrections_change_nothing(paired: Phone, service: Any,
                                        body: dict[str, Any], status: int, words: str) -> None:
    before = service.export()
    response = paired.post("/api/correct", body)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert service.export() == before


def test_confirm_with_nothing_in_doubt(paired: Phone) -> None:
    response = paired.post("/api/confirm")
    assert response.status_code == 409 and "nothing to confirm" in response.get_json()["error"]


@pytest.mark.parametrize("body, status, words", [
    ({"card": "7H"}, 409, "not asking about"),
    ({"card": ""}, 400, "Tap the card"),
    ({"card": 7}, 400, "Tap the card"),
    ({}, 400, "Tap the card"),
])
def test_resolving_a_card_nobody_asked_about(paired: Phone, service: Any, body: dict[str, Any],
                                             status: int, words: str) -> None:
    before = service.export()["actions"]
    response = paired.post("/api/resolve", body)
    assert response.status_code == status and words in response.get_json()["error"]
    assert service.export()["actions"] == before


# -- setting up ------------------------------------------------------------------------------------------


def test_a_new_game_starts_from_the_registry(paired: Phone, service: Any) -> None:
    response = paired.post("/api/new", {"game": "cribbage5", "players": ["Cy", "Di"], "options": {}})
    assert response.status_code == 200
    view = response.get_json()["view"]
    assert view["game"] == "cribbage5" and view["players"] == ["Cy", "Di"] and view["actions"] == 0
    assert service.export()["players"] == ["Cy", "Di"]


def test_a_new_game_frees_the_seats(app: Any, service: Any, new_phone: Any) -> None:
    ann = new_phone(app)
    ann.pair(seat=0)
    assert ann.post("/api/new", {"game": "cribbage", "players": ["A", "B"]}).status_code == 200
    assert ann.get("/api/me").get_json()["seat"] is None


@pytest.mark.parametrize("body, status, words", [
    ({"players": ["A", "B"]}, 400, "Choose a game"),
    ({"game": "", "players": ["A", "B"]}, 400, "Choose a game"),
    ({"game": "whist-of-mars", "players": ["A", "B"]}, 400, "o game called 'whist-of-mars'"),
    ({"game": "cribbage"}, 400, "names as a list"),
    ({"game": "cribbage", "players": "Ann, Bob"}, 400, "names as a list"),
    ({"game": "cribbage", "players": ["A", 2]}, 400, "names as a list"),
    ({"game": "cribbage", "players": ["A", " "]}, 400, "needs a name"),
    ({"game": "cribbage", "players": ["A", "A"]}, 400, "different name"),
    ({"game": "cribbage", "players": ["A", "B" * 25]}, 400, "24 letters"),
    ({"game": "cribbage", "players": ["A", "B", "C", "D", "E"]}, 400, "played by 2 players"),
    ({"game": "cribbage", "players": ["A", "B"], "options": []}, 400, "Options are"),
    ({"game": "cribbage", "players": ["A", "B"], "options": {"speed": 1}}, 400, "no option 'speed'"),
    ({"game": "cribbage", "players": ["A", "B"], "options": {"target": "lots"}}, 400, "whole number"),
])
def test_bad_set_ups_are_refused(paired: Phone, service: Any,
                                 body: dict[str, Any], status: int, words: str) -> None:
    before = service.export()
    response = paired.post("/api/new", body)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert service.export() == before


# -- the camera ----------------------------------------------------------------------------------------


def test_no_camera_says_so(client: Any) -> None:
    response = client.get("/camera.jpg")
    assert response.status_code == 404
    assert "No camera" in response.get_json()["error"]


def test_the_camera_frame_is_served_fresh(service: Any) -> None:
    jpeg = b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9"
    service.set_frame_provider(lambda: jpeg)
    app = create_app({"TESTING": True}, service=service)
    response = app.test_client().get("/camera.jpg")
    assert response.status_code == 200 and response.data == jpeg
    assert response.content_type == "image/jpeg" and response.headers["Cache-Control"] == "no-store"


# -- requests that make no sense ---------------------------------------------------------------------------


@pytest.mark.parametrize("method, url, status", [
    ("get", "/api/nothing", 404),
    ("get", "/api/undo", 405),
    ("post", "/api/view", 405),
    ("delete", "/api/history", 405),
])
def test_unknown_requests_get_a_readable_json_error(client: Any, method: str, url: str, status: int) -> None:
    response = getattr(client, method)(url)
    assert response.status_code == status
    assert response.get_json()["error"][0].isupper()


def test_huge_bodies_are_refused(paired: Phone, service: Any) -> None:
    before = service.export()
    response = paired.post("/api/action", {"action": {"act": "go", "player": 1, "pad": "x" * 100_000}})
    assert response.status_code == 413
    assert service.export() == before


def test_a_replayed_new_game_is_served_as_an_empty_game() -> None:
    from device.replay import replayed_table

    view = create_app({"TESTING": True}, service=replayed_table()).test_client().get("/api/view").get_json()
    assert view["game"] == "cribbage" and view["actions"] == 0


def test_web_reaches_the_table_only_through_the_service_protocol() -> None:
    import ast
    from pathlib import Path

    import web

    for path in Path(web.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert not name.startswith("device.") or name == "device.service", f"{path.name}: {name}"


def test_the_package_example_runs() -> None:
    import doctest

    import web

    assert doctest.testmod(web).failed == 0
