from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@pytest.mark.django_db
def test_models_match_migrations():
    out = StringIO()

    call_command("makemigrations", "--check", "--dry-run", stdout=out)

    assert "No changes detected" in out.getvalue()


@pytest.mark.postgres
@pytest.mark.django_db
def test_every_migration_is_applied_on_postgres():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()

    assert connection.vendor == "postgresql"
    assert executor.migration_plan(leaves) == []
    assert "accounts_user" in connection.introspection.table_names()
