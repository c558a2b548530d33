"""The setup page's mat: every game with a table shows the mat it is played on, for its seats."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize(("game", "seats", "paper"), [("cribbage", 2, "A3"), ("cribbage4", 4, "A2"),
                                                       ("losing", 3, "A2")])
def test_a_game_shows_the_mat_it_needs(client: Any, game: str, seats: int, paper: str) -> None:
    response = client.get(f"/api/mat/{game}/{seats}.png")
    assert response.status_code == 200 and response.content_type == "image/png"
    assert response.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"-{paper}.png" in response.headers["Content-Disposition"]


def test_the_mat_prints_as_a_pdf(client: Any) -> None:
    response = client.get("/api/mat/cribbage/2.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")


@pytest.mark.parametrize(("path", "words"), [
    ("/api/mat/cribbage/5.png", "not 5"),
    ("/api/mat/nosuchgame/2.png", "nosuchgame"),
    ("/api/mat/cribbage/2.svg", ".png"),
])
def test_a_mat_that_does_not_exist_is_a_clear_404(client: Any, path: str, words: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert words in response.get_data(as_text=True)


def test_the_page_links_this_games_mat(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    assert 'id="this-mat"' in html and 'id="setup-mat-pdf"' in html
