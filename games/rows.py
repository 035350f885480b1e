"""The reads and writes that every request of play makes, in SQL built once from the models.

A game with its seats and their users is read by every game page, API read and move, and a
player's list of games by every client that polls for its turn; a move writes the game and
a Move row. Through the ORM these cost about 2 ms of CPU here, nearly all of it spent
building the queries and their model instances; the same SQL on a cursor costs about a tenth
of that (``docs/benchmarks.md``). Columns, value converters and the values written are taken
from the models' fields as the ORM takes them, so a new field is read and written like any
other, and the instances are the ORM's own (``Model.from_db``), with ``game.seats.all()`` and
each ``seat.user`` filled in as ``prefetch_related`` would fill them. Writes send no
``pre_save``/``post_save`` signals (nothing listens for a game's or a move's). The tests
compare every field with what the ORM reads and writes.
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, cached_property

from django.contrib.auth import get_user_model
from django.db import connections, models
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init

from games.models import Game, Move, Seat, Vacation
from puerto import fastjson


class _Columns:
    """Fields of ``model`` (all concrete ones, or ``only`` these, but ``exclude``) as SQL
    columns, and their values converted as the ORM's compiler converts them."""

    def __init__(
        self,
        model: type[models.Model],
        *,
        only: tuple[str, ...] = (),
        exclude: tuple[str, ...] = (),
    ) -> None:
        self.model = model
        fields = model._meta.concrete_fields
        if only:
            fields = [model._meta.get_field(name) for name in only]
        self.fields = [f for f in fields if f.attname not in exclude]
        self.names = [f.attname for f in self.fields]
        # Converters may be bound to a connection, and each thread has its own.
        self._converters: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def sql(self, connection, **instead: str) -> str:
        """The columns, each as ``table.column`` or as the SQL expression given ``instead``
        for its attribute name."""
        table = connection.ops.quote_name(self.model._meta.db_table)
        return ", ".join(
            instead.get(f.attname) or f"{table}.{connection.ops.quote_name(f.column)}"
            for f in self.fields
        )

    def converter(self, connection):
        """A function turning a row of these columns into their values, for one read: the
        converters are looked up once for all its rows."""
        converters = self._converters.get(connection)
        if converters is None:
            converters = self._converters[connection] = self._find_converters(connection)
        if not converters:
            return list

        def values(row) -> list:
            values = list(row)
            for index, column, functions in converters:
                for function in functions:
                    values[index] = function(values[index], column, connection)
            return values

        return values

    def maker(self, connection):
        """A function making the instance of a row, as ``Model.from_db`` does, for one read.
        It fills the instance's ``__dict__`` without ``__init__``'s round of ``setattr`` calls
        and its ``pre_init``/``post_init`` signals when nobody listens to them (about a
        quarter of a game read's time: a game comes with up to ten instances)."""
        values = self.converter(connection)
        model, names, alias = self.model, self.names, connection.alias
        if not self.plain or pre_init.has_listeners(model) or post_init.has_listeners(model):
            return lambda row: model.from_db(alias, names, values(row))

        def instance(row) -> models.Model:
            instance = model.__new__(model)
            instance.__dict__.update(zip(names, values(row), strict=True))
            state = instance._state = ModelState()
            state.adding = False
            state.db = alias
            return instance

        return instance

    @cached_property
    def plain(self) -> bool:
        """Whether each field keeps its value in the instance's ``__dict__`` as it is set, so
        filling that directly is what ``__init__`` would do (no file or custom descriptor)."""
        plain = (DeferredAttribute, ForeignKeyDeferredAttribute)
        return all(type(getattr(self.model, name, None)) in plain for name in self.names)

    def _find_converters(self, connection) -> list:
        found = []
        for index, field in enumerate(self.fields):
            column = field.get_col(self.model._meta.db_table)
            functions = connection.ops.get_db_converters(column)
            functions += column.get_db_converters(connection)
            if _plain_json(field):
                functions = [_json_from_db if f == field.from_db_value else f for f in functions]
            if functions:
                found.append((index, column, functions))
        return found


@dataclass(frozen=True)
class PlayerGame:
    """One of a player's open or running games, as a list of games shows it."""

    game_id: int
    engine: str
    status: str
    version: int
    current_position: int | None
    turn_started_at: datetime | None
    position: int | None
    """The player's engine seat (None before the start)."""

    @property
    def your_turn(self) -> bool:
        return self.status == Game.Status.RUNNING and self.position == self.current_position


