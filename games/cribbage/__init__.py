"""Cribbage: the rules core shared by six-card, five-card and every variant."""
