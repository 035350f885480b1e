"""The log as events: every stored move's log is rebuilt by replaying the game's moves from
its initial state with the engine (pure functions), so old games read in any language too."""

from django.db import migrations, models

from games.registry import get_engine


def rebuild_events(apps, schema_editor):
    """Replace each move's log sentences by the events the engine emits for it. A replay that
    does not end in the stored state stops the migration: the moves are the game's truth."""
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    games = Game.objects.filter(initial_state__isnull=False).only(
        "pk", "engine", "initial_state", "state"
    )
    for game in games.iterator(chunk_size=100):
        rules = get_engine(game.engine)
        state = rules.from_json(game.initial_state)
        moves = list(Move.objects.filter(game_id=game.pk).order_by("version").only("action"))
        for move in moves:
            move.log = []
            action = rules.action_from_json(move.action)
            state = rules.apply(state, action, log=move.log, inplace=True)
        if moves and rules.to_json(state) != game.state:
            raise RuntimeError(f"game {game.pk}: replaying its moves does not give its state")
        Move.objects.bulk_update(moves, ["log"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_state_as_json"),
    ]

    operations = [
        migrations.AlterField(
            model_name="move",
            name="log",
            field=models.JSONField(
                default=list, help_text="What happened: the engine's events (docs/engine.md)."
            ),
        ),
        # Going back keeps the events: the sentences cannot be made again without old code.
        migrations.RunPython(rebuild_events, migrations.RunPython.noop),
    ]