class _Reader:
    """The SQL for one database, made on first use."""

    def __init__(self, alias: str) -> None:
        self.alias = alias
        self.game = _Columns(Game, exclude=("initial_state",))  # large; only a replay needs it
        self.game_pk = self.game.names.index(Game._meta.pk.attname)
        self.seat = _Columns(Seat)
        self.user = _Columns(get_user_model())
        # In the order of PlayerGame's fields, which are built from them.
        self.listed_game = _Columns(
            Game, only=("id", "engine", "status", "version", "current_position", "turn_started_at")
        )
        self.listed_seat = _Columns(Seat, only=("position",))
        self.log = _Columns(Move, only=("version", "log"))
        self.away = _Columns(Vacation, only=("user", "end"))

    @property
    def connection(self):
        """This thread's connection (each thread has its own)."""
        return connections[self.alias]

    def quote(self, model: type[models.Model], field: str = "", *, alias: str = "") -> str:
        """``table`` or ``table.column`` of ``model``'s ``field`` (``pk``: its primary key);
        with an ``alias``, that name stands for the table."""
        table = self.connection.ops.quote_name(alias or model._meta.db_table)
        if not field:
            return table
        column = (model._meta.pk if field == "pk" else model._meta.get_field(field)).column
        return f"{table}.{self.connection.ops.quote_name(column)}"

    def seat_order(self, alias: str = "") -> str:
        """The ORM's order of seats, on the seat table or on an ``alias`` of it."""
        return ", ".join(
            self.quote(Seat, name.lstrip("-"), alias=alias)
            + (" DESC" if name.startswith("-") else "")
            for name in Seat._meta.ordering
        )

    @cached_property
    def games_sql(self) -> str:
        """Games by id (``{ids}`` stands for their placeholders), each on as many rows as it
        has seats (one with no seat), each row with a seat and its user, the seats in the
        ORM's order: one round trip for all.

        The state, a game's one large column, comes on the game's first row only (NULL on
        the others): sent once per seat, writing it out was about a third of the read's time
        in PostgreSQL (``docs/benchmarks.md``)."""
        user = self.user.model
        first = "first_seat"
        first_seat = (
            f"SELECT {self.quote(Seat, 'pk', alias=first)}"
            f" FROM {self.quote(Seat)} {self.quote(Seat, alias=first)}"
            f" WHERE {self.quote(Seat, 'game', alias=first)} = {self.quote(Game, 'pk')}"
            f" ORDER BY {self.seat_order(first)} LIMIT 1"
        )
        seat = self.quote(Seat, "pk")
        state = (
            f"CASE WHEN {seat} IS NULL OR {seat} = ({first_seat})"
            f" THEN {self.quote(Game, 'state')} END"
        )
        return (
            f"SELECT {self.game.sql(self.connection, state=state)},"
            f" {self.seat.sql(self.connection)}, {self.user.sql(self.connection)}"
            f" FROM {self.quote(Game)}"
            f" LEFT OUTER JOIN {self.quote(Seat)}"
            f" ON {self.quote(Seat, 'game')} = {self.quote(Game, 'pk')}"
            f" LEFT OUTER JOIN {self.quote(user)}"
            f" ON {self.quote(Seat, 'user')} = {self.quote(user, 'pk')}"
            f" WHERE {self.quote(Game, 'pk')} IN ({{ids}})"
            f" ORDER BY {self.seat_order()}"
        )

    @cached_property
    def player_games_sql(self) -> str:
        return (
            f"SELECT {self.listed_game.sql(self.connection)},"
            f" {self.listed_seat.sql(self.connection)}"
            f" FROM {self.quote(Seat)} INNER JOIN {self.quote(Game)}"
            f" ON {self.quote(Seat, 'game')} = {self.quote(Game, 'pk')}"
            f" WHERE {self.quote(Seat, 'user')} = %s AND {self.quote(Game, 'status')} IN (%s, %s)"
        )

    @cached_property
    def recent_log_sql(self) -> str:
        return (
            f"SELECT {self.log.sql(self.connection)} FROM {self.quote(Move)}"
            f" WHERE {self.quote(Move, 'game')} = %s"
            f" ORDER BY {self.quote(Move, 'version')} DESC LIMIT %s"
        )

    @cached_property
    def away_sql(self) -> str:
        """Vacations going on at a time (``%s`` twice, as ``VacationQuerySet.active``) of
        users by id (``{ids}``)."""
        return (
            f"SELECT {self.away.sql(self.connection)} FROM {self.quote(Vacation)}"
            f" WHERE {self.quote(Vacation, 'user')} IN ({{ids}})"
            f" AND {self.quote(Vacation, 'start')} <= %s AND {self.quote(Vacation, 'end')} > %s"
            f" ORDER BY {self.quote(Vacation, 'end')}"
        )

    def rows(self, columns: _Columns, sql: str, params: list) -> list[list]:
        connection = self.connection
        with _cursor(connection) as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        values = columns.converter(connection)
        return [values(row) for row in rows]

    def load_games(self, game_ids: list[int], *, lock: bool) -> dict[int, Game]:
        if not game_ids:
            return {}
        connection = self.connection
        sql = self.games_sql.format(ids=_placeholders(len(game_ids)))
        if lock and connection.features.has_select_for_update:
            of = connection.features.has_select_for_update_of
            sql += f" FOR UPDATE OF {self.quote(Game)}" if of else " FOR UPDATE"
        with _cursor(connection) as cursor:
            cursor.execute(sql, list(game_ids))
            rows = cursor.fetchall()
        make_game = self.game.maker(connection)
        make_seat = self.seat.maker(connection)
        make_user = self.user.maker(connection)
        games: dict[int, Game] = {}
        seats: dict[int, list[Seat]] = {}
        game_end = len(self.game.fields)
        seat_end = game_end + len(self.seat.fields)
        for row in rows:
            pk = row[self.game_pk]
            game = games.get(pk)
            if game is None:  # from its first row, the one with its state
                game = games[pk] = make_game(row[:game_end])
                seats[pk] = []
            if row[game_end] is None:  # a game with no seat
                continue
            seat = make_seat(row[game_end:seat_end])
            user = None
            if seat.user_id is not None:
                user = make_user(row[seat_end:])
            Seat.user.field.set_cached_value(seat, user)
            Seat.game.field.set_cached_value(seat, game)
            seats[pk].append(seat)
        cache_name = Seat.game.field.remote_field.cache_name
        for pk, game in games.items():
            prefetched = game.seats.all()
            prefetched._result_cache = seats[pk]
            prefetched._prefetch_done = True
            game._prefetched_objects_cache = {cache_name: prefetched}
        return games

    def player_games(self, user_id: int) -> list[PlayerGame]:
        connection = self.connection
        statuses = [Game.Status.OPEN.value, Game.Status.RUNNING.value]
        with _cursor(connection) as cursor:
            cursor.execute(self.player_games_sql, [user_id, *statuses])
            rows = cursor.fetchall()
        split = len(self.listed_game.fields)
        game_values = self.listed_game.converter(connection)
        seat_values = self.listed_seat.converter(connection)
        games = [PlayerGame(*game_values(row[:split]), *seat_values(row[split:])) for row in rows]
        # Waiting for the player first; then the longest waiting; games not started last.
        return sorted(
            games,
            key=lambda g: (
                not g.your_turn,
                g.turn_started_at is None,
                g.turn_started_at or datetime.min,
                g.game_id,
            ),
        )


