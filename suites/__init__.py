"""suites package."""
