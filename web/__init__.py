"""pegpi web."""