def _plain_json(field: models.Field) -> bool:
    """A JSON field without an encoder or decoder of its own, so one that orjson may read and
    write (``puerto.fastjson``): the game's state above all."""
    return isinstance(field, models.JSONField) and field.encoder is None and field.decoder is None


def _json_from_db(value, expression, connection):
    """``JSONField.from_db_value``, through orjson."""
    if value is None or not isinstance(value, str | bytes):
        return value
    try:
        return fastjson.loads(value)
    except json.JSONDecodeError:
        return value


def _db_value(field: models.Field, value, connection):
    """``field.get_db_prep_save``, with a plain JSON field's value written by orjson."""
    prepared = field.get_db_prep_save(value, connection)
    if connection.vendor == "postgresql" and prepared is not None and _plain_json(field):
        # psycopg's Json or Jsonb, as the field chose for its column type.
        prepared = type(prepared)(prepared.obj, dumps=fastjson.dumps)
    return prepared


def _cursor(connection):
    """A cursor for the statements above. On PostgreSQL it binds parameters in the server
    (Django's cursors quote them into the SQL text in Python), so the server may keep a
    statement's plan once it has run a few times (``prepare_threshold`` in the settings), and
    it reads timestamps with psycopg's own parser where Django's parses them in Python; both
    give the same values (the session's time zone is UTC, as Django sets it)."""
    if connection.vendor != "postgresql" or connection.timezone != UTC:
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        cursor = ServerBindingCursor(connection.connection)
    cursor.adapters.register_loader("timestamptz", _timestamptz_loader())
    if connection.queries_logged:
        return connection.make_debug_cursor(cursor)
    return connection.make_cursor(cursor)


@cache
def _timestamptz_loader():
    """psycopg's parser of ``timestamptz`` text (in C when psycopg's binary build is there),
    which Django replaces with a subclass in Python to apply a time zone of its choice."""
    import psycopg
    from psycopg.postgres import types

    return psycopg.adapters.get_loader(types["timestamptz"].oid, psycopg.pq.Format.TEXT)


def _placeholders(count: int) -> str:
    return ", ".join(["%s"] * count)


_readers: dict[str, _Reader] = {}


def _reader(using: str) -> _Reader:
    reader = _readers.get(using)
    if reader is None:
        reader = _readers[using] = _Reader(using)
    return reader


