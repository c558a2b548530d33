"""The pegging core: cut, deal, crib, starter, play and show, shared by the cribbage family and
the Decktet pegging games (Bhargage, Suitcases)."""
