"""pegpi vision."""
