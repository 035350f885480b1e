import re

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

HTMX_DIR = settings.BASE_DIR / "static" / "vendor" / "htmx"


def test_home_page_shows_site_name_and_loads_htmx_from_our_static(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>puerto</title>" in html
    assert "<main>" in html
    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in html
    assert 'name="viewport"' in html
    assert all(src.startswith("/static/") for src in re.findall(r'<script[^>]*src="([^"]+)"', html))


def test_home_page_offers_log_in_to_visitors_and_log_out_to_members(client, django_user_model):
    assert 'href="/accounts/login/"' in client.get("/").content.decode()

    client.force_login(django_user_model.objects.create_user("anna", password="x-secret-1"))
    html = client.get("/").content.decode()

    assert 'action="/accounts/logout/"' in html
    assert "anna" in html


def test_vendored_htmx_matches_its_recorded_version():
    recorded = (HTMX_DIR / "VERSION").read_text().strip()
    shipped = re.search(r'version:"([^"]+)"', (HTMX_DIR / "htmx.min.js").read_text())

    assert shipped is not None
    assert shipped.group(1) == recorded
