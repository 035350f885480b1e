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


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_visitors_header_fits_a_phone(browser, live_server, language):
    """Logged out, the header carries the most links (log in, sign up, the other language):
    on a 390 px phone they wrap instead of widening the page."""
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        locale=language,
        extra_http_headers={"Accept-Language": language},
    )
    page = context.new_page()
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == language
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
