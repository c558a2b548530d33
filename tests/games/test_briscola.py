"""Briscola Chiamata (seed 002): the Italian pack from French cards, the auction in each variant,
the called card and the secret partner, 120 card points, game points, the rule card's worked
examples and random whole games."""

import json
from pathlib import Path

import pytest

from games import CardError, IllegalActionError, new_game
from games.briscola import POINTS, deal_scores
from games.cards import ITALIAN_40
from games.records import load_record, replay, steps
from games.trickplay import autoplay
from pegpi.cli import main

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
CARD = (ROOT / "seeds" / "briscola.md").read_text()
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


def table_after(heading: str) -> list[list[str]]:
    """The rows of the first table under ``heading`` in the rule card (header excluded)."""
    block = []
    for line in CARD.split(heading, 1)[1].splitlines()[1:]:
        if line.startswith("|"):
            block.append(line)
        elif block:
            break
    assert block, f"no table under {heading!r}"
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in block[2:]]


def test_the_pack_and_its_points():
    game = new_game("briscola", NAMES)
    assert len(ITALIAN_40) == 40 and sum(POINTS[c.rank] for c in ITALIAN_40) == 120
    for bad in ("8H", "9C", "10S", "RJ"):
        with pytest.raises(CardError, match="not in the 40-card Italian pack"):
            game.parse_card(bad)
    with pytest.raises(Exception, match="played by 5 players, not 4"):
        new_game("briscola", 4)


@pytest.mark.parametrize("row", table_after("### Game points"))
def test_rule_card_game_points(row):
    bid, partner, took, every, bidder, mate, opponent = row
    who = 2 if partner == "yes" else None
    scores = deal_scores(0, who, int(bid), int(took), every == "yes")
    assert scores[0] == int(bidder) and scores[1] == int(opponent) and sum(scores) == 0
    assert scores[2] == (int(mate) if who else int(opponent))


def dealt(first, variant="basic"):
    """A known deal: seat ``s`` gets the eight cards of ``first[s]`` and what the pack adds."""
    rest = [str(c) for c in ITALIAN_40 if all(str(c) not in h for h in first)]
    hands = []
    for hand in first:
        hand = list(hand)
        while len(hand) < 8:
            hand.append(rest.pop())
        hands.append(hand)
    game = new_game("briscola", NAMES, {"variant": variant})
    return game, game.new_initial_state().apply_json({"act": "deal", "dealer": 0, "hands": hands})


def auction(s, *said):
    """Run the auction from the dealer's right (seat 4, then 3, ...): a bid or "pass" each."""
    for word in said:
        seat = s.turn
        if word == "pass":
            s = s.apply_json({"act": "pass", "player": seat})
        elif isinstance(word, int):
            s = s.apply_json({"act": "bid", "player": seat, "points": word})
        else:
            rank, _, points = word.partition("@")
            bid = {"act": "bid", "player": seat, "rank": rank}
            if points:
                bid["points"] = int(points)
            s = s.apply_json(bid)
    return s


@pytest.mark.parametrize("row", table_after("### Calling after a bid of two"))
def test_rule_card_calls_after_a_bid_of_two(row):
    holds, may = row[0].split(), set(row[1].split())
    _, s = dealt([[], [], [], [], holds])
    s = auction(s, "2", "pass", "pass", "pass", "pass")
    assert s.bidder == 4 and s.phase == "call"
    for card in [str(c) for c in ITALIAN_40 if c.suit == "H"]:
        if card in may:
            assert s.apply_json({"act": "call", "player": 4, "card": card}).trump == "H"
        else:
            with pytest.raises(IllegalActionError):
                s.apply_json({"act": "call", "player": 4, "card": card})


def test_the_auction_of_ranks_then_points():
    game = new_game("briscola", NAMES)
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 0})
    assert s.turn == 4  # the dealer's right
    s = auction(s, "A", "K")
    with pytest.raises(IllegalActionError, match="higher than K"):
        auction(s, "3")
    with pytest.raises(IllegalActionError, match="only a bid of two may raise"):
        auction(s, "J@70")
    s = auction(s, "pass", "2", "pass")  # Cy passes; Bob bids two; Ann passes
    with pytest.raises(IllegalActionError, match="higher than 2"):
        auction(s, "2")
    s = auction(s, "2@64", "pass")  # Ed raises to 64 points, Di passes
    assert s.turn == 1  # Cy and Ann are out: Bob
    s = auction(s, "2@70", "pass")
    assert s.bidder == 1 and s.bid_points == 70 and s.phase == "call"
    with pytest.raises(IllegalActionError, match="not Ann's turn to call"):
        s.apply_json({"act": "call", "player": 0, "card": "2H"})


def test_basic_all_pass_is_a_new_deal_by_the_same_dealer():
    game = new_game("briscola", NAMES)
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 2})
    s = auction(s, *["pass"] * 5)
    assert s.phase == "deal"
    with pytest.raises(IllegalActionError, match="Cy's deal"):
        s.apply_json({"act": "deal", "dealer": 1})
    assert s.apply_json({"act": "deal"}).dealer == 2


