"""From switch readings to square changes: debouncing, the start-up self-test, text views."""
