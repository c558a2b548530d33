"""`pegpi score` and `pegpi replay` with the Decktet games: quoted card names, JSON, refusals."""

import json
from pathlib import Path

from pegpi.cli import main

GOLDEN = Path(__file__).parent / "golden"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_bhargage_hand_in_the_players_words(capsys):
    """Source: seed 000, 11s: Crown-Crown-Ace with a Pawn up-card: four 11s; the Crowns pair."""
    code, out, _ = run(capsys, "score", "bhargage", "the Huntress", "the Bard", "Ace of Waves",
                       "--starter", "the Harvest")
    assert code == 0
    assert "hand: 10  (11 for 2, 11 is 4, 11 is 6, 11 is 8, pair 10)" in out
    # Moons, Suns, Waves, Leaves are held: Wyrms and Knots lacking, 3 to the opponent.
    assert "shortage: 3 to the opponent  (shortage 3)" in out
    assert "total: 10 (and 3 to the opponent)" in out


def test_score_bhargage_json(capsys):
    code, out, _ = run(capsys, "score", "bhargage", "the Light Keeper", "the Rite", "the Excuse",
                       "--starter", "the Desert", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "bhargage"
    bhargs = [i for i in data["items"] if i["kind"] == "bharg"]
    assert [sorted(i["cards"]) for i in bhargs] == [["the Light Keeper", "the Rite"],
                                                    ["the Excuse", "the Light Keeper", "the Rite"]]
    # Every suit is held (with the Desert up): no shortage, so one line only, 12 for two bhargs.
    assert data["total"] == 12 and "lines" not in data


def test_score_bhargage_crib_has_four_cards(capsys):
    code, _, err = run(capsys, "score", "bhargage", "the Huntress", "the Bard", "Ace of Waves",
                       "--starter", "the Harvest", "--crib")
    assert code == 2 and "a bhargage in Bhargage has 4 cards" in err


def test_score_suitcases_seed_example(capsys):
    """Source: seed 001, a 4, a 5 and all three 6s: 24."""
    code, out, _ = run(capsys, "score", "suitcases", "the Lunatic", "the Penitent", "the Market",
                       "the Mountain", "--starter", "the Forest")
    assert code == 0 and out.startswith("24  (11 for 1, 11 is 2, 11 is 3, three of a kind 9")


def test_french_card_refused(capsys):
    code, _, err = run(capsys, "score", "suitcases", "5H", "the Penitent", "the Market",
                       "the Mountain", "--starter", "the Forest")
    assert code == 2 and "'5H' is a French card: Suitcases is played with the Decktet" in err


def test_replay_golden_records(capsys):
    for name, scores in (("bhargage_one_deal", [25, 15]), ("suitcases_one_deal", [11, 18])):
        code, out, _ = run(capsys, "replay", str(GOLDEN / f"{name}.json"), "--json")
        assert code == 0 and json.loads(out)["scores"] == scores
