"""A game's state is kept in PostgreSQL as the JSON text written, and read back whole."""

import pytest
from django.db import connection

from games import services
from games.models import Game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def column_types() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_name = %s AND column_name IN ('state', 'initial_state', 'options')",
            [Game._meta.db_table],
        )
        return dict(cursor.fetchall())


def test_the_state_is_json_text_not_parsed_into_jsonb(django_user_model):
    game = services.create_game(
        django_user_model.objects.create_user("anna"), engine="puerto_rico", num_players=3
    )
    assert column_types() == {"state": "json", "initial_state": "json", "options": "jsonb"}
    # jsonb would give the keys back shortest first; json keeps them as they were written.
    game.state = {"zebra": 1, "a": {"long key": 2, "k": [3, None, "ü"]}}
    game.save(update_fields=["state"])

    read = Game.objects.get(pk=game.pk).state
    assert read == game.state and list(read) == ["zebra", "a"]
    assert list(read["a"]) == ["long key", "k"]
    assert Game.objects.values_list("state", flat=True).get(pk=game.pk) == read
    Game.objects.filter(pk=game.pk).update(state=None)
    assert Game.objects.get(pk=game.pk).state is None
