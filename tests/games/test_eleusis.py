"""New Eleusis (seed 002): the rule builder and its library, God's judging of plays, strings and
"no play", prophets and their overthrow, sudden death, the seed's scoring, and a property test:
for random rules and random plays the judge agrees with a direct reading of the rule's JSON,
and the rule is in no view but God's."""

import json
import random
from pathlib import Path

import pytest

from games import IllegalActionError, new_game
from games.cards import FRENCH_52, Card
from games.eleusis import LinePlace, PendingPlay
from games.eleusis_rules import LIBRARY, RuleError, judge_sequence, read_rule, rule_from_json
from games.pileplay import autoplay
from games.records import load_record, replay
from games.view import view_from_json
from pegpi.cli import main
from tests.games import rulecards

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parent / "golden"
CARD = (ROOT / "seeds" / "eleusis.md").read_text()


def table_after(heading: str) -> list[list[str]]:
    return rulecards.table_after(CARD, heading)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


# ------------------------------------------------------------------------- the rule builder


LIBRARY_ROWS = table_after("### The library")


def test_the_rule_cards_library_is_the_library():
    assert [(r[0], int(r[1])) for r in LIBRARY_ROWS] == [(e.name, e.level) for e in LIBRARY.values()]
    levels = [e.level for e in LIBRARY.values()]
    assert levels == sorted(levels) and levels[0] == 1 and levels[-1] == 4


@pytest.mark.parametrize("row", LIBRARY_ROWS, ids=[r[0] for r in LIBRARY_ROWS])
def test_library_examples(row):
    name, _, good, bad = row
    rule = LIBRARY[name].rule
    for text, want in ((good, True), (bad, False)):
        line, played = text.split(" then ")
        assert judge_sequence(rule, cards(line), cards(played)) is want, text


def test_rules_round_trip_and_read_in_words():
    for example in LIBRARY.values():
        rule = example.rule
        assert rule_from_json(json.loads(json.dumps(rule.to_json()))) == rule
        assert read_rule(example.name) == rule and read_rule(json.dumps(rule.to_json())) == rule
        assert rule.words() and "{" not in rule.words()
    assert LIBRARY["red-up-black-down"].rule.words() == (
        "if the last card is red then the card played has a value higher than the last card, "
        "otherwise the card played has a value at most the last card")


@pytest.mark.parametrize("data,word", [
    ({"is": "purple"}, "purple"),
    ({"is": "red", "card": 3}, "position"),
    ({"value": ">", "than": 14}, "1 .ace. to 13"),
    ({"compare": "suit", "op": "<", "a": 0, "b": 1}, "suit comparisons"),
    ({"compare": "value", "op": "=", "a": 1, "b": 1}, "two different"),
    ({"and": [{"is": "red"}]}, "at least two"),
    ({"if": {"is": "red"}}, "then"),
    ({"colour": "red"}, "starts with"),
    ({"is": "red", "extra": 1}, "extra"),
])
def test_bad_rules_are_named(data, word):
    with pytest.raises(RuleError, match=word):
        rule_from_json(data)


def test_bad_rule_text_from_the_phone():
    with pytest.raises(RuleError, match="library name"):
        read_rule("alternate colours!")


# ------------------------------------------------------------------------- a round step by step


def start(rule="alternate-colours", players=4, starter="5H", **options):
    game = new_game("eleusis", [f"P{i}" for i in range(players)], {"hand": 3, **options})
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 0})
    s = s.apply_json({"act": "rule", "player": 0, "rule": rule})
    return s.apply_json({"act": "starter", "card": starter})


def do(s, act, **fields):
    return s.apply_json({"act": act, **fields})


def test_starter_names_the_first_player_and_only_god_enters_the_rule():
    s = start(starter="5H")  # five counted round the three scientists from God's left
    assert s.turn == 2
    assert start(starter="AH").turn == 1
    fresh = new_game("eleusis", 4).new_initial_state().apply_json({"act": "deal", "dealer": 1})
    with pytest.raises(IllegalActionError, match="turn"):
        fresh.apply_json({"act": "rule", "player": 2, "rule": "no-royals"})


