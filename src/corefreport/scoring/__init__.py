"""Scoring: pure functions from key and response corpora to one :class:`Evaluation` result."""
