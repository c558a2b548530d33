"""Bourré (seed 002): the strict rules of the play, the pot in chips, bourré and the ante, the
referee's revoke claims, the rule card's worked examples and random whole games."""

import json
import re
from pathlib import Path

import pytest

from games import IllegalActionError, new_game
from games.bourre import legal_plays
from games.cards import FRENCH_52, Card
from games.records import load_record, replay, steps
from games.trickplay import autoplay
from pegpi.cli import main

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
CARD = (ROOT / "seeds" / "bourre.md").read_text()


def table_after(heading: str) -> list[list[str]]:
    """The rows of the first table under ``heading`` in the rule card (header excluded)."""
    section = CARD.split(heading, 1)[1]
    block = []
    for line in section.splitlines()[1:]:
        if line.startswith("|"):
            block.append(line)
        elif block:
            break
    assert block, f"no table under {heading!r}"
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in block[2:]]


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


@pytest.mark.parametrize("row", table_after("### Legal plays"))
def test_rule_card_legal_plays(row):
    trump, trick, hand, allowed = row
    played = [] if trick == "(lead)" else [(i, c) for i, c in enumerate(cards(trick))]
    assert set(legal_plays(cards(hand), played, trump)) == set(cards(allowed))


def test_seed_example_replays_to_the_rule_cards_chips():
    record = load_record(GOLDEN / "bourre_seed_example.json")
    table = table_after("Chips won or lost")
    snapshots = []
    for before, action, _ in steps(record):
        if action.act == "deal" and before.deals > 0:
            snapshots.append((before.pot, before.scores))
    result = replay(record).state
    snapshots.append((result.pot, result.scores))
    assert len(snapshots) == len(table) == 3
    for (pot, scores), row in zip(snapshots, table, strict=True):
        assert [pot, *scores] == [int(x) for x in row[1:]]
    assert [result.pot, result.scores] == [record["expect"]["pot"], record["expect"]["scores"]]
    assert result.claims == []  # the example's plays keep the strict rules


def with_hands(record):
    """The seed example with every hand known: the plays decide the active hands, the rest of
    the pack is shared out to those who passed (the dealer keeping the turned-up card)."""
    record = json.loads(json.dumps(record))
    n = len(record["players"])
    actions = record["actions"]
    deals = [i for i, a in enumerate(actions) if a["act"] == "deal"]
    dealer = actions[deals[0]]["dealer"]
    for k, start in enumerate(deals):
        end = deals[k + 1] if k + 1 < len(deals) else len(actions)
        trump = next(a["card"] for a in actions[start:end] if a["act"] == "trump")
        hands = [[] for _ in range(n)]
        for a in actions[start:end]:
            if a["act"] == "play":
                hands[a["player"]].append(a["card"])
        if trump not in hands[dealer]:
            hands[dealer].append(trump)
        used = {c for h in hands for c in h}
        spare = [str(c) for c in FRENCH_52 if str(c) not in used]
        for h in hands:
            while len(h) < 5:
                h.append(spare.pop())
        actions[start]["hands"] = hands
        dealer = (dealer + 1) % n
    return record


def test_seed_example_with_hands_known_is_legal_and_scores_the_same():
    record = load_record(GOLDEN / "bourre_seed_example.json")
    assert replay(with_hands(record)).state.scores == record["expect"]["scores"]