def test_right_wrong_strings_and_penalties():
    s = start()
    s = do(s, "play", player=2, cards=["9S"])
    assert s.ruling.right is True and s.hands[2] == 2 and [str(c) for c in s.line] == ["5H", "9S"]
    s = do(s, "play", player=3, cards=["4C", "8D"])  # the first card is wrong: the string is wrong
    assert s.ruling.right is False and s.hands[3] == 3 - 2 + 4
    assert s.view_for(None).line[-1] == LinePlace("9S", ("4C", "8D"))
    with pytest.raises(IllegalActionError, match="turn"):
        do(s, "play", player=3, cards=["2H"])
    with pytest.raises(IllegalActionError, match="one card or a string"):
        do(s, "play", player=1, cards=["2H", "3S", "4H", "5S", "6H"])


def test_no_play_right_and_wrong():
    s = start()
    right = do(s, "noplay", player=2, cards=["9H", "2D", "KH"])  # all red after a red card
    assert right.ruling.right is True and right.hands[2] == 0 and right.phase in ("deal", "over")
    wrong = do(start(hand=4), "noplay", player=2, cards=["9H", "2S", "KH", "4D"])
    assert wrong.ruling.played == "2S" and wrong.hands[2] == 4 - 1 + 5
    assert str(wrong.line[-1]) == "2S"
    with pytest.raises(IllegalActionError, match="whole hand"):
        do(s, "noplay", player=2, cards=["9H"])


def test_prophet_conditions_calls_and_overthrow():
    s = start()
    with pytest.raises(IllegalActionError, match="just played"):
        do(s, "prophet", player=2)
    s = do(do(s, "play", player=2, cards=["9S"]), "prophet", player=2)
    assert s.prophet == 2 and s.view_for(None).black_markers == (1,)
    s = do(s, "play", player=3, cards=["4C"])
    assert s.phase == "call" and s.view_for(3).pending == PendingPlay(3, "play", ("4C",))
    assert s.view_for(0).pending.truth is False  # God sees the verdict, to approve
    with pytest.raises(IllegalActionError):
        do(s, "call", player=1, right=False)
    s = do(s, "call", player=2, right=False)  # approved
    assert s.hands[3] == 4 and s.prophet == 2 and s.turn == 1
    s = do(do(s, "play", player=1, cards=["2D"]), "call", player=2, right=True)
    assert s.hands[1] == 2
    s = do(do(s, "play", player=3, cards=["JH"]), "call", player=2, right=True)  # disapproved
    assert s.prophet is None and s.hands[2] == 2 + 5 and s.hands[3] == 3  # no penalty for the play
    assert s.ruling.overthrown == 2 and 2 in s.been_prophet
    with pytest.raises(IllegalActionError, match="already been prophet"):
        do(do(s, "play", player=1, cards=["3S"]), "play", player=2, cards=["4H"]).apply_json(
            {"act": "prophet", "player": 2})


def test_a_prophet_needs_two_other_players():
    s = start(players=4)
    s = do(s, "play", player=2, cards=["9S"])
    s = do(s, "play", player=3, cards=["8S"])  # wrong: 3 + 2 - 1
    assert s.prophet is None
    small = start(players=4, sudden_death=1)
    small = do(small, "play", player=2, cards=["9S"])
    small = do(small, "play", player=3, cards=["8S"])  # wrong in sudden death: expelled
    assert small.expelled == {3} and small.view_for(None).sudden_death
    small = do(small, "play", player=1, cards=["2D"])
    with pytest.raises(IllegalActionError, match="two or more"):
        do(small, "prophet", player=1)


def test_golden_round_scores_and_reveals_the_rule():
    record = load_record(GOLDEN / "eleusis_one_round.json")
    state = replay(record).state
    assert state.scores == record["expect"]["scores"] and state.winner == record["expect"]["winner"]
    revealed = state.view_for(1).revealed
    assert revealed.words == LIBRARY["alternate-colours"].rule.words()


