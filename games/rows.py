"""A game with its seats and their users, read in SQL built once from the models.

Every game page, API read and move reads this. Through the ORM it costs about 2 ms of CPU
here, nearly all of it spent building the two queries and their model instances; the same
SQL on a cursor costs about a tenth of that (``docs/benchmarks.md``). The column lists and
the value converters are taken from the models' fields, so a new field is read like any
other, and the instances are the ORM's own (``Model.from_db``), with ``game.seats.all()`` and
each ``seat.user`` already filled in as ``prefetch_related`` would fill them. The tests
compare every field with what the ORM reads.
"""

from __future__ import annotations

from functools import cached_property

from django.contrib.auth import get_user_model
from django.db import connections, models

from games.models import Game, Seat


class _Columns:
    """The concrete fields of ``model`` (but ``exclude``) as SQL columns and their
    converters, as the ORM's compiler would apply them."""

    def __init__(self, model: type[models.Model], exclude: tuple[str, ...] = ()) -> None:
        self.model = model
        self.fields = [f for f in model._meta.concrete_fields if f.attname not in exclude]
        self.names = [f.attname for f in self.fields]

    def sql(self, connection) -> str:
        table = connection.ops.quote_name(self.model._meta.db_table)
        return ", ".join(f"{table}.{connection.ops.quote_name(f.column)}" for f in self.fields)

    def converters(self, connection) -> list[tuple[int, models.Expression, list]]:
        found = []
        for index, field in enumerate(self.fields):
            column = field.get_col(self.model._meta.db_table)
            functions = connection.ops.get_db_converters(column) + column.get_db_converters(
                connection
            )
            if functions:
                found.append((index, column, functions))
        return found

    def instance(self, values: list, converters, connection, db: str) -> models.Model:
        for index, column, functions in converters:
            value = values[index]
            for function in functions:
                value = function(value, column, connection)
            values[index] = value
        return self.model.from_db(db, self.names, values)


class _GameReader:
    """The SQL and converters for one database connection's vendor, made on first use."""

    def __init__(self, alias: str) -> None:
        self.alias = alias
        self.game = _Columns(Game, exclude=("initial_state",))  # large; only a replay needs it
        self.seat = _Columns(Seat)
        self.user = _Columns(get_user_model())

    @cached_property
    def queries(self) -> tuple[str, str]:
        connection = connections[self.alias]
        quote = connection.ops.quote_name
        games, seats, users = (
            quote(model._meta.db_table) for model in (Game, Seat, self.user.model)
        )
        seat_user = quote(Seat._meta.get_field("user").column)
        seat_game = quote(Seat._meta.get_field("game").column)
        order = ", ".join(
            f"{seats}.{quote(column)}{direction}" for column, direction in _ordering(Seat)
        )
        game = (
            f"SELECT {self.game.sql(connection)} FROM {games}"
            f" WHERE {games}.{quote(Game._meta.pk.column)} = %s"
        )
        seat = (
            f"SELECT {self.seat.sql(connection)}, {self.user.sql(connection)}"
            f" FROM {seats} LEFT OUTER JOIN {users}"
            f" ON {seats}.{seat_user} = {users}.{quote(self.user.model._meta.pk.column)}"
            f" WHERE {seats}.{seat_game} = %s ORDER BY {order}"
        )
        return game, seat

    @cached_property
    def converters(self):
        connection = connections[self.alias]
        return (
            self.game.converters(connection),
            self.seat.converters(connection),
            self.user.converters(connection),
        )

    def load(self, game_id: int, *, lock: bool) -> Game | None:
        connection = connections[self.alias]
        game_sql, seats_sql = self.queries
        if lock and connection.features.has_select_for_update:
            game_sql += " FOR UPDATE"
        game_converters, seat_converters, user_converters = self.converters
        with connection.cursor() as cursor:
            cursor.execute(game_sql, [game_id])
            row = cursor.fetchone()
            if row is None:
                return None
            game = self.game.instance(list(row), game_converters, connection, self.alias)
            cursor.execute(seats_sql, [game.pk])
            rows = cursor.fetchall()
        split = len(self.seat.fields)
        seats = []
        for row in rows:
            seat = self.seat.instance(list(row[:split]), seat_converters, connection, self.alias)
            user = None
            if seat.user_id is not None:
                user = self.user.instance(
                    list(row[split:]), user_converters, connection, self.alias
                )
            Seat.user.field.set_cached_value(seat, user)
            Seat.game.field.set_cached_value(seat, game)
            seats.append(seat)
        prefetched = game.seats.all()
        prefetched._result_cache = seats
        prefetched._prefetch_done = True
        game._prefetched_objects_cache = {Seat.game.field.remote_field.cache_name: prefetched}
        return game


def _ordering(model: type[models.Model]) -> list[tuple[str, str]]:
    """``Meta.ordering`` as columns and directions, so the seats come in the ORM's order."""
    ordering = []
    for name in model._meta.ordering:
        field_name = name.lstrip("-")
        field = model._meta.pk if field_name == "pk" else model._meta.get_field(field_name)
        ordering.append((field.column, " DESC" if name.startswith("-") else ""))
    return ordering


_readers: dict[str, _GameReader] = {}


def load_game(game_id: int, *, lock: bool = False, using: str = "default") -> Game | None:
    """The game (without its initial state) with ``game.seats.all()`` and each seat's user
    loaded, or None; ``lock``: its row locked for the transaction (``SELECT ... FOR UPDATE``)."""
    reader = _readers.get(using)
    if reader is None:
        reader = _readers[using] = _GameReader(using)
    return reader.load(game_id, lock=lock)
