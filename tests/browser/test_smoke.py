import pytest
from django.conf import settings

pytestmark = pytest.mark.browser


def test_home_page_loads_with_site_name_and_htmx(page, tmp_path):
    page.goto("/")

    assert page.title() == "puerto"
    assert page.locator("header .brand").inner_text() == "puerto"
    assert page.locator("main h1").inner_text() == "puerto"
    htmx_version = (settings.BASE_DIR / "static" / "vendor" / "htmx" / "VERSION").read_text()
    assert page.evaluate("typeof htmx === 'object' && htmx.version") == htmx_version.strip()

    screenshot = page.screenshot(path=tmp_path / "home.png", full_page=True)
    assert screenshot.startswith(b"\x89PNG")
