"""Conformance of the Control Suite tasks with dm-control 1.0.50 (see README.md)."""
