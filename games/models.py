"""Games, seats and moves live here; the rules themselves stay in ``games.engines``."""
