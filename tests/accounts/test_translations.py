"""The German catalogue: every entry translated, and the committed .mo compiled from the .po."""

import ast
import gettext
import re

from django.conf import settings

CATALOGUE = settings.BASE_DIR / "locale" / "de" / "LC_MESSAGES"


def po_entries() -> dict[str, str]:
    """msgid → msgstr from django.po (plain entries; the catalogue has no plurals)."""
    text = (CATALOGUE / "django.po").read_text(encoding="utf-8")
    entries = {}
    pattern = r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)'
    for msgid, msgstr in re.findall(pattern, text, re.M):
        join = lambda lines: "".join(ast.literal_eval(line) for line in lines.split("\n") if line)  # noqa: E731
        entries[join(msgid)] = join(msgstr)
    entries.pop("")
    return entries


def test_every_entry_is_translated():
    entries = po_entries()
    assert len(entries) > 30
    assert all(entries.values()), [key for key, value in entries.items() if not value]


def test_the_compiled_catalogue_matches_the_po_file():
    """Compile with `msgfmt -o django.mo django.po` (or `manage.py compilemessages`) after
    editing the .po; the .mo is committed so a machine without gettext has the translations."""
    with (CATALOGUE / "django.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for msgid, msgstr in po_entries().items():
        assert compiled.gettext(msgid) == msgstr, msgid