def load_game(game_id: int, *, lock: bool = False, using: str = "default") -> Game | None:
    """The game (without its initial state) with ``game.seats.all()`` and each seat's user
    loaded, or None; ``lock``: its row locked for the transaction (``SELECT ... FOR UPDATE``)."""
    return _reader(using).load_games([game_id], lock=lock).get(game_id)


def load_games(game_ids: list[int], *, using: str = "default") -> dict[int, Game]:
    """Several games as ``load_game`` reads one, by id, in one query in all."""
    return _reader(using).load_games(game_ids, lock=False)


def player_games(user_id: int, *, using: str = "default") -> list[PlayerGame]:
    """The open and running games where ``user_id`` has a seat: those waiting for their move
    first, then those whose turn started longest ago, then those not started yet."""
    return _reader(using).player_games(user_id)


def recent_log(game_id: int, count: int, *, using: str = "default") -> list[tuple[int, list]]:
    """The (version, log) pairs of the game's last ``count`` moves, oldest first."""
    reader = _reader(using)
    latest = reader.rows(reader.log, reader.recent_log_sql, [game_id, count])
    return [(version, log) for version, log in reversed(latest)]


def vacations_until(user_ids: list[int], now: datetime, *, using: str = "default") -> dict:
    """``{user id: end}`` of the vacations going on at ``now`` of these users (the one that
    ends last, when one overlaps another)."""
    if not user_ids:
        return {}
    reader = _reader(using)
    sql = reader.away_sql.format(ids=_placeholders(len(user_ids)))
    return dict(reader.rows(reader.away, sql, [*user_ids, now, now]))


_writes: dict[tuple, str] = {}


def _write_sql(kind: str, model: type[models.Model], names: tuple[str, ...], connection) -> str:
    key = (kind, model, names, connection.vendor)
    sql = _writes.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        table = quote(model._meta.db_table)
        columns = [quote(model._meta.get_field(name).column) for name in names]
        pk = quote(model._meta.pk.column)
        if kind == "update":
            sql = f"UPDATE {table} SET {', '.join(f'{c} = %s' for c in columns)} WHERE {pk} = %s"
        else:
            values = _placeholders(len(columns))
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values})"
            if connection.features.can_return_columns_from_insert:
                sql += f" RETURNING {pk}"
        _writes[key] = sql
    return sql


def _update_values(instance: models.Model, names: tuple[str, ...], connection) -> list:
    meta = instance._meta
    values = [
        _db_value(field, field.pre_save(instance, False), connection)
        for field in (meta.get_field(name) for name in names)
    ]
    return [*values, instance.pk]


def _insert_values(instance: models.Model, connection) -> tuple[tuple[str, ...], list]:
    meta = instance._meta
    fields = [f for f in meta.concrete_fields if f is not meta.pk]
    values = [_db_value(f, f.pre_save(instance, True), connection) for f in fields]
    return tuple(f.name for f in fields), values


def _inserted(instance: models.Model, cursor, connection, using: str) -> None:
    """Give ``instance`` the primary key the database chose, as ``save()`` does."""
    meta = instance._meta
    if connection.features.can_return_columns_from_insert:
        pk = cursor.fetchone()[0]
    else:
        pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = using


def update(instance: models.Model, names: tuple[str, ...], *, using: str = "default") -> None:
    """Write the fields ``names`` of ``instance`` to its row, as ``save(update_fields=...)``."""
    connection = connections[using]
    sql = _write_sql("update", type(instance), names, connection)
    with _cursor(connection) as cursor:
        cursor.execute(sql, _update_values(instance, names, connection))


def insert(instance: models.Model, *, using: str = "default") -> None:
    """Store the new ``instance`` (its primary key comes from the database), as ``save()``."""
    connection = connections[using]
    names, values = _insert_values(instance, connection)
    with _cursor(connection) as cursor:
        cursor.execute(_write_sql("insert", type(instance), names, connection), values)
        _inserted(instance, cursor, connection, using)


def update_and_insert(
    changed: models.Model,
    names: tuple[str, ...],
    new: models.Model,
    *,
    using: str = "default",
) -> None:
    """``update(changed, names)`` and ``insert(new)``: a move writes its game and its Move.
    On PostgreSQL in one statement (the update as a ``WITH`` clause), so one round trip."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        update(changed, names, using=using)
        insert(new, using=using)
        return
    new_names, new_values = _insert_values(new, connection)
    update_sql = _write_sql("update", type(changed), names, connection)
    insert_sql = _write_sql("insert", type(new), new_names, connection)
    with _cursor(connection) as cursor:
        cursor.execute(
            f"WITH changed AS ({update_sql}) {insert_sql}",
            [*_update_values(changed, names, connection), *new_values],
        )
        _inserted(new, cursor, connection, using)
