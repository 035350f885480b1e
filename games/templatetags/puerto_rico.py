"""Pieces of the Puerto Rico board that appear many times on a page."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def kind(name: str) -> str:
    """A plantation, quarry or good by name, after its colour chip (a tag, not an include:
    the board shows a few dozen of them)."""
    if not name:
        return ""
    return format_html('<span class="good good-{}" aria-hidden="true"></span>{}', name, name)
