"""The companion itself: config, the table session, the peg board, buttons and the command line."""
