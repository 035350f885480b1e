"""The German catalogues: every entry translated, each committed .mo compiled from its .po,
and allauth's pages in "du" like the rest of the site."""

import gettext
import re
import subprocess
from pathlib import Path

import allauth
import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.utils import translation

from tests.accounts.conftest import PASSWORD, log_in
from tests.test_i18n import visible_text

CATALOGUES = [Path(folder) / "de" / "LC_MESSAGES" for folder in settings.LOCALE_PATHS]
FORMAL = re.compile(r"\b(?:Sie|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres|Ihnen)\b")
"""German's formal "you" in any case; the site says "du" throughout."""


def gaps(po: Path) -> str:
    """The entries of ``po`` without a translation or marked fuzzy, as gettext prints them."""
    found = ""
    for which in ("--untranslated", "--only-fuzzy"):
        found += subprocess.run(
            ["msgattrib", which, "--no-obsolete", str(po)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return found


def compiled(mo: Path) -> dict:
    with mo.open("rb") as file:
        return gettext.GNUTranslations(file)._catalog


@pytest.mark.parametrize("folder", CATALOGUES, ids=lambda folder: folder.parts[-3])
def test_every_entry_is_translated(folder):
    assert gaps(folder / "django.po") == ""


@pytest.mark.parametrize("folder", CATALOGUES, ids=lambda folder: folder.parts[-3])
def test_the_compiled_catalogue_matches_the_po_file(folder, tmp_path):
    """Compile with `msgfmt -c -o django.mo django.po` after editing the .po; the .mo is
    committed so a machine without gettext has the translations."""
    subprocess.run(["msgfmt", "-o", tmp_path / "fresh.mo", folder / "django.po"], check=True)
    fresh = compiled(tmp_path / "fresh.mo")
    assert len(fresh) > 40
    assert compiled(folder / "django.mo") == fresh


def our_german(key) -> str:
    """What the site says in German for a key of a compiled catalogue (plain, with a context,
    or one form of a plural)."""
    with translation.override("de"):
        if isinstance(key, tuple):  # (msgid, plural form): German's form 0 is for one
            return translation.ngettext(key[0], key[0], 1 if key[1] == 0 else 2)
        if "\x04" in key:
            return translation.pgettext(*key.split("\x04"))
        return translation.gettext(key)


def test_every_allauth_string_that_says_sie_says_du_here():
    allauth_de = Path(allauth.__file__).parent / "locale" / "de" / "LC_MESSAGES" / "django.mo"
    formal = [key for key, text in compiled(allauth_de).items() if key and FORMAL.search(text)]
    assert len(formal) > 20  # allauth's German is formal: the check below has work to do
    assert [key for key in formal if FORMAL.search(our_german(key))] == []


@pytest.fixture
def german(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    return client


ENTRANCE = [
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/confirm-email/",
    "/accounts/deleted/",
]
MANAGE = [
    "/accounts/profile/",
    "/accounts/email/",
    "/accounts/password/change/",
    "/accounts/2fa/",
    "/accounts/2fa/totp/activate/",
    "/accounts/reauthenticate/",
    "/accounts/logout/",
    "/accounts/delete/",
]


def assert_du(response) -> None:
    assert response.status_code in (200, 400), response.status_code
    text = visible_text(response.content.decode())
    assert 'lang="de"' in response.content.decode()
    assert FORMAL.findall(text) == [], text


@pytest.mark.django_db
def test_allauth_pages_address_a_visitor_with_du(german):
    for path in ENTRANCE:
        assert_du(german.get(path, follow=True))
    # and their form errors
    assert_du(german.post("/accounts/login/", {"login": "nobody", "password": "wrong"}))
    assert_du(german.post("/accounts/signup/", {"username": "x", "email": "no", "password1": "1"}))
    assert_du(german.post("/accounts/password/reset/", {"email": "not an address"}))


@pytest.mark.django_db
def test_allauth_pages_address_a_member_with_du(german, member):
    member.language = "de"
    member.save()
    log_in(german, "anna")
    for path in MANAGE:
        assert_du(german.get(path, follow=True))
    assert_du(german.post("/accounts/password/change/", {"oldpassword": "wrong"}))
    assert_du(german.post("/accounts/email/", {"action_add": "", "email": "anna@example.org"}))
    assert_du(german.post("/accounts/2fa/totp/activate/", {"code": "000000"}, follow=True))
    assert_du(german.post("/accounts/delete/", {"password": PASSWORD + "x"}))
    EmailAddress.objects.create(user=member, email="second@example.org")
    assert_du(german.get("/accounts/email/"))
