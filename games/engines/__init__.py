"""Rules engines: pure Python, no Django. Each game's engine is a module implementing
``protocol.Engine``; the platform finds it through the shelf (``games.registry``)."""

from .protocol import Engine, SeatOutcome

__all__ = ["Engine", "SeatOutcome"]
