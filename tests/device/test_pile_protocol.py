"""The pile protocols (Beggar My Neighbour, Egyptian Ratscrew on the pile mat; New Eleusis on the
line mat): table events in, game actions out, on hand-written event scripts (plays in and out of
turn, doubtful and unreadable reads, corrections, undos) and on whole random deals."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.protocols.pile import LineProtocol, PileProtocol, pile_script
from device.protocols.script import play_script, record_to_script
from device.session import Session
from device.store import Store
from games.errors import PegpiError
from games.pileplay import autoplay
from games.records import replay
from pegpi.tablesim import table_sim
from vision.events import TableEvent


def _session(tmp_path: Path, game: str, players: int, options: dict[str, object] | None = None) -> Session:
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:players]
    return Session(Store(tmp_path / f"{game}.db"), game=game, players=names, options=options, ping_s=0.01)


def lay(session: Session, card: str, zone: str = "pile", slot: int = 0, confidence: float = 1.0) -> None:
    session.table_events([TableEvent(zone, card, "placed", 0.0, confidence, slot)])


def lift(session: Session, card: str, zone: str = "pile", slot: int = 0) -> None:
    session.table_events([TableEvent(zone, card, "removed", 0.0, 1.0, slot)])


def acts(session: Session) -> list[dict[str, object]]:
    return [dict(e.action) for e in session.entries]


# ------------------------------------------------------------------ Beggar My Neighbour


def test_cards_laid_on_the_pile_are_played_in_turn_and_lifting_it_is_the_take(tmp_path: Path) -> None:
    session = _session(tmp_path, "beggar", 2)
    assert isinstance(session.protocol, PileProtocol)
    session.submit({"act": "deal", "dealer": 1})
    for seat in (0, 1):
        lay(session, "back", f"seat{seat}")  # the stacks lie face down: nothing happens
    lay(session, "5H")
    lay(session, "JS")  # Bob's jack: Ann pays one card
    view = session.view()
    assert (view.turn, view.owing, view.owed) == (0, 0, 1)
    lay(session, "3C")
    assert session.view().takes == 1
    lift(session, "3C")
    assert acts(session)[1:] == [{"act": "play", "player": 0, "card": "5H"},
                                 {"act": "play", "player": 1, "card": "JS"},
                                 {"act": "play", "player": 0, "card": "3C"}, {"act": "take", "player": 1}]
    view = session.view()
    assert view.stacks == (24, 28) and view.pile == () and view.turn == 1
    assert all(e.source == "table" for e in session.entries[1:])


def test_a_card_laid_on_a_won_pile_is_named_and_nothing_is_lost(tmp_path: Path) -> None:
    session = _session(tmp_path, "beggar", 2)
    session.submit({"act": "deal", "dealer": 1})
    for card in ("5H", "JS", "3C"):
        lay(session, card)
    lay(session, "9D")  # Ann goes on before Bob has taken the pile he won
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "illegal" and "9D" in ask.text and "Bob takes the pile first" in ask.text
    lift(session, "9D")  # the whole pile lifted: the question is answered and Bob has taken it
    assert session.protocol.ask is None and acts(session)[-1] == {"act": "take", "player": 1}
    lay(session, "9D")  # now in turn: Bob leads
    assert acts(session)[-1] == {"act": "play", "player": 1, "card": "9D"}
    assert len(session.entries) == 6


def test_ok_leaves_a_refused_card_aside_and_the_card_it_uncovers_is_not_played_again(tmp_path: Path) -> None:
    session = _session(tmp_path, "beggar", 2)
    session.submit({"act": "deal", "dealer": 1})
    for card in ("5H", "JS", "3C"):
        lay(session, card)
    lay(session, "9D")
    lay(session, "KD")  # events behind a question wait for its answer
    assert len(session.entries) == 4 and session.protocol.ask is not None
    session.confirm()  # OK: the 9D is set aside; the KD waiting behind it is refused in turn
    ask = session.protocol.ask
    assert ask is not None and "KD" in ask.text
    session.confirm()
    lay(session, "3C")  # both taken off again: the pile's top card is seen once more
    assert session.protocol.ask is None and len(session.entries) == 4
    lift(session, "3C")
    assert acts(session)[-1] == {"act": "take", "player": 1}


def test_a_card_laid_in_a_seats_zone_face_up_is_named(tmp_path: Path) -> None:
    session = _session(tmp_path, "beggar", 3)
    session.submit({"act": "deal", "dealer": 2})
    lay(session, "7C", "seat1")
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "illegal" and ask.zone == "seat1"
    assert "7C" in ask.text and "Bob's stack" in ask.text and "onto the pile" in ask.text
    lift(session, "7C", "seat1")  # taken back
    assert session.protocol.ask is None and len(session.entries) == 1


def test_a_doubtful_read_waits_for_ok_and_a_correction_plays_the_right_card(tmp_path: Path) -> None:
    session = _session(tmp_path, "beggar", 2)
    session.submit({"act": "deal", "dealer": 1})
    lay(session, "8S", confidence=0.3)
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "confirm" and ask.card == "8S" and len(session.entries) == 1
    session.confirm()
    assert acts(session)[-1] == {"act": "play", "player": 0, "card": "8S"}
    lay(session, "4D", confidence=0.3)
    session.resolve("4H")
    assert acts(session)[-1] == {"act": "play", "player": 1, "card": "4H"}
    lay(session, "unknown")
    assert session.protocol.ask is not None and session.protocol.ask.kind == "unreadable"
    session.resolve("QC")
    assert acts(session)[-1] == {"act": "play", "player": 0, "card": "QC"}
    with pytest.raises(PegpiError):
        session.confirm()  # nothing is asked now


def test_an_undone_play_is_read_again_from_the_next_card(tmp_path: Path) -> None:
    session = _session(tmp_path, "beggar", 2)
    session.submit({"act": "deal", "dealer": 1})
    lay(session, "5H")
    lay(session, "JS")
    session.undo()  # the jack was Ann's card turned by mistake, say: the game forgets it
    assert len(session.entries) == 2 and session.view().turn == 1
    lay(session, "2C")  # Bob's card covers it
    assert acts(session)[-1] == {"act": "play", "player": 1, "card": "2C"}
    session.correct(2, {"act": "play", "player": 1, "card": "2S"})  # a misread put right on the phone
    lay(session, "6D")
    assert acts(session)[1:] == [{"act": "play", "player": 0, "card": "5H"},
                                 {"act": "play", "player": 1, "card": "2S"},
                                 {"act": "play", "player": 0, "card": "6D"}]


# ------------------------------------------------------------------ Egyptian Ratscrew


def test_a_slap_from_the_buttons_gives_the_pile_and_lifting_it_records_nothing_more(tmp_path: Path) -> None:
    session = _session(tmp_path, "ratscrew", 3)
    session.submit({"act": "deal", "dealer": 2})
    lay(session, "9S")
    lay(session, "9D")
    view = session.view()
    assert view.slappable == "pair" and "Slappable: pair" in view.prompt
    session.submit({"act": "slap", "player": 2}, source="button")
    session.submit({"act": "slap", "player": 0}, source="phone")  # too late: the pile is gone
    view = session.view()
    assert view.ruling is not None and view.ruling.right is None  # an empty table
    assert view.stacks == (17, 16, 19) and view.pile == () and view.turn == 2
    lift(session, "9D")
    assert len(session.entries) == 5 and session.protocol.ask is None
    lay(session, "4C")
    assert acts(session)[-1] == {"act": "play", "player": 2, "card": "4C"}


def test_a_wrong_slap_gives_the_pile_to_the_last_player(tmp_path: Path) -> None:
    session = _session(tmp_path, "ratscrew", 3)
    session.submit({"act": "deal", "dealer": 2})
    lay(session, "9S")
    lay(session, "3D")
    session.submit({"act": "slap", "player": 0}, source="button")
    view = session.view()
    assert view.ruling is not None and view.ruling.right is False and view.ruling.to == 1
    assert view.stacks == (17, 18, 17) and view.false_slaps == (1, 0, 0)
    lift(session, "3D")
    lay(session, "KH")
    assert acts(session)[-1] == {"act": "play", "player": 1, "card": "KH"}


# ------------------------------------------------------------------ New Eleusis


def _eleusis(tmp_path: Path) -> Session:
    session = _session(tmp_path, "eleusis", 4)
    assert isinstance(session.protocol, LineProtocol)
    session.submit({"act": "deal", "dealer": 0})
    session.submit({"act": "rule", "player": 0, "rule": "alternate-colours"})
    return session


def test_the_line_is_read_a_wrong_card_moves_under_it_and_strings_come_from_the_phone(tmp_path: Path) -> None:
    session = _eleusis(tmp_path)
    lay(session, "5H", "line", 0)  # the starter: a 5 names the second player after God (Bob, Cy, Di)
    assert acts(session)[-1] == {"act": "starter", "card": "5H"} and session.view().turn == 2
    lay(session, "8S", "line", 1)  # right: black after red
    lay(session, "2C", "line", 2)  # wrong: laid in the line, the game puts it in the sideline
    view = session.view()
    assert [p.card for p in view.line] == ["5H", "8S"] and view.line[1].under == ("2C",)
    lift(session, "2C", "line", 2)
    lay(session, "2C", "side", 2)  # moved under the 8S: not a play again
    assert len(session.entries) == 5
    session.submit({"act": "play", "player": 1, "cards": ["4D", "JC"]})  # a string, entered on the phone
    lay(session, "4D", "line", 2)
    lay(session, "JC", "line", 3)
    assert len(session.entries) == 6 and session.protocol.ask is None
    lay(session, "QD", "line", 4)  # Cy's single card, read from the table
    assert acts(session)[-1] == {"act": "play", "player": 2, "cards": ["QD"]}
    assert [p.card for p in session.view().line] == ["5H", "8S", "4D", "JC", "QD"]


def test_no_card_is_read_as_played_while_the_prophet_must_call(tmp_path: Path) -> None:
    session = _session(tmp_path, "eleusis", 5)
    session.submit({"act": "deal", "dealer": 0})
    session.submit({"act": "rule", "player": 0, "rule": "alternate-colours"})
    lay(session, "AH", "line", 0)  # the first player after God: Bob
    lay(session, "8S", "line", 1)
    session.submit({"act": "prophet", "player": 1})
    lay(session, "3D", "line", 2)  # Cy plays; the prophet must call before the next card
    assert session.view().pending is not None
    lay(session, "7H", "line", 3)
    ask = session.protocol.ask
    assert ask is not None and ask.kind == "illegal" and "prophet" in ask.text
    lift(session, "7H", "line", 3)
    session.submit({"act": "call", "player": 1, "right": True})
    assert [p.card for p in session.view().line] == ["AH", "8S", "3D"]
    lay(session, "4C", "line", 3)
    assert acts(session)[-1] == {"act": "play", "player": 3, "cards": ["4C"]}


def test_the_rule_is_in_gods_view_only(tmp_path: Path) -> None:
    session = _eleusis(tmp_path)
    lay(session, "5H", "line", 0)
    words = session.view(0).to_json()["rule"]["words"]
    for seat in (None, 1, 2, 3):
        assert words not in str(session.view(seat).to_json())


# ------------------------------------------------------------------ whole deals


@pytest.mark.parametrize(("game", "seed"), [("beggar", 3), ("ratscrew", 4), ("eleusis", 5)])
def test_a_random_game_played_on_the_mat_is_recorded_action_for_action(tmp_path: Path, game: str, seed: int) -> None:
    players = {"beggar": ["A", "B", "C"], "ratscrew": ["A", "B", "C", "D"], "eleusis": ["A", "B", "C", "D", "E"]}
    record = autoplay(game, players[game], seed=seed, max_actions=400)
    steps = record_to_script(record)
    assert steps == pile_script(replay(record))
    if game != "eleusis":  # every card turned and every pile taken is seen, not said
        assert {s["action"]["act"] for s in steps if s["op"] == "say"} <= {"deal", "slap"}
    session = Session(Store(tmp_path / "whole.db"), game=game, players=record["players"], ping_s=0.01)
    problems: list[object] = []
    play_script(session, steps, on_step=lambda i, step, error: error and problems.append((i, step, error)))
    assert problems == [] and session.protocol.ask is None
    assert [e.action for e in session.entries] == record["actions"]
    assert "table" in {e.source for e in session.entries}


@pytest.mark.parametrize(("game", "seats"), [("beggar", 4), ("ratscrew", 2), ("ratscrew", 8), ("eleusis", 8)])
def test_the_protocol_alone_plays_a_deal_as_played(game: str, seats: int) -> None:
    report = table_sim(game, seats=seats, seed=2, frames=False)
    assert report.same and report.actions_same, report.to_json()


@pytest.mark.parametrize("game", ["beggar", "ratscrew", "eleusis"])
def test_a_short_deal_read_from_frames_is_the_deal_played(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import games.pileplay

    monkeypatch.setattr(games.pileplay, "DEAL_ACTIONS", 16)  # a short deal: frames are slow to render
    report = table_sim(game, seats=4, seed=1, fps=10)
    assert report.same and report.actions_same, report.to_json()
    assert report.events_read == report.events_played > 8


def test_after_a_take_is_undone_the_mat_is_read_again(tmp_path: Path) -> None:
    session = _session(tmp_path, "beggar", 2)
    session.submit({"act": "deal", "dealer": 1})
    for card in ("5H", "JS", "3C"):
        lay(session, card)
    lift(session, "3C")  # Bob takes the pile he won
    session.undo()  # pressed by mistake: the game holds the pile again
    assert session.view().pile == ("5H", "JS", "3C")
    lay(session, "9D")  # Bob leads onto the empty place: the mat shows the pile taken
    assert session.protocol.ask is None
    assert acts(session)[-2:] == [{"act": "take", "player": 1}, {"act": "play", "player": 1, "card": "9D"}]
    lift(session, "9D")  # nobody has won this pile: lifting it means nothing
    lay(session, "9D")  # laid back: the same card seen again, not played twice
    assert len(session.entries) == 6
    session.undo()
    session.undo()  # the lead and the take: the pile is put back on the mat
    lay(session, "3C")
    assert session.protocol.ask is None and len(session.entries) == 4
    lift(session, "3C")
    assert acts(session)[-1] == {"act": "take", "player": 1} and len(session.entries) == 5
