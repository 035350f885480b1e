"""The players' side of moderation: the report page (a chat message, a player or a game)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import chat
from games.forms import whole_number
from games.models import ChatMessage, Game
from games.services import GameError
from games.views import http_status
from moderation import services
from moderation.models import Report


class ReportForm(forms.Form):
    reason = forms.ChoiceField(
        label=_("What is wrong?"), choices=Report.Reason.choices, widget=forms.RadioSelect
    )
    text = forms.CharField(
        label=_("What happened"),
        required=False,
        max_length=services.MAX_REPORT_TEXT,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Required for “other”. Only the moderators read it."),
    )


@login_required
def report(request: HttpRequest, pk: int) -> HttpResponse:
    """``?message=`` or ``?player=`` says what is reported; neither: the game itself."""
    game = get_object_or_404(Game.objects.with_seats(), pk=pk)
    if not game.visible_to(request.user):
        raise Http404(gettext("no such game"))
    try:
        message_id = whole_number(request.GET.get("message"), gettext("no such chat message"))
        player_id = whole_number(request.GET.get("player"), gettext("no such player"))
    except ValueError as error:
        return HttpResponseBadRequest(str(error))
    message = player = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, game=game).first()
        if message is not None and not chat.may_read(game, request.user):
            message = None
    elif player_id is not None:
        player = next((s.user for s in game.seats.all() if s.user_id == player_id), None)
    form = ReportForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                services.report(
                    request.user,
                    game.pk,
                    form.cleaned_data["reason"],
                    form.cleaned_data["text"],
                    player_id=player_id,
                    message_id=message_id,
                )
            except GameError as error:
                form.add_error(None, error.message)
                status = http_status(error)
            else:
                messages.success(
                    request, gettext("Thank you: the moderators will look at your report.")
                )
                response = HttpResponseRedirect(game.get_absolute_url())
                response.status_code = 303
                return response
    context = {"game": game, "form": form, "message": message, "player": player}
    return render(request, "moderation/report.html", context, status=status)
