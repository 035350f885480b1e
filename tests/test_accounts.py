import re
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


def run_ensure_demo_admin() -> str:
    out = StringIO()
    call_command("ensure_demo_admin", stdout=out)
    return out.getvalue()


def test_user_model_is_our_own():
    assert settings.AUTH_USER_MODEL == "accounts.User"
    assert get_user_model()._meta.label == "accounts.User"


def test_demo_admin_is_created_once_with_the_printed_password():
    first = run_ensure_demo_admin()
    password = re.search(r"with password '([^']+)'", first).group(1)

    admin = authenticate(username="admin", password=password)
    assert admin is not None and admin.is_superuser and admin.is_staff
    # The site's own login page lets the administrator in too (their address counts as verified).
    response = Client().post("/accounts/login/", {"login": "admin", "password": password})
    assert response["Location"] == "/games/mine/"

    second = run_ensure_demo_admin()
    assert password not in second
    assert "already exists" in second
    assert get_user_model().objects.count() == 1


def test_demo_admin_is_not_created_when_an_administrator_exists(django_user_model):
    django_user_model.objects.create_superuser("owner", password="x-secret-1")

    run_ensure_demo_admin()

    assert not django_user_model.objects.filter(username="admin").exists()
