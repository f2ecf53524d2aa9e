"""Metrics: pure functions from located hunks to numbers."""
