"""The Jinja2 environment of the game board, the part of a game page that is rendered again
after every move and on every poll that finds a change.

The board shows a few hundred values (the buildings table alone over a hundred); Django's
template engine spends about 3 ms on them here and Jinja2 a fraction of that
(``docs/benchmarks.md``). The rest of the site keeps Django templates. The filters below do
what Django's filters of the same names do, with dates in the active time zone as there.
"""

from django.middleware.csrf import get_token
from django.template import defaultfilters
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from jinja2 import Environment
from markupsafe import Markup, escape


def url(name: str, *args) -> str:
    return reverse(name, args=args)


def date(value, format_string: str) -> str:
    """Django's ``date`` filter, in the active time zone (Django's templates convert a
    datetime before the filter sees it); empty for no date, as there."""
    if not value:
        return ""
    return defaultfilters.date(timezone.localtime(value), format_string)


def pluralize(count: int, suffixes: str = "s") -> str:
    """Django's ``pluralize``: ``"s"``, or ``"singular,plural"``."""
    singular, _, plural = suffixes.rpartition(",") if "," in suffixes else ("", "", suffixes)
    return singular if count == 1 else plural


def kind(name: str) -> Markup:
    """A plantation, quarry or good by name, after its colour chip."""
    if not name:
        return Markup("")
    name = escape(name)
    return Markup(f'<span class="good good-{name}" aria-hidden="true"></span>{name}')


def csrf(request) -> dict:
    """``csrf_token`` and ``csrf_input`` made once per render, when first printed, as Django's
    own templates have them. Django's Jinja2 backend hands them over as lazy strings that make
    a new masked token each time they are printed (some prints twice), and the page around the
    board, rendered from the board's context, inherited them: five tokens a game page at about
    0.1 ms each, where one does."""
    token = SimpleLazyObject(lambda: get_token(request))
    field = SimpleLazyObject(
        lambda: format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
    )
    return {"csrf_token": token, "csrf_input": field}


class BoardEnvironment(Environment):
    def getattr(self, obj, attribute):
        """``a.b`` looks ``b`` up as a key first when ``a`` is a dict, as Django's templates do;
        the board's context is made of dicts, and Jinja2's attribute-first look-up pays for
        an ``AttributeError`` on each of its few hundred values."""
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    env = BoardEnvironment(**options)
    env.globals.update(url=url, static=static, kind=kind)
    env.filters.update(
        date=date,
        pluralize=pluralize,
        timesince=defaultfilters.timesince_filter,
        timeuntil=defaultfilters.timeuntil_filter,
    )
    return env
