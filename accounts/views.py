"""The profile page and account deletion."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.forms import DeleteAccountForm, ProfileForm
from accounts.middleware import activate_preferences
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
def delete_account(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        anonymise(request.user)
        logout(request)
        return redirect("accounts:deleted")
    return render(request, "accounts/delete.html", {"form": form})


def account_deleted(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/deleted.html")
