"""Sent after commit, so receivers (AI scheduling, notifications) see the stored move."""

from django.dispatch import Signal

game_changed = Signal()
"""Sent inside the move's transaction, after the game row and its moves are saved: ``game``,
``previous_position`` (the seat that was to act before, or None at the start), ``by_ai``.
Receivers write what must commit together with the move (e.g. notification outbox rows)."""

move_applied = Signal()
"""A move (and any forced moves after it) was stored: ``game_id``, ``version``, ``by_ai``, and
``ai_to_act`` (an AI seat is to act now)."""

game_started = Signal()
"""A game filled up and started: ``game_id``."""
