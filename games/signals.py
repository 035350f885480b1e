"""Sent after commit, so receivers (AI scheduling, notifications) see the stored move."""

from django.dispatch import Signal

move_applied = Signal()
"""A move (and any forced moves after it) was stored: ``game_id``, ``version``, ``by_ai``."""

game_started = Signal()
"""A game filled up and started: ``game_id``."""
