"""Fixtures shared by the game tests; a module's own ``users`` fixture takes precedence."""

import pytest


def four_people(user_model) -> list:
    """Four people with an email address and a password, as the clock and email tests need."""
    return [
        user_model.objects.create_user(name, f"{name}@example.org", "pw")
        for name in ("anna", "bob", "chris", "david")
    ]


@pytest.fixture
def users(django_user_model):
    return four_people(django_user_model)
