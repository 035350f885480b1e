"""A JSON field for documents that are written and read whole: a game's state.

PostgreSQL's ``jsonb`` parses a value into a tree on the way in and writes it out as text on
the way out; ``json`` keeps the text as it came. A game's state (3 to 10 kB) is written on every
move and read on every game read, and is never searched inside, so ``json`` costs the server
about half as much for it (``docs/benchmarks.md``).
"""

from django.db import models


class WholeJSONField(models.JSONField):
    """``JSONField``, stored as ``json`` on PostgreSQL (elsewhere as ``JSONField`` is)."""

    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        adapted = super().get_db_prep_value(value, connection, prepared)
        if connection.vendor == "postgresql":
            from psycopg.types.json import Json, Jsonb

            if isinstance(adapted, Jsonb):  # sent as jsonb, the server would parse it as such
                return Json(adapted.obj, dumps=adapted.dumps)
        return adapted

    def from_db_value(self, value, expression, connection):
        if connection.vendor == "postgresql":  # psycopg parses json (Django has jsonb as text)
            return value
        return super().from_db_value(value, expression, connection)
