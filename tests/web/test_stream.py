"""Server-Sent Events through the test client, and the small parts behind pairing and redaction."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from vision.events import TableEvent
from web.hub import sse
from web.phones import Seats, WrongCodes
from web.redact import has_hidden, redact_action


def events(response: Any) -> Iterator[tuple[str, Any]]:
    """(event, data) pairs from a streamed SSE response; comments come as ("comment", text)."""
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith(":"):
            yield "comment", text[1:].strip()
            continue
        fields = dict(line.split(": ", 1) for line in text.strip().splitlines() if ": " in line)
        if "event" in fields:
            yield fields["event"], json.loads(fields["data"])
        elif "retry" in fields:
            yield "retry", int(fields["retry"])


def next_view(stream: Iterator[tuple[str, Any]]) -> Any:
    for kind, data in stream:
        if kind == "view":
            return data
    raise AssertionError("the stream ended")


def test_the_stream_sends_the_board_now_and_after_every_change(client: Any, service: Any) -> None:
    response = client.get("/api/stream", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    stream = events(response)
    assert next(stream) == ("retry", 1500)
    assert next_view(stream)["actions"] == 27
    service.step()
    assert next_view(stream) == json.loads(json.dumps(service.view(None).to_json()))
    service.undo()
    assert next_view(stream)["actions"] == 27
    response.close()


def test_a_quiet_stream_says_it_is_still_there(client: Any) -> None:
    stream = events(client.get("/api/stream", buffered=False))
    next_view(stream)
    assert next(stream) == ("comment", "still here")  # keepalive is 0.05 s in these tests


def test_a_seated_phone_streams_its_own_hand(new_phone: Any, record_of: Any, make_table: Any) -> None:
    service = make_table(record_of(known_hands=True), played=4)
    from web import create_app

    app = create_app({"TESTING": True, "SSE_KEEPALIVE": 0.05}, service=service)
    bob, watcher = new_phone(app), new_phone(app)
    bob.pair(seat=1)
    bobs = events(bob.client.get("/api/stream", buffered=False))
    watchers = events(watcher.client.get("/api/stream", buffered=False))
    assert next_view(bobs)["hand"] == service.view(1).to_json()["hand"]
    assert next_view(watchers)["hand"] is None
    service.step()  # Bob lays away
    mine, public = next_view(bobs), next_view(watchers)
    assert mine["hand"] == service.view(1).to_json()["hand"] and len(mine["hand"]) == 4
    assert public["hand"] is None and not public.get("laid_away")
    app.extensions["pegpi"].hub.close()


def test_the_stream_ends_when_the_app_closes(app: Any, client: Any) -> None:
    stream = events(client.get("/api/stream", buffered=False))
    next_view(stream)
    app.extensions["pegpi"].hub.close()
    assert [kind for kind, _ in stream if kind != "comment"] == []


def test_notices_travel_as_text_only(app: Any, client: Any, service: Any) -> None:
    """The device's question reaches every phone as its text only, never the update it came in."""
    stream = events(client.get("/api/stream", buffered=False))
    next_view(stream)
    played = service.history()[-1].action  # Bob's 4S: the camera now sees it in Ann's row too
    service.table_events([TableEvent("seat0", played["card"], "placed", 1.0, 0.99, 4)])
    text = service.view().to_json()["message"]
    assert "already been seen" in text
    kind, data = next(k for k in stream if k[0] != "comment")
    assert (kind, data) == ("notice", {"message": text})


def test_sse_format() -> None:
    assert sse("view", {"a": 1}, ident=7) == 'id: 7\nevent: view\ndata: {"a":1}\n\n'


# -- pairing parts ------------------------------------------------------------------------------


def test_wrong_codes_count_per_address_and_overall() -> None:
    now = [0.0]
    limit = WrongCodes(per_address=2, overall=3, window=10.0, clock=lambda: now[0])
    assert limit.wait("a") == 0
    limit.miss("a")
    limit.miss("a")
    assert limit.wait("a") == 11 and limit.wait("b") == 0
    limit.miss("b")
    # past three misses from anyone, an address that missed waits; one that did not may try
    assert limit.wait("b") > 0 and limit.wait("c") == 0
    now[0] = 10.5
    assert limit.wait("a") == 0 and limit.wait("b") == 0


def test_seats_belong_to_one_phone() -> None:
    seats = Seats()
    assert seats.take(0, "p1") and not seats.take(0, "p2")
    assert seats.take(1, "p1")  # moving seat frees the old one
    assert seats.take(0, "p2") and seats.holds(0, "p2") and not seats.holds(1, "p2")
    seats.release("p1")
    assert seats.holds(1, "p2")  # nobody held it: it goes back to whoever had it in its cookie


