"""Gin Rummy (seed 002): the rule card's best melds and scored hands, the refusals a player
meets, the bonuses of a whole game, and random games for two, three and four players checked at
every step (cards kept, nothing hidden shown to another seat)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import IllegalActionError, PegpiError, new_game
from games.cards import FRENCH_52, parse_cards
from games.engine import ScoreRequest
from games.gin import GinRummy, GinState
from games.ginmelds import best_defence, best_melds, deadwood, meld_kind
from games.layoutplay import autoplay
from games.records import load_record, replay
from pegpi.cli import main
from tests.games import rulecards

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
CARD = (ROOT / "seeds" / "gin.md").read_text()


def table_after(heading: str) -> list[list[str]]:
    return rulecards.table_after(CARD, heading)


def texts(cards) -> list[str]:
    return [str(c) for c in cards]


# ------------------------------------------------------------------ best melds


@pytest.mark.parametrize("row", table_after("## Best melds"))
def test_rule_card_best_melds(row, capsys):
    hand, dead, melds = row
    best = best_melds(parse_cards(hand))
    assert best.deadwood == int(dead)
    assert [" ".join(texts(m)) for m in best.melds] == ([m.strip() for m in melds.split(",")] if melds else [])
    assert main(["score", "gin", *hand.split(), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"deadwood": int(dead), "melds": [texts(m) for m in best.melds]}


def test_best_melds_leave_the_least_deadwood_of_any_arrangement():
    import itertools
    import random

    rng = random.Random(3)
    pool = [c for c in FRENCH_52 if c.rank <= 5]  # 20 cards: hands dense with melds
    for _ in range(40):
        hand = rng.sample(pool, 10)
        best = best_melds(hand)
        assert all(meld_kind(m) for m in best.melds)
        laid = [c for m in best.melds for c in m]
        assert sorted(laid + list(best.unmatched)) == sorted(hand) and len(set(laid)) == len(laid)
        # no single meld can be formed from what is left, and no swap does better
        for size in (3, 4):
            for combo in itertools.combinations(best.unmatched, size):
                assert meld_kind(combo) is None or deadwood(combo) == 0


def test_score_command_refuses_bad_hands():
    with pytest.raises(PegpiError, match="jokers"):
        GinRummy.score_command(ScoreRequest(("RJ", "5H")))
    with pytest.raises(PegpiError, match="twice"):
        GinRummy.score_command(ScoreRequest(("5H", "5H")))
    with pytest.raises(PegpiError, match="at most 11"):
        GinRummy.score_command(ScoreRequest(tuple(texts(FRENCH_52[:12]))))
    text = GinRummy.score_command(ScoreRequest(("5H", "5D", "5C", "KS")))
    assert text.splitlines() == ["melds: 5H 5D 5C", "deadwood: KS = 10"]


# ------------------------------------------------------------------ hands scored


def knock_state(variant: str, up: str, keeps: str, out: str, holds: str) -> GinState:
    """A hand dealt known: B (seat 1) takes the turned-up card and knocks with the best melds."""
    kept = parse_cards(keeps)
    dealt = [c for c in kept if str(c) != up] + parse_cards(out)
    game = new_game("gin", ["A", "B"], {"variant": variant})
    s = game.new_initial_state().apply_json(
        {"act": "deal", "dealer": 0, "card": up, "hands": [holds.split(), texts(dealt)]})
    s = s.apply_json({"act": "draw", "player": 1, "source": "discard"})
    melds = [texts(m) for m in best_melds(kept).melds]
    return s.apply_json({"act": "knock", "player": 1, "card": out, "melds": melds})


@pytest.mark.parametrize("row", table_after("## Hands scored"))
def test_rule_card_hands_scored(row):
    variant, up, keeps, out, holds, lays, b_dead, a_dead, who, points = row
    s = knock_state(variant, up, keeps, out, holds)
    hand = s.hands[0]
    plan = best_defence(parse_cards(holds), hand.melds) if not hand.gin else best_melds(parse_cards(holds))
    assert sorted(c for _, cs in plan.layoffs for c in cs) == sorted(parse_cards(lays))
    for index, laid in plan.layoffs:
        s = s.apply_json({"act": "layoff", "player": 0, "meld": index, "cards": texts(laid)})
    s = s.apply_json({"act": "spread", "player": 0, "melds": [texts(m) for m in plan.melds],
                      "cards": texts(plan.unmatched)})
    view = s.view_for(None)
    assert view.deadwood == (int(a_dead), int(b_dead))
    assert s.scores == ([int(points), 0] if who == "A" else [0, int(points)])
    assert view.boxes == ((1, 0) if who == "A" else (0, 1))
    assert s.phase == "deal" and view.prompt == ("B deals" if who == "A" else "A deals")


def test_a_knock_laid_short_of_the_best_is_scored_as_laid_and_told():
    s = knock_state("standard", "AC", "3S 4S 5S 5D 5H 5C 9H 10H JH AC", "KD", "2D 2H 2C 8S 8D 8C QS QH 7H 6D")
    s1 = new_game("gin", ["A", "B"]).new_initial_state().apply_json(
        {"act": "deal", "dealer": 0, "card": "AC",
         "hands": ["2D 2H 2C 8S 8D 8C QS QH 7H 6D".split(), "3S 4S 5S 5D 5H 5C 9H 10H JH KD".split()]})
    s1 = s1.apply_json({"act": "draw", "player": 1, "source": "discard"})
    with pytest.raises(IllegalActionError, match="laid twice"):
        s1.apply_json({"act": "knock", "player": 1, "card": "KD",
                       "melds": [["3S", "4S", "5S"], ["5S", "5D", "5H", "5C"], ["9H", "10H", "JH"]]})
    short = s1.apply_json({"act": "knock", "player": 1, "card": "KD",
                           "melds": [["5S", "5D", "5H", "5C"], ["9H", "10H", "JH"]]})
    table = short.view_for(None).tables[0]
    assert table.seats == (1, 0) and short.view_for(None).deadwood == (None, 8)
    assert table.better == (7, None) and s.view_for(None).tables[0].better == (0, None)
    short = short.apply_json({"act": "spread", "player": 0, "melds": [["2D", "2H", "2C"], ["8S", "8D", "8C"]]})
    assert short.scores == [0, 33 - 8] and "could have had 7 less" in short.view_for(None).tables[0].result


def test_refusals_name_the_problem():
    game = new_game("gin", ["A", "B"])
    s = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="who deals"):
        s.apply_json({"act": "deal", "card": "5H"})
    s = s.apply_json({"act": "deal", "dealer": 0, "card": "5H"})
    with pytest.raises(IllegalActionError, match="not A's turn"):
        s.apply_json({"act": "pass", "player": 0})
    with pytest.raises(IllegalActionError, match="takes the turned-up card or passes"):
        s.apply_json({"act": "draw", "player": 1})
    s = s.apply_json({"act": "pass", "player": 1}).apply_json({"act": "pass", "player": 0})
    with pytest.raises(IllegalActionError, match="draw from the stock"):
        s.apply_json({"act": "draw", "player": 1, "source": "discard"})
    s = s.apply_json({"act": "draw", "player": 1})
    with pytest.raises(IllegalActionError, match="5H is not in B's hand"):
        s.apply_json({"act": "discard", "player": 1, "card": "5H"})
    with pytest.raises(IllegalActionError, match="give the unmatched cards"):
        s.apply_json({"act": "knock", "player": 1, "card": "KS", "melds": [["2S", "3S", "4S"]]})
    with pytest.raises(IllegalActionError, match="KD KC is no set or run"):
        s.apply_json({"act": "knock", "player": 1, "card": "KS", "melds": [["KD", "KC"]], "cards": []})
    s = s.apply_json({"act": "discard", "player": 1, "card": "9C"})
    s = s.apply_json({"act": "draw", "player": 0, "source": "discard"})
    with pytest.raises(IllegalActionError, match="took 9C from the discard pile this turn"):
        s.apply_json({"act": "discard", "player": 0, "card": "9C"})
    with pytest.raises(IllegalActionError, match="A holds 9C: lay it too"):
        s.apply_json({"act": "knock", "player": 0, "card": "2C", "melds": [["3S", "4S", "5S"]],
                      "cards": ["AD", "AH", "2H", "2D", "AC", "3C", "4C"]})
    with pytest.raises(IllegalActionError, match="deadwood.*the limit is 10"):
        s.apply_json({"act": "knock", "player": 0, "card": "2C", "melds": [["3S", "4S", "5S"]],
                      "cards": ["9C", "AH", "2H", "2D", "AC", "3C", "4C"]})


def test_gin_refuses_deadwood_and_layoffs():
    s = knock_state("standard", "KC", "5D 6D 7D 8D 9D 9C 10C JC QC KC", "2S", "4D 10D 3S 3H 3C AH AC KS KH 2H")
    assert s.view_for(None).tables[0].gin
    with pytest.raises(IllegalActionError, match="nothing is laid off on gin"):
        s.apply_json({"act": "layoff", "player": 0, "meld": 0, "cards": ["4D"]})
    s2 = new_game("gin", ["A", "B"]).new_initial_state().apply_json(
        {"act": "deal", "dealer": 0, "card": "KC",
         "hands": ["4D 10D 3S 3H 3C AH AC KS KH 2H".split(), "5D 6D 7D 8D 9D 9C 10C JC QC 2S".split()]})
    s2 = s2.apply_json({"act": "pass", "player": 1}).apply_json({"act": "pass", "player": 0})
    s2 = s2.apply_json({"act": "draw", "player": 1, "card": "4C"})
    with pytest.raises(IllegalActionError, match="gin lays every card"):
        s2.apply_json({"act": "gin", "player": 1, "card": "2S", "melds": [["5D", "6D", "7D", "8D", "9D"]]})


def test_layoffs_must_fit_and_only_the_defender_lays_off():
    s = knock_state("standard", "5H", "3H 4H 5H 6H 9S 9D 9C 2C 3C AD", "KS", "7H 8H 9H QS QD QH 10C JC 4D 2S")
    with pytest.raises(IllegalActionError, match="not B's turn"):
        s.apply_json({"act": "layoff", "player": 1, "meld": 0, "cards": ["7H"]})
    melds = s.hands[0].melds
    run = next(i for i, m in enumerate(melds) if meld_kind(m) == "run")
    with pytest.raises(IllegalActionError, match="do not go on"):
        s.apply_json({"act": "layoff", "player": 0, "meld": run, "cards": ["8H"]})
    s = s.apply_json({"act": "layoff", "player": 0, "meld": run, "cards": ["7H"]})
    s = s.apply_json({"act": "layoff", "player": 0, "meld": run, "cards": ["8H"]})
    assert [str(c) for c in s.hands[0].melds[run]] == ["3H", "4H", "5H", "6H", "7H", "8H"]
    with pytest.raises(IllegalActionError, match="A holds .*: lay 9H JC 4D 2S too"):
        s.apply_json({"act": "spread", "player": 0, "melds": [["QS", "QD", "QH"]], "cards": ["10C"]})
    s = s.apply_json({"act": "spread", "player": 0, "melds": [["QS", "QD", "QH"]]})
    assert s.view_for(None).deadwood == (9 + 10 + 10 + 4 + 2, 6)


def test_a_hand_is_void_when_the_stock_is_down_to_two():
    s = new_game("gin", ["A", "B"]).new_initial_state().apply_json({"act": "deal", "dealer": 1, "card": "5H"})
    s = s.apply_json({"act": "pass", "player": 0}).apply_json({"act": "pass", "player": 1})
    seat = 0
    discards = iter(c for c in FRENCH_52 if str(c) != "5H")
    while True:
        s = s.apply_json({"act": "draw", "player": seat})
        stock = s.view_for(None).stock
        s = s.apply_json({"act": "discard", "player": seat, "card": str(next(discards))})
        if stock == 2:
            break
        seat = 1 - seat
    assert s.phase == "deal" and s.scores == [0, 0]
    assert "void" in s.view_for(None).tables[0].result and s.prompt() == "B deals"


def test_oklahoma_limit_and_ace_gin():
    game = new_game("gin", ["A", "B"], {"variant": "oklahoma", "ace_gin": True})
    assert game.target == 150 and new_game("gin", 4).target == 125 and new_game("gin", 2).target == 100
    s = game.new_initial_state().apply_json(
        {"act": "deal", "dealer": 0, "card": "AS",
         "hands": ["4D 10D 3S 3H 3C AH AC KS KH 2H".split(), "5D 6D 7D 8D 9D 9C 10C JC QC 2S".split()]})
    s = s.apply_json({"act": "draw", "player": 1, "source": "discard"})
    with pytest.raises(IllegalActionError, match="limit is 0"):
        s.apply_json({"act": "knock", "player": 1, "card": "2S",
                      "melds": [["5D", "6D", "7D", "8D", "9D"], ["9C", "10C", "JC", "QC"]]})


def test_options_are_bounded():
    with pytest.raises(PegpiError):
        new_game("gin", 2, {"target": 3})
    with pytest.raises(PegpiError):
        new_game("gin", 2, {"gin_bonus": 1000})
    with pytest.raises(PegpiError, match="played by 2 or 3 or 4 players, not 5"):
        new_game("gin", 5)


# ------------------------------------------------------------------ whole games


def check_game(record, states) -> None:
    """Invariants at every step, and the bonuses of the end."""
    n = len(record["players"])
    secret = record.get("secret")
    for index, state in enumerate(states):
        assert isinstance(state, GinState)
        for hand in state.hands:
            if hand.step in ("void",):
                continue
            cards = sum(hand.count.values()) + hand.stock + len(hand.pile)
            laid_away = sum(len(x) for x in hand.laid)
            assert cards + laid_away == 52
        for seat in (None, *range(n)) if index % 3 == 0 or index == len(states) - 1 else ():
            view = state.view_for(seat)
            wire = json.loads(json.dumps(view.to_json()))
            for hand in state.hands:
                if hand.step in ("layoff", "done", "void"):
                    continue  # the hands are on the table
                # four players: two packs, so each hand is checked against its own table's part
                part = [t for t in wire["tables"] if t["seats"] == list(hand.seats)]
                words = set(_words(wire if n < 4 else [part, wire["hand"] if seat in hand.seats else None]))
                for other in hand.seats:
                    if other == seat:
                        continue
                    hidden = set(map(str, hand.known[other] or ())) - set(map(str, hand.taken[other]))
                    hidden -= {str(c) for c in hand.pile}
                    assert not hidden & words, (seat, hidden & words)
    final = states[-1]
    if final.is_over and n < 4:
        kinds = [e.kind for e in final.events]
        game = [e for e in final.events if e.kind == "game"]
        assert len(game) == 1 and game[0].points in (100, 200)
        boxes = {e.side: e.points for e in final.events if e.kind == "boxes"}
        assert boxes == {s: 20 * b for s, b in enumerate(final.boxes) if b}
        assert sum(final.boxes) == final.round and kinds.index("game") > max(
            i for i, k in enumerate(kinds) if k == "hand")
        hands_only = [sum(e.points for e in final.events if e.kind == "hand" and e.side == s) for s in range(n)]
        assert max(hands_only) == hands_only[final.winner] >= final.game.target
    if secret is not None:
        assert all(len(d["hands"]) == 2 for d in secret)


def _words(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _words(v)
    elif isinstance(value, list):
        for v in value:
            yield from _words(v)
    elif isinstance(value, str):
        yield value


@pytest.mark.parametrize("seed", range(6))
def test_random_whole_games_keep_every_card_and_hide_every_hand(seed):
    players = ["A", "B", "C", "D"][: 2 + seed % 3]
    options = {"variant": "oklahoma"} if seed % 2 else {}
    if seed in (1, 2):
        options["target"] = 50  # whole games of three and four players, kept short
    states: list[GinState] = []
    record = autoplay("gin", players, seed=seed, known_hands=seed % 4 < 2, deals=0 if seed < 3 else 3,
                      options=options, each=states.append)
    check_game(record, states)
    assert states[-1].is_over or seed >= 3
    again = replay(record).state
    assert again.scores == states[-1].scores and again.winner == states[-1].winner


def test_four_players_score_as_teams():
    states: list[GinState] = []
    autoplay("gin", ["A", "B", "C", "D"], seed=4, deals=6, each=states.append)
    for before, after in zip(states, states[1:], strict=False):
        if after.round > before.round:
            won = [h.winner for h in after.hands]
            points = [h.points for h in after.hands]
            teams = [w % 2 for w in won]
            gained = [after.scores[i] - before.scores[i] for i in (0, 1)]
            if teams[0] == teams[1]:
                assert gained[teams[0]] == sum(points)
            else:
                by_team = [sum(p for p, t in zip(points, teams, strict=True) if t == side) for side in (0, 1)]
                assert sorted(gained) == [0, abs(by_team[0] - by_team[1])]
                if by_team[0] != by_team[1]:
                    assert gained[by_team.index(max(by_team))] == abs(by_team[0] - by_team[1])


def test_three_players_the_dealer_sits_out_and_the_loser_deals():
    states: list[GinState] = []
    autoplay("gin", ["A", "B", "C"], seed=2, deals=5, each=states.append)
    for before, after in zip(states, states[1:], strict=False):
        if before.phase == "deal" and after.phase != "deal":
            hand = after.hands[0]
            assert hand.dealer not in hand.seats and len(set(hand.seats)) == 2
        if after.round > before.round:
            hand = after.hands[0]
            assert after.next_dealer == hand.other(hand.winner)


def test_golden_record_replays():
    record = load_record(GOLDEN / "gin_one_game.json")
    result = replay(record).state
    assert [result.scores, result.winner, list(result.boxes)] == [
        record["expect"]["scores"], record["expect"]["winner"], record["expect"]["boxes"]]
    fresh = autoplay("gin", record["players"], seed=record["expect"]["seed"], known_hands=True, deals=0)
    assert fresh["actions"] == record["actions"]


def test_pegpi_replay_prints_the_golden_record(capsys):
    assert main(["replay", str(GOLDEN / "gin_one_game.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["phase"] == "over" and out["winner"] is not None


def test_a_game_entered_on_the_phone_scores_as_the_record(tmp_path):
    from device.session import Session
    from device.store import Store

    record = autoplay("gin", ["Ann", "Bob"], seed=3, deals=2)
    session = Session(Store(tmp_path / "gin.db"), game="gin", players=record["players"],
                      options=record["options"], ping_s=0.01)
    for action in record["actions"]:
        session.submit(action, source="phone")
    assert session.state.scores == replay(record).state.scores
    # the phone's actions score with the table's protocol in place, which plays two at the mat
    assert type(session.protocol).__name__ == "RummyProtocol" and session.view(0).message is None
