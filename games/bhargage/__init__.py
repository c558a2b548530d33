"""Bhargage (Kerry Handscomb), and the Decktet pegging machinery Suitcases shares with it."""
