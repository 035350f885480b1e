"""The rows of the games that ended before there were any: each finished game's ``Result`` per
seat from its engine's ``outcome`` of the stored state, and every ended game's ``ending``.

Frozen here as ``games.services`` wrote them on the day (``played_by``, ``ending``, the
decisions counted from the moves still standing), for the models of this migration. An
imported game's moves have no actor: each of its seats' decisions are its person's or its AI
player's, as the file's players say (``games.transfer`` reads an older file the same way).
"""

from django.db import migrations

from games.registry import get_engine


def played_by(seat) -> str:
    if seat.taken_over_at is not None:
        return "taken_over"
    return "ai" if seat.ai_level else "person"


def decisions(moves, seats, imported: bool) -> dict[int, list[int]]:
    """Per seat id: the decisions of its person and of an AI player among the moves still
    standing (an undo takes back the versions it lists; a forced move is no decision)."""
    standing = []
    for seat_id, version, kind, action, actor_id, forced in moves:
        if kind == "undo":
            standing = [m for m in standing if m[0] not in action["undo"]]
        elif not forced:
            standing.append((version, seat_id, actor_id))
    ai_seats = {seat.pk for seat in seats if seat.ai_level}
    counts = {seat.pk: [0, 0] for seat in seats}
    for _, seat_id, actor_id in standing:
        counts[seat_id][seat_id in ai_seats if imported else actor_id is None] += 1
    return counts


def ending(plays) -> str:
    plays = set(plays)
    return "abandoned" if "taken_over" in plays and "person" not in plays else "played_out"


def write_rows(apps, schema_editor):
    """A finished game's stored result (its totals and winners) must be what its state gives
    now, or the migration stops: which placement a player had is not guessed. A game without
    one (this migration undone, ``forget_rows``) takes its state's."""
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    Move = apps.get_model("games", "Move")
    Result = apps.get_model("games", "Result")
    aborted = Game.objects.filter(status="aborted")
    aborted.exclude(cancel_reason="").update(ending="cancelled_by_moderator")
    aborted.filter(cancel_reason="").update(ending="cancelled")
    finished = Game.objects.filter(status="finished").only("pk", "engine", "state", "result")
    for game in finished.iterator(chunk_size=100):
        rules = get_engine(game.engine)
        outcome = rules.outcome(rules.from_json(game.state))
        stored = game.result or {}
        totals = [score.get("total") for score in stored.get("scores", [])]
        winners = sorted(stored.get("winners", []))
        if stored and (
            totals != [place.score for place in outcome]
            or winners != [place.seat for place in outcome if place.placement == 1]
        ):
            raise RuntimeError(f"game {game.pk}: its stored result is not its state's outcome")
        seats = sorted(
            Seat.objects.filter(game_id=game.pk, position__isnull=False),
            key=lambda seat: seat.position,
        )
        moves = Move.objects.filter(game_id=game.pk).order_by("version")
        counts = decisions(
            moves.values_list("seat_id", "version", "kind", "action", "actor_id", "forced"),
            seats,
            game.imported,
        )
        Result.objects.bulk_create(
            Result(
                game_id=game.pk,
                seat_id=seats[place.seat].pk,
                position=place.seat,
                user_id=seats[place.seat].user_id,
                played_by=played_by(seats[place.seat]),
                person_decisions=counts[seats[place.seat].pk][0],
                ai_decisions=counts[seats[place.seat].pk][1],
                placement=place.placement,
                score=place.score,
                parts=place.parts,
                tiebreak=place.tiebreak,
            )
            for place in outcome
        )
        Game.objects.filter(pk=game.pk).update(ending=ending(played_by(s) for s in seats))


def forget_rows(apps, schema_editor):
    """Going back leaves ``Game.result`` empty: its old form needs the engines' old code."""
    apps.get_model("games", "Result").objects.all().delete()
    apps.get_model("games", "Game").objects.update(ending="")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_outcome"),
    ]

    operations = [
        migrations.RunPython(write_rows, forget_rows),
    ]
