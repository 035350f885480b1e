"""The board's Jinja2 environment behaves as Django's templates do where the board relies on it."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template, defaultfilters, engines
from django.utils import timezone


def jinja(source: str, **context) -> str:
    return engines["jinja2"].from_string(source).render(context)


@pytest.mark.parametrize("count", [0, 1, 2, 5])
@pytest.mark.parametrize("suffixes", ["s", "is,are", "s,", "y,ies"])
def test_pluralize_is_djangos(count, suffixes):
    expected = defaultfilters.pluralize(count, suffixes)
    assert jinja("{{ n|pluralize(s) }}", n=count, s=suffixes) == expected


def test_dates_are_shown_in_the_active_time_zone_as_djangos_date_filter_shows_them():
    moment = datetime(2026, 11, 21, 23, 30, tzinfo=UTC)
    django = Template('{{ d|date:"D j M, H:i T" }} {{ d|date:"c" }}')
    with timezone.override(ZoneInfo("Asia/Tokyo")):
        expected = django.render(Context({"d": moment}))
        shown = jinja('{{ d|date("D j M, H:i T") }} {{ d|date("c") }}', d=moment)
    assert shown == expected == "Sun 22 Nov, 08:30 JST 2026-11-22T08:30:00+09:00"
    assert jinja('{{ d|date("c") }}', d=None) == ""


def test_timesince_and_timeuntil_are_djangos():
    past = timezone.now() - timedelta(hours=3, minutes=5)
    assert jinja("{{ d|timesince }}", d=past) == defaultfilters.timesince_filter(past)
    assert jinja("{{ d|timesince }}", d=None) == ""


def test_a_dicts_keys_come_before_its_methods_and_values_are_escaped():
    row = {"items": "<b>3</b>", "name": "large market"}
    assert jinja("{{ r.items }}|{{ r.name }}|{{ r.missing }}", r=row) == (
        "&lt;b&gt;3&lt;/b&gt;|large market|"
    )


def test_a_goods_chip_escapes_its_name():
    assert jinja("{{ kind(k) }}", k="corn") == (
        '<span class="good good-corn" aria-hidden="true"></span>corn'
    )
    assert "<script>" not in jinja("{{ kind(k) }}", k="<script>")
    assert jinja("{{ kind(k) }}", k="") == ""
