"""The profile page, API tokens, account deletion, and the confirmation email sent again."""

from allauth.account.models import EmailAddress
from allauth.core import ratelimit
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import tokens
from accounts.forms import (
    ApiTokenForm,
    BecomeBotForm,
    DeleteAccountForm,
    ProfileForm,
    ResendConfirmationForm,
)
from accounts.middleware import activate_preferences
from accounts.models import ApiToken
from accounts.services import NotFresh, become_bot
from accounts.services import delete_account as anonymise


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        activate_preferences(request, form.save())  # the message below in the new language
        messages.success(request, _("Your profile is saved."))
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})


@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    """The account's API tokens, and a form for a new one: its text is shown on the answer
    to the form, once, and never again."""
    form = ApiTokenForm(request.POST or None)
    made = None
    if request.method == "POST" and form.is_valid():
        try:
            made = tokens.create(
                request.user, form.cleaned_data["name"], form.cleaned_data["scopes"]
            )
        except tokens.TokenError as error:
            form.add_error(None, str(error))
        else:
            form = ApiTokenForm()
    context = {
        "form": form,
        "made": made and {"token": made[0], "text": made[1]},
        "tokens": request.user.api_tokens.all(),
        "scope_names": dict(ApiToken.Scope.choices),
        "bot_form": BecomeBotForm(),
    }
    return render(request, "accounts/api_tokens.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def bot_account(request: HttpRequest) -> HttpResponse:
    """Turn a fresh account into a bot account (``accounts.services.become_bot``)."""
    form = BecomeBotForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Tick the box to say you understand first."))
    else:
        try:
            become_bot(request.user)
        except NotFresh as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("This is a bot account now."))
    return redirect("accounts:api_tokens")


@login_required
@require_POST
def revoke_api_token(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete one of the account's tokens: a request made with it is refused from now on."""
    deleted, _rows = request.user.api_tokens.filter(pk=pk).delete()
    if deleted:
        messages.success(request, _("The token is revoked."))
    return redirect("accounts:api_tokens")


@login_required
@require_POST
def language(request: HttpRequest) -> HttpResponse:
    """The top bar's language switch for a signed-in player: it changes the language of their
    profile (pages and email), as the profile page does. An unknown language changes nothing."""
    chosen = request.POST.get("language", "")
    if chosen in request.user.Language.values:
        request.user.language = chosen
        request.user.save(update_fields=["language"])
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "/"
    return redirect(back)


@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        anonymise(request.user)
        logout(request)
        return redirect("accounts:deleted")
    return render(request, "accounts/delete.html", {"form": form})


@require_POST
def resend_confirmation(request: HttpRequest) -> HttpResponse:
    """Send the confirmation email again to an address that waits for it, at most as often as
    allauth sends it at log-in. Every answer is the same, so nobody learns which addresses
    have accounts."""
    form = ResendConfirmationForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["email"][0])
        return redirect("account_email_verification_sent")
    email = form.cleaned_data["email"]
    address = EmailAddress.objects.filter(email__iexact=email, verified=False).first()
    if address is not None and ratelimit.consume(
        request, action="confirm_email", key=address.email.lower()
    ):
        address.send_confirmation(request)
    messages.success(
        request,
        _(
            "If an account waits for %(email)s to be confirmed, the email is on its way again "
            "(at most one every few minutes). Look in your spam folder too."
        )
        % {"email": email},
    )
    return redirect("account_email_verification_sent")


def account_deleted(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/deleted.html")