def test_subito_reopen_and_redeal():
    game = new_game("briscola", NAMES, {"variant": "subito"})
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 0})
    with pytest.raises(IllegalActionError, match="points only"):
        auction(s, "K")
    s = auction(s, *["pass"] * 5)
    assert s.phase == "reopen"
    assert s.apply_json({"act": "redeal"}).phase == "deal"
    s = s.apply_json({"act": "reopen", "player": 2})
    assert s.bidder == 2 and s.bid_points == 61 and s.turn == 1
    s = auction(s, "pass", "pass", 65, "pass", "pass")  # Bob, Ann pass; Ed 65; Di, Cy pass
    assert s.bidder == 4 and s.phase == "call"
    with pytest.raises(IllegalActionError, match="calls a two"):
        s.apply_json({"act": "call", "player": 4, "card": "AS"})


def test_the_partner_is_secret_until_the_called_card_is_played(view_texts):
    game, s = dealt([["AS"], ["2S"], [], [], ["KH"]])
    s = auction(s, "Q", "pass", "pass", "pass", "pass")
    s = s.apply_json({"act": "call", "player": 4, "card": "QS"})
    holder = next(i for i, h in enumerate(s.known) if "QS" in map(str, h))
    for seat in range(5):
        view = s.view_for(seat)
        assert view.partner == (holder if seat == holder else None)
        others = {str(c) for i, h in enumerate(s.known) if i != seat for c in h} - {"QS"}
        assert not view_texts(view) & others
    s = s.apply_json({"act": "play", "player": 4, "card": "KH"})
    while s.turn != holder:
        s = s.apply_json({"act": "play", "player": s.turn, "card": str(s.known[s.turn][0])})
    s = s.apply_json({"act": "play", "player": holder, "card": "QS"})
    assert all(s.view_for(seat).partner == holder for seat in (None, 0, 1, 2, 3, 4))


def test_a_player_enters_the_hand_on_the_phone(view_texts):
    game = new_game("briscola", NAMES)
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 0})
    s = auction(s, "K", "pass", "pass", "pass", "pass")
    s = s.apply_json({"act": "call", "player": 4, "card": "KD"})
    s = s.apply_json({"act": "play", "player": 4, "card": "AS"})
    mine = ["KD", "2S", "3S", "4S", "5S", "6S", "7S", "JS"]
    with pytest.raises(IllegalActionError, match="holds 8 different cards, not 7"):
        s.apply_json({"act": "hand", "player": 3, "cards": mine[:7]})
    with pytest.raises(IllegalActionError, match="AS has already been played"):
        s.apply_json({"act": "hand", "player": 3, "cards": ["AS", *mine[1:]]})
    s = s.apply_json({"act": "hand", "player": 3, "cards": mine})
    assert s.view_for(3).hand == tuple(mine) and s.view_for(3).partner == 3
    for seat in (None, 0, 1, 2, 4):
        assert not view_texts(s.view_for(seat)) & (set(mine) - {"KD"}) and s.view_for(seat).partner is None
    with pytest.raises(IllegalActionError, match="Di does not hold QS"):
        s.apply_json({"act": "play", "player": 3, "card": "QS"})
    with pytest.raises(IllegalActionError, match="2S is in another player's hand"):
        s.apply_json({"act": "hand", "player": 2, "cards": ["2S", "AH", "3H", "KH", "QH", "JH", "7H", "6H"]})


def test_hands_unknown_a_card_is_played_once():
    game = new_game("briscola", NAMES)
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 0})
    s = auction(s, "K", "pass", "pass", "pass", "pass")
    s = s.apply_json({"act": "call", "player": 4, "card": "KD"})
    s = s.apply_json({"act": "play", "player": 4, "card": "AS"})
    with pytest.raises(IllegalActionError, match="AS has already been played"):
        s.apply_json({"act": "play", "player": 3, "card": "AS"})
    with pytest.raises(IllegalActionError, match="not Ed's turn"):
        s.apply_json({"act": "play", "player": 4, "card": "3S"})


def test_buio_calls_after_the_first_trick_and_bars_twos():
    game = new_game("briscola", NAMES, {"variant": "buio"})
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 0})
    s = auction(s, "pass", 70, "pass", "pass", "pass")  # Di (seat 3) bids 70
    assert s.bidder == 3 and s.phase == "play" and s.turn == 4 and s.trump is None
    s = s.apply_json({"act": "play", "player": 4, "card": "AS"})
    s = s.apply_json({"act": "play", "player": 3, "card": "4C"})
    with pytest.raises(IllegalActionError, match="no two may be played to the first trick"):
        s.apply_json({"act": "play", "player": 2, "card": "2S"})
    s = s.apply_json({"act": "play", "player": 2, "card": "5C"})
    s = s.apply_json({"act": "play", "player": 1, "card": "3S"})
    s = s.apply_json({"act": "play", "player": 0, "card": "7C"})
    assert s.phase == "call" and s.tricks == [0] * 5
    won = s.apply_json({"act": "call", "player": 3, "card": "2C"})  # clubs: Ann's 7C takes it
    assert won.tricks == [1, 0, 0, 0, 0] and won.turn == 0 and won.card_points(0) == 21
    hearts = s.apply_json({"act": "call", "player": 3, "card": "2H"})  # hearts: Ed's ace wins
    assert hearts.tricks == [0, 0, 0, 0, 1] and hearts.turn == 4