def test_pegpi_replay_runs_the_golden_round(capsys):
    code = main(["replay", str(GOLDEN / "eleusis_one_round.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["scores"] == [11, 11, 0, 4] and out["winner"] == 0


def test_gods_phone_has_the_library_and_nobody_else_does():
    game = new_game("eleusis", 5)
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": 3})
    assert len(s.view_for(3).library) == len(LIBRARY)
    assert all(s.view_for(seat).library == () for seat in (None, 0, 1, 2, 4))
    assert all("one-step" not in json.dumps(s.view_for(seat).to_json()) for seat in (None, 0, 1, 2, 4))
    s = s.apply_json({"act": "rule", "player": 3, "rule": "one-step"}).apply_json({"act": "starter", "card": "2C"})
    gods = s.view_for(3)
    assert gods.library == () and gods.rule is not None
    assert read_rule(gods.rule.rule) == LIBRARY["one-step"].rule and gods.rule.words == LIBRARY["one-step"].rule.words()


def test_true_prophet_and_gods_score():
    s = start(hand=3)
    s = do(do(s, "play", player=2, cards=["9S"]), "prophet", player=2)  # 1 card before the prophet
    s = do(do(s, "play", player=3, cards=["4C"]), "call", player=2, right=False)  # wrong: D 4
    s = do(do(s, "play", player=1, cards=["2D", "3S", "QH"]), "call", player=2, right=True)  # B out
    assert s.phase == "over" or s.phase == "deal"
    # high 4 (D); B 4 + 4 out; C (prophet, 2 cards) 2 + 1 wrong card x2 + 3 right cards; D 0.
    assert s.scores == [min(8, 2 * 1), 8, 2 + 2 + 3, 0]


def test_early_end_gives_ten_to_who_never_dealt():
    s = do(start(hand=1, players=4), "play", player=2, cards=["9S"])
    assert s.phase == "deal"
    before = list(s.scores)
    s = do(s, "end")
    assert s.is_over and [b - a for a, b in zip(before, s.scores, strict=True)] == [0, 10, 10, 10]


# ------------------------------------------------------------------------- property test


def colour(card):
    return "red" if card.suit in "HD" else "black"


def direct(data, at):
    """A second reading of a rule's JSON, written apart from the engine: ``at`` is
    [card played, last card, card before]."""
    if "and" in data:
        return all(direct(d, at) for d in data["and"])
    if "or" in data:
        return any(direct(d, at) for d in data["or"])
    if "not" in data:
        return not direct(data["not"], at)
    if "if" in data:
        if direct(data["if"], at):
            return direct(data["then"], at)
        return direct(data["else"], at) if "else" in data else True
    if "is" in data:
        c = at[data.get("card", 0)]
        return {"red": colour(c) == "red", "black": colour(c) == "black", "odd": c.rank % 2 == 1,
                "even": c.rank % 2 == 0, "royal": c.rank > 10, "spade": c.suit == "S",
                "heart": c.suit == "H", "diamond": c.suit == "D", "club": c.suit == "C"}[data["is"]]
    if "value" in data:
        v, t = at[data.get("card", 0)].rank, data["than"]
        return {"=": v == t, "!=": v != t, "<": v < t, ">": v > t, "<=": v <= t, ">=": v >= t}[data["value"]]
    a, b = at[data["a"]], at[data["b"]]
    kind, op = data["compare"], data["op"]
    if kind == "value":
        x, y = a.rank, b.rank
        return {"=": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y,
                "+1": x == (1 if y == 13 else y + 1), "-1": y == (1 if x == 13 else x + 1)}[op]
    get = {"suit": lambda c: c.suit, "colour": colour, "parity": lambda c: c.rank % 2}[kind]
    return (get(a) == get(b)) == (op == "=")


def depth(data):
    """How far back a rule's JSON looks (0: only the card played)."""
    here = [data.get("card", 0)] if ("is" in data or "value" in data) else [data.get("a", 0), data.get("b", 0)] \
        if "compare" in data else [0]
    for key in ("and", "or"):
        here += [depth(d) for d in data.get(key, [])]
    for key in ("not", "if", "then", "else"):
        if key in data:
            here.append(depth(data[key]))
    return max(here)


def random_rule(rng, level=0):
    roll = rng.random()
    if level < 2 and roll < 0.35:
        kind = rng.choice(["and", "or", "not", "if"])
        if kind in ("and", "or"):
            return {kind: [random_rule(rng, level + 1) for _ in range(rng.randint(2, 3))]}
        if kind == "not":
            return {"not": random_rule(rng, level + 1)}
        out = {"if": random_rule(rng, level + 1), "then": random_rule(rng, level + 1)}
        if rng.random() < 0.5:
            out["else"] = random_rule(rng, level + 1)
        return out
    pos = rng.randint(0, 2)
    if roll < 0.55:
        return {"is": rng.choice(["red", "black", "odd", "even", "royal", "spade", "heart", "diamond", "club"]),
                "card": pos}
    if roll < 0.7:
        return {"value": rng.choice(["=", "!=", "<", ">", "<=", ">="]), "than": rng.randint(1, 13), "card": pos}
    a, b = rng.sample([0, 1, 2], 2)
    kind = rng.choice(["value", "suit", "colour", "parity"])
    ops = ["=", "!=", "<", ">", "<=", ">=", "+1", "-1"] if kind == "value" else ["=", "!="]
    return {"compare": kind, "op": rng.choice(ops), "a": a, "b": b}


@pytest.mark.parametrize("seed", range(40))
def test_property_judge_agrees_and_rule_stays_secret(seed, view_texts):
    rng = random.Random(seed)
    data = random_rule(rng)
    rule = rule_from_json(data)
    text = json.dumps(data)
    players = rng.randint(4, 8)
    god = rng.randrange(players)
    game = new_game("eleusis", players, {"hand": 14})
    s = game.new_initial_state().apply_json({"act": "deal", "dealer": god})
    s = s.apply_json({"act": "rule", "player": god, "rule": text})
    s = s.apply_json({"act": "starter", "card": str(rng.choice(FRENCH_52))})
    secret = {rule.words(), json.dumps(rule.to_json()), json.dumps(rule.to_json(), separators=(",", ":")), text}
    for _ in range(25):
        if s.phase != "play":
            break
        k = 1 if rng.random() < 0.8 else rng.randint(2, 3)
        played = [rng.choice(FRENCH_52) for _ in range(k)]
        line = list(s.line)
        s = s.apply_json({"act": "play", "player": s.turn, "cards": [str(c) for c in played]})
        expect, seen = True, list(line)
        for c in played:
            if len(seen) >= depth(data):
                expect = expect and direct(data, [c, seen[-1], seen[-2] if len(seen) > 1 else None])
            seen.append(c)
        assert s.ruling.right is expect
        for seat in [None, *range(players)]:
            view = s.view_for(seat)
            dumped = json.dumps(view.to_json())
            if seat == god:
                assert view.rule is not None and view.rule.words == rule.words()
                assert view_from_json(json.loads(dumped)) == view
            else:
                assert view.rule is None and not any(t in dumped for t in secret)
                assert not (view_texts(view) & secret)


# ------------------------------------------------------------------------- random whole games


@pytest.mark.parametrize("seed", range(6))
def test_random_games_count_every_card(seed):
    players = 4 + seed % 5
    states = []
    record = autoplay("eleusis", [f"P{i}" for i in range(players)], seed=seed, each=states.append,
                      options={"hand": 8, "rounds": 2})
    for state in states:
        if state.dealer is None or state.phase in ("rule", "starter"):
            continue
        assert all(h >= 0 for h in state.hands)
        laid = len(state.line) + sum(len(u) for u in state.under)
        if state.line:
            assert laid == len(state.played) + 1  # the starter is not a card played
        god = state.dealer
        words = None if state.rule is None else state.rule.words()
        public = state.revealed.words if state.revealed else None  # last round's rule, revealed
        if state.phase in ("play", "call") and words != public:
            for seat in range(players):
                assert (words in json.dumps(state.view_for(seat).to_json())) is (seat == god)
    assert states[-1].is_over
    assert replay(record).state.scores == states[-1].scores
