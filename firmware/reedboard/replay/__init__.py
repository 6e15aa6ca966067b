"""Event scripts and their replay through the board's own debouncer and arbiter."""
