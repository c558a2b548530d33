"""Suitcases (David L. Van Slyke): suit casing and cleaning hands with the extended Decktet."""