# -- redaction ------------------------------------------------------------------------------------


@pytest.mark.parametrize("action, seat, shown", [
    ({"act": "deal", "dealer": 0, "hands": [["AS"], ["KS"]]}, None, {"act": "deal", "dealer": 0, "hidden": True}),
    ({"act": "deal", "dealer": 0, "hands": [["AS"], ["KS"]]}, 1,
     {"act": "deal", "dealer": 0, "hands": [None, ["KS"]], "hidden": True}),
    ({"act": "deal", "dealer": 0}, None, {"act": "deal", "dealer": 0}),
    ({"act": "discard", "player": 0, "cards": ["AS", "2S"]}, 1, {"act": "discard", "player": 0, "hidden": 2}),
    ({"act": "discard", "player": 0, "cards": ["AS", "2S"]}, 0, {"act": "discard", "player": 0, "cards": ["AS", "2S"]}),
    ({"act": "discard", "player": 0}, None, {"act": "discard", "player": 0}),
    ({"act": "play", "player": 0, "card": "AS"}, None, {"act": "play", "player": 0, "card": "AS"}),
    ({"act": "hand", "player": 2, "cards": ["AS", "2S"]}, 1, {"act": "hand", "player": 2, "hidden": 2}),
    ({"act": "hand", "player": 2, "cards": ["AS", "2S"]}, 2,
     {"act": "hand", "player": 2, "cards": ["AS", "2S"]}),
    ({"act": "draw", "player": 1, "count": 1, "cards": ["AS"], "drawn": ["KD"]}, None,
     {"act": "draw", "player": 1, "count": 1, "hidden": 1}),
    ({"act": "draw", "player": 1, "count": 0}, 0, {"act": "draw", "player": 1, "count": 0}),
    ({"act": "monte", "player": 4, "cards": ["AS", "2S", "3S", "4S", "5S"]}, 0,
     {"act": "monte", "player": 4, "hidden": 5}),
    ({"act": "rule", "player": 2, "rule": "one-step"}, 0, {"act": "rule", "player": 2, "hidden": True}),
    ({"act": "rule", "player": 2, "rule": "one-step"}, None, {"act": "rule", "player": 2, "hidden": True}),
    ({"act": "rule", "player": 2, "rule": "one-step"}, 2, {"act": "rule", "player": 2, "rule": "one-step"}),
    ({"act": "show", "player": 1, "cards": ["AS", "2S", "3S", "4S"]}, 0,
     {"act": "show", "player": 1, "cards": ["AS", "2S", "3S", "4S"]}),
    ({"act": "draw", "player": 1, "card": "KD"}, 0, {"act": "draw", "player": 1, "hidden": True}),
    ({"act": "draw", "player": 1, "card": "KD"}, 1, {"act": "draw", "player": 1, "card": "KD"}),
    ({"act": "deal", "first": 0, "cards": ["AS", "2S", "RJ"]}, 0, {"act": "deal", "first": 0, "hidden": True}),
    ({"act": "lay", "player": 1, "card": "KS"}, 0, {"act": "lay", "player": 1, "hidden": True}),
    ({"act": "lay", "player": 1, "card": "KS"}, 1, {"act": "lay", "player": 1, "card": "KS"}),
    ({"act": "lose", "player": 0, "card": "4C"}, 2, {"act": "lose", "player": 0, "hidden": True}),
    ({"act": "flip", "player": 0, "mat": 1, "card": "KS"}, 2, {"act": "flip", "player": 0, "mat": 1, "card": "KS"}),
])
def test_redaction(action: dict[str, Any], seat: int | None, shown: dict[str, Any]) -> None:
    assert redact_action(action, seat) == shown
    assert has_hidden([action]) == (redact_action(action, None) != action)


def test_a_seated_stream_ends_when_the_device_shows_a_new_code(new_phone: Any, record_of: Any,
                                                                make_table: Any) -> None:
    from web import create_app

    service = make_table(record_of(known_hands=True), played=4)
    app = create_app({"TESTING": True, "SSE_KEEPALIVE": 0.05}, service=service)
    bob = new_phone(app)
    bob.pair(seat=1)
    stream = events(bob.client.get("/api/stream", buffered=False))
    assert next_view(stream)["hand"] == service.view(1).to_json()["hand"]
    service._code = "NEW42"  # the device showed a new code: Bob's phone must pair again
    service.step()
    assert [kind for kind, _ in stream if kind == "view"] == []  # the stream ended, nothing sent
    assert bob.get("/api/view").get_json()["hand"] is None
    app.extensions["pegpi"].hub.close()
