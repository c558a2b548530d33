"""The companion's parts: config, the table session and its store, the table loop, the peg board
(OLED, LEDs, strip), buttons and the demo's simulated players. ``pegpi.companion`` assembles them."""
