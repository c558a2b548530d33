"""The peg board drawn for a small screen: pure functions from a game view to a picture."""

from device.board.render import render_board

__all__ = ["render_board"]