def test_buio_the_bidder_may_play_a_two_last():
    game = new_game("briscola", NAMES, {"variant": "buio"})
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 0})
    s = auction(s, "pass", "pass", "pass", "pass", 61)  # Ann (seat 0) bids, plays last
    for seat, card in [(4, "AS"), (3, "4C"), (2, "5C"), (1, "3S")]:
        s = s.apply_json({"act": "play", "player": seat, "card": card})
    s = s.apply_json({"act": "play", "player": 0, "card": "2D"})
    assert s.phase == "call"
    s = s.apply_json({"act": "call", "player": 0, "card": "2D"})  # she called her own two: alone
    assert s.partner == 0 and s.revealed and s.tricks[0] == 1


def test_monte_laid_away_cards_count_for_the_last_trick():
    record = load_record(GOLDEN / "briscola_monte_one_deal.json")
    state = replay(record).state
    laid = [c for c in ITALIAN_40 if c not in state.seen]
    assert len(laid) == 5 and sum(POINTS[c.rank] for c in laid) == record["expect"]["laid_away"]


@pytest.mark.parametrize("row", table_after("### Two whole deals"))
def test_rule_card_whole_deals(row):
    name, bidder, called, partner, points, laid, took, scores = row
    record = load_record(GOLDEN / f"{name}.json")
    state = replay(record).state
    sheet = state.sheet[0]
    assert (sheet["bidder"], sheet["called"], sheet["partner"]) == (int(bidder), called, int(partner))
    assert sheet["card_points"] == [int(p) for p in points.split()]
    assert (sheet["laid_away"], sheet["taken"]) == (int(laid), int(took))
    assert state.scores == [int(p) for p in scores.split()] == record["expect"]["scores"]
    assert sum(sheet["card_points"]) + sheet["laid_away"] == 120


def test_pegpi_replay_runs_the_golden_record(capsys):
    code = main(["replay", str(GOLDEN / "briscola_one_deal.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["scores"] == [2, -1, -1, -1, 1]


# ------------------------------------------------------------------------------ random games


@pytest.mark.parametrize("variant", ["basic", "subito", "buio", "points", "monte"])
@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_120_points_and_hide_hands(variant, seed, view_texts):
    states = []
    options = {"variant": variant, "direction": "left" if seed == 3 else "right"}
    record = autoplay("briscola", NAMES, seed=seed, known_hands=True, deals=3, options=options, each=states.append)
    for state in states:
        assert sum(state.scores) == 0
        if state.phase in ("play", "call"):
            held = [c for h in state.known if h is not None for c in h]
            laid = state.discards or []
            pending = state.monte if state.phase == "monte" else []
            assert len(held) + len(state.seen) + len(laid) + len(pending or []) == 40
        for seat in range(5):
            view = state.view_for(seat)
            others = {str(c) for i, h in enumerate(state.known) if i != seat and h for c in h}
            if seat != state.bidder:
                others |= {str(c) for c in state.discards or []}
            others.discard(str(state.called))  # the call names it aloud
            assert not view_texts(view) & others
            if not state.revealed and state.partner is not None and seat != state.partner:
                assert view.partner is None
    last = replay(record).state
    assert last.is_over and last.deals == 3
    for row in last.sheet:
        assert sum(row["card_points"]) + row["laid_away"] == 120 and sum(row["scores"]) == 0
    # the companion with hands unknown scores the very same game
    blind = autoplay("briscola", NAMES, seed=seed, known_hands=False, deals=3, options=options)
    assert replay(blind).state.scores == last.scores


def test_every_step_of_a_record_is_a_legal_action():
    record = autoplay("briscola", NAMES, seed=9, deals=2, options={"variant": "monte"})
    acts = [action.act for _, action, _ in steps(record)]
    assert {"deal", "bid", "monte", "call", "play"} <= set(acts)


def test_a_hand_entered_after_the_monte_cannot_hold_a_card_laid_away():
    record = load_record(GOLDEN / "briscola_monte_one_deal.json")
    game = new_game("briscola", record["players"], options=record["options"])
    s = game.new_initial_state()
    for action in record["actions"][:6]:  # the deal and the auction: Ed bids
        s = s.apply_json(action)
    s = s.apply_json({"act": "monte", "player": 4, "cards": ["AC", "3C", "KC", "QC", "JC"]})
    with pytest.raises(IllegalActionError, match="AC was laid away with the monte"):
        s.apply_json({"act": "hand", "player": 1, "cards": ["AC", "2S", "3S", "4S", "5S", "6S", "7S"]})
    s = s.apply_json({"act": "hand", "player": 1, "cards": ["2S", "3S", "4S", "5S", "6S", "7S", "JS"]})
    assert s.view_for(1).hand == ("2S", "3S", "4S", "5S", "6S", "7S", "JS")