def test_pegpi_replay_runs_the_golden_record(capsys):
    code = main(["replay", str(GOLDEN / "bourre_seed_example.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["scores"] == [-3, -4, -39, 26, -38, -3, -4]


# ------------------------------------------------------------------------------ the rules


def start(players=4, options=None, hands=None, trump="9H", dealer=0):
    game = new_game("bourre", players, options)
    s = game.new_initial_state()
    s = s.apply_json({"act": "ante"})
    deal = {"act": "deal", "dealer": dealer}
    if hands:
        deal["hands"] = hands
    s = s.apply_json(deal)
    return game, s.apply_json({"act": "trump", "card": trump})


def test_antes_go_to_the_pot_and_count_against_the_chips():
    game = new_game("bourre", 3, {"chips": 20})
    s = game.new_initial_state()
    with pytest.raises(IllegalActionError, match="cannot deal now: ante"):
        s.apply_json({"act": "deal", "dealer": 0})
    s = s.apply_json({"act": "ante", "player": 1})
    with pytest.raises(IllegalActionError, match="not Player 2's turn to ante"):
        s.apply_json({"act": "ante", "player": 1})
    s = s.apply_json({"act": "ante"})
    assert s.pot == 3 and s.view_for(None).chips == (19, 19, 19) and s.phase == "deal"


def test_an_ace_turned_up_makes_the_dealer_play():
    _, s = start(3, trump="AH")
    s = s.apply_json({"act": "draw", "player": 1, "count": 2})
    s = s.apply_json({"act": "pass", "player": 2})
    with pytest.raises(IllegalActionError, match="ace is turned up: the dealer must play"):
        s.apply_json({"act": "pass", "player": 0})


def test_a_lone_player_takes_the_pot_without_play():
    _, s = start(3)
    s = s.apply_json({"act": "pass", "player": 1})
    s = s.apply_json({"act": "pass", "player": 2})
    with pytest.raises(IllegalActionError, match="everyone else passed"):
        s.apply_json({"act": "pass", "player": 0})
    s = s.apply_json({"act": "draw", "player": 0, "count": 0})
    assert s.pot == 0 and s.scores == [2, -1, -1] and s.phase == "ante" and s.owed == {0, 1, 2}


def test_known_hands_refuse_every_broken_rule():
    hands = [["2C", "3C", "4C", "5C", "9H"], ["QD", "4S", "7H", "8H", "JC"],
             ["AD", "6D", "3S", "10H", "JH"], ["5H", "KS", "2S", "6C", "7C"]]
    _, s = start(4, hands=hands, trump="9H")
    for seat in (1, 2, 3):
        s = s.apply_json({"act": "draw", "player": seat, "count": 0})
    s = s.apply_json({"act": "draw", "player": 0, "count": 0})
    # hearts are trumps; Bob leads QD
    s = s.apply_json({"act": "play", "player": 1, "card": "QD"})
    with pytest.raises(IllegalActionError, match="failed to follow suit: play AD"):
        s.apply_json({"act": "play", "player": 2, "card": "10H"})
    with pytest.raises(IllegalActionError, match="failed to beat the highest card: play AD"):
        s.apply_json({"act": "play", "player": 2, "card": "6D"})
    s = s.apply_json({"act": "play", "player": 2, "card": "AD"})
    with pytest.raises(IllegalActionError, match="failed to trump: play 5H"):
        s.apply_json({"act": "play", "player": 3, "card": "KS"})
    s = s.apply_json({"act": "play", "player": 3, "card": "5H"})
    with pytest.raises(IllegalActionError, match="does not hold 7H"):
        s.apply_json({"act": "play", "player": 0, "card": "7H"})
    with pytest.raises(IllegalActionError, match="Player 1 failed to trump: play 9H"):
        s.apply_json({"act": "play", "player": 0, "card": "2C"})  # 9H overtrumps the 5H
    s = s.apply_json({"act": "play", "player": 0, "card": "9H"})
    assert s.tricks == [1, 0, 0, 0] and s.turn == 0
    assert s.view_for(0).legal == ("2C", "3C", "4C", "5C") and s.view_for(3).legal is None


def test_the_turned_up_card_is_the_dealers():
    _, s = start(3, trump="9H")
    for seat in (1, 2, 0):
        s = s.apply_json({"act": "draw", "player": seat, "count": 1})
    with pytest.raises(IllegalActionError, match="9H is the dealer's turned-up card"):
        s.apply_json({"act": "play", "player": 1, "card": "9H"})
    s = s.apply_json({"act": "play", "player": 1, "card": "2C"})
    with pytest.raises(IllegalActionError, match="2C has already been played"):
        s.apply_json({"act": "play", "player": 2, "card": "2C"})


def play_deal(s, plays):
    for seat, card in plays:
        s = s.apply_json({"act": "play", "player": seat, "card": card})
    return s


def test_claims_are_accepted_or_dismissed():
    _, s = start(3, options={"chips": 10}, trump="9H")
    for seat in (1, 2, 0):
        s = s.apply_json({"act": "draw", "player": seat, "count": 0})
    # trick 1: Bob leads AS, Cy discards 2C (no spades?), Ann follows 3S
    s = play_deal(s, [(1, "AS"), (2, "2C"), (0, "3S")])
    assert s.claims == [] and s.turn == 1
    # trick 2: Bob leads 4C, Cy plays 5S: a spade, so his 2C in trick 1 was a revoke
    s = play_deal(s, [(1, "4C")])
    s = s.apply_json({"act": "play", "player": 2, "card": "5S"})
    assert len(s.claims) == 1
    claim = s.claims[0]
    assert (claim.deal, claim.trick, claim.player, str(claim.card), str(claim.proof)) == (1, 1, 2, "2C", "5S")
    assert claim.rule == "failed to follow suit" and claim.amount == 3
    view = s.view_for(None)
    assert "Player 3 failed to follow suit in trick 1 of deal 1" in view.claims[0].say
    accepted = s.apply_json({"act": "accept", "claim": 0})
    assert accepted.scores[2] == s.scores[2] - 3 and accepted.carry == 3 and accepted.pot == s.pot
    with pytest.raises(IllegalActionError, match="already accepted"):
        accepted.apply_json({"act": "dismiss", "claim": 0})
    dismissed = s.apply_json({"act": "dismiss", "claim": 0})
    assert dismissed.scores == s.scores and dismissed.claims[0].status == "dismissed"
    with pytest.raises(IllegalActionError, match="no revoke claim 1"):
        s.apply_json({"act": "accept", "claim": 1})


def test_a_dealer_who_stood_pat_holds_the_turned_up_card():
    _, s = start(3, trump="9H")
    s = s.apply_json({"act": "draw", "player": 1, "count": 2})
    s = s.apply_json({"act": "draw", "player": 2, "count": 1})
    s = s.apply_json({"act": "draw", "player": 0, "count": 0})
    s = play_deal(s, [(1, "2C"), (2, "3C"), (0, "5S")])  # Ann shows no club and does not trump
    claim = s.claims[0]
    assert (claim.player, claim.trick, str(claim.card), str(claim.proof), claim.rule) == \
        (0, 1, "5S", "9H", "failed to trump")


def test_a_player_enters_the_hand_on_the_phone(view_texts):
    """Cy enters his four cards after the first trick: his illegal cards are refused from then on,
    his phone shows what he may play, and no other view shows his cards."""
    _, s = start(3, trump="9H")
    for seat in (1, 2, 0):
        s = s.apply_json({"act": "draw", "player": seat, "count": 0})
    s = play_deal(s, [(1, "AS"), (2, "2C"), (0, "3S")])  # Cy shows no spade...
    with pytest.raises(IllegalActionError, match="holds 4 different cards, not 5"):
        s.apply_json({"act": "hand", "player": 2, "cards": ["5S", "6S", "KD", "QD", "JD"]})
    with pytest.raises(IllegalActionError, match="AS has already been played"):
        s.apply_json({"act": "hand", "player": 2, "cards": ["AS", "6S", "KD", "QD"]})
    with pytest.raises(IllegalActionError, match="9H is in another player's hand"):
        s.apply_json({"act": "hand", "player": 2, "cards": ["9H", "6S", "KD", "QD"]})
    s = s.apply_json({"act": "hand", "player": 2, "cards": ["5S", "6S", "KD", "QD"]})
    assert s.view_for(2).hand == ("5S", "6S", "KD", "QD")
    assert not view_texts(s.view_for(1)) & {"5S", "6S", "KD", "QD"}
    s = play_deal(s, [(1, "4S")])
    assert s.view_for(2).legal == ("5S", "6S")
    with pytest.raises(IllegalActionError, match="Player 3 failed to follow suit: play 5S or 6S"):
        s.apply_json({"act": "play", "player": 2, "card": "KD"})
    s = s.apply_json({"act": "play", "player": 2, "card": "5S"})  # ...and this proves trick 1's revoke
    assert [(c.trick, c.player, str(c.proof)) for c in s.claims] == [(1, 2, "5S")]


def test_split_pot_and_bourre_antes_and_the_limit():
    """The limit caps what the winner takes and what a bourré player pays."""
    game = new_game("bourre", 3, {"limit": 2})
    s = game.new_initial_state().apply_json({"act": "ante"})
    s = s.apply_json({"act": "deal", "dealer": 0}).apply_json({"act": "trump", "card": "9H"})
    for seat in (1, 2, 0):
        s = s.apply_json({"act": "draw", "player": seat, "count": 0})
    # Bob wins everything with hearts; hands unknown, all legal
    plays = [(1, "AH"), (2, "2C"), (0, "3C"), (1, "KH"), (2, "4C"), (0, "5C"), (1, "QH"), (2, "6C"),
             (0, "7C"), (1, "JH"), (2, "8C"), (0, "9C"), (1, "10H"), (2, "10C"), (0, "JC")]
    s = play_deal(s, plays)
    # pot 3, limit 2: Bob takes 2 (1 stays), Ann and Cy pay 2 each: 5, then Bob antes: 6
    assert s.pot == 5 and s.owed == {1}
    s = s.apply_json({"act": "ante"})
    assert s.pot == 6 and sum(s.scores) == -6


# ------------------------------------------------------------------------------ random games


def check_state(state, start_chips):
    n = state.game.num_players
    assert sum(state.chips(s) for s in range(n)) + state.pot + state.carry == n * start_chips
    if state.phase == "play":
        assert len(state.seen) == state.trick_no * len(state.active) + len(state.trick)
        assert sum(state.tricks) == state.trick_no


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("known", [False, True])
def test_random_games_keep_chips_and_cards(seed, known, view_texts):
    players = 2 + seed % 7
    options = {"double_ante": seed % 3 == 0, "limit": 10 if seed % 4 == 0 else 0}
    states = []
    record = autoplay("bourre", [f"P{i}" for i in range(players)], seed=seed, known_hands=known, deals=4,
                      options=options, renege=0.0 if known else 0.2, each=states.append)
    for state in states:
        check_state(state, 50)
        if known and state.phase == "play":
            held = [c for s in state.active for c in state.known[s]]
            assert len(held) + len(state.seen) == 5 * len(state.active) == len(set(held) | state.seen)
            for seat in range(players):
                texts = view_texts(state.view_for(seat))
                others = {str(c) for s, h in enumerate(state.known) if s != seat and h for c in h}
                assert not (texts & (others - {str(state.trump_card)}))
    last = replay(record).state
    assert last.is_over and last.deals == 4 and last.scores == states[-1].scores
    for row in last.sheet:
        taken = [t for t in row["tricks"] if t is not None]
        assert sum(taken) == 5


def test_random_games_with_hands_known_never_lose_a_card():
    record = autoplay("bourre", seed=5, known_hands=True, deals=3)
    for _, action, after in steps(record):
        if action.act == "draw" and after.known[action.player] is not None:
            assert len(after.known[action.player]) == 5


def test_record_words():
    record = autoplay("bourre", seed=2, deals=2, known_hands=True)
    words = {a["act"] for a in record["actions"]}
    assert words <= {"ante", "deal", "trump", "pass", "draw", "play", "accept", "dismiss", "end"}
    assert re.search(r"`draw` \| `player`, `count`", CARD)
