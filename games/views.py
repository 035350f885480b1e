"""Lobby, my games and the game page. Thin: every change goes through ``games.services``;
what a game looks like is the business of its UI module (``games.ui``)."""

from __future__ import annotations

import logging

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.middleware import activate_now
from analysis.board import board_part
from games import challenges, chat, clocks, history, notifications, rates, services, transfer
from games.forms import (
    ArchiveForm,
    ImportGameForm,
    NewGameForm,
    PageForm,
    ai_levels,
    chosen_game,
    whole_number,
)
from games.models import VISIBILITY_FIELDS, Game, Result, Seat
from games.registry import by_slug

logger = logging.getLogger(__name__)

LOG_MOVES = 40
"""Moves whose log lines the board shows; the full log has its own page."""
MAX_MOVE_BODY = 16_384


STATUS = {
    services.NotFound: 404,
    services.Forbidden: 403,
    services.Conflict: 409,
    services.KeyReused: 409,
    rates.TooFast: 429,
}
"""The HTTP status of each kind of refusal; any other ``GameError`` is a bad request."""


def http_status(error: services.GameError) -> int:
    """The status a page or the API answers a refusal with: the services know no request."""
    return next((status for kind, status in STATUS.items() if isinstance(error, kind)), 400)


def see_other(url: str) -> HttpResponseRedirect:
    """303: after a POST, the browser fetches the page again with GET."""
    response = HttpResponseRedirect(url)
    response.status_code = 303
    return response


def visible_game(pk: int, viewer) -> Game:
    """The game as a page shows it to ``viewer``; 404 for a game they may not see
    (``Game.visible_to``), as for one that does not exist."""
    game = Game.objects.with_seats(viewer).filter(pk=pk).first()
    if game is None or not game.visible_to(viewer):
        raise Http404(gettext("no such game"))
    return game


def refuse_if_hidden(pk: int, viewer) -> None:
    """404 for a game ``viewer`` may not see, as for one that does not exist, before an action
    on it is tried (``GameQuerySet.hidden_from``: the game itself is not loaded)."""
    if Game.objects.hidden_from(pk, viewer):
        raise Http404(gettext("no such game"))


def board_context(
    request: HttpRequest, game: Game, message: str = "", posted=None, notice: str = ""
) -> dict:
    """What ``games/_board.html`` needs: the platform's part plus the game UI's own.
    ``posted``: the fields of a refused move, for the UI to show them again as entered;
    ``notice``: what changed under the viewer's page on their turn."""
    seat = game.seat_of(request.user)
    notifications.saw(seat)  # a player with the game open gets no "your move" email
    context = {
        "game": game,
        "seat": seat,
        "version": game.version,
        "message": message,
        "notice": notice,
        "move_url": reverse("games:move", args=[game.pk]),
        "poll_url": reverse("games:poll", args=[game.pk]),
    }
    if game.state is None:
        return context
    spec = game.spec
    names = game.names()
    position = seat.position if seat else None
    to_act = game.seat_to_act() if game.status == Game.Status.RUNNING else None
    # Not while an AI player has the seat: its person waits and watches like everyone else.
    is_my_turn = seat is not None and to_act is not None and to_act.pk == seat.pk
    is_my_turn = is_my_turn and not to_act.is_ai
    state = game.engine_state()
    context.update(
        spec.seat_board_context(state, position, names, posted=posted, may_act=is_my_turn)
    )
    # The latest moves, newest first: the log's lines and who made the last decision (undo).
    recent = list(history.logged_moves(game)[:LOG_MOVES])
    context.update(board_log(game, names, recent, game.rules.round_number(state), seat))
    context.update(
        ui_template=spec.template,
        outcome=outcome_table(game, names),
        names=names,
        bot_seats=bot_seats(game),
        to_act=to_act,
        is_my_turn=is_my_turn,
        clock=clocks.table_info(game, seat),
        can_undo=_can_undo(game, seat, to_act, recent),
        undo_url=reverse("games:undo", args=[game.pk]),
        **board_part(game, seat),
    )
    return context


def bot_seats(game: Game) -> set[int]:
    """The positions of bot accounts' seats (``Seat.is_bot``): the one answer every page
    asks before it puts the badge (``players/_bot_badge.html``) beside a seat's name."""
    return {s.position for s in game.seats.all() if s.is_bot}


def board_log(game: Game, names: list[str], recent: list[tuple], round_now: int, seat) -> dict:
    """The board's log of the ``recent`` moves (``history.logged_moves``, newest first;
    ``round_now``: the round of the game's state), grouped by round and heading: what came
    after the viewer's own last move (a spectator: the latest round) unfolded, the moves
    before it apart."""
    entries = history.log_entries(game, names, recent, round_now)
    if seat is None:
        latest = entries[-1].round if entries else None
        split = sum(entry.round != latest for entry in entries)
    else:
        mine = (version for version, *_, actor in recent if actor and actor == seat.user_id)
        last = next(mine, 0)
        split = sum(entry.version <= last for entry in entries)
    return {
        "log": bool(entries),
        "log_new": history.log_groups(entries[split:]),
        "log_earlier": history.log_groups(entries[:split]),
        "log_more": len(recent) == LOG_MOVES,
    }


def outcome_table(game: Game, names: list[str]) -> dict | None:
    """What ``games/_outcome.html`` shows of a finished game: its ``Result`` rows, first
    place first, each part and tie-break under the label the game gives it
    (``GameSpec.outcome_parts``, in its order; a part no seat has gets no column)."""
    if game.status != Game.Status.FINISHED:
        return None
    rows = list(game.results.all())
    labels = game.spec.outcome_parts
    order = {name: i for i, name in enumerate(labels)}

    def ordered(keys) -> list[str]:  # a name the game does not label fails here, loudly
        return sorted(keys, key=order.__getitem__)

    def cell(value) -> dict:
        """A part's VP (None: the seat has no such part), or a split part's pieces, each with
        its label ("guild hall 4")."""
        if not isinstance(value, dict):
            return {"split": False, "vp": value}
        pieces = [{"label": labels[name], "vp": value[name]} for name in ordered(value)]
        return {"split": True, "pieces": pieces}

    parts = ordered({name for row in rows for name in row.parts})
    tiebreaks = ordered({name for row in rows for name in row.tiebreak})
    # What the game did to each seat's rating (``players.ratings``), if it was rated.
    rated = {c.position: c for c in game.rating_changes.all()} if game.rated else {}
    return {
        "rated": bool(rated),
        "parts": [labels[name] for name in parts],
        "tiebreaks": [labels[name] for name in tiebreaks],
        "winners": [
            {"name": names[row.position], "position": row.position}
            for row in rows
            if row.placement == 1
        ],
        "rows": [
            {
                "placement": row.placement,
                "position": row.position,
                "name": names[row.position],
                "taken_over": row.played_by == Result.PlayedBy.TAKEN_OVER,
                "parts": [cell(row.parts.get(name)) for name in parts],
                "score": row.score,
                "tiebreaks": [row.tiebreak.get(name) for name in tiebreaks],
                "rating": rated.get(row.position),
            }
            for row in rows
        ],
    }


def _can_undo(game: Game, seat: Seat | None, to_act: Seat | None, recent: list[tuple]) -> bool:
    """Whether ``seat`` may take back its last decision now. The latest moves (``recent``:
    ``history.logged_moves``, newest first) tell the usual answer (the latest decision is
    someone else's); only a player who just moved pays for the check for hidden information
    shown (``history.undoable``). Not while an AI player is to act (``to_act``): it answers
    within seconds, so the button would almost always be refused. Never in a rated game."""
    if seat is None or seat.is_ai or game.status != Game.Status.RUNNING or game.rated:
        return False
    if to_act is not None and to_act.is_ai:
        return False
    latest = next((move[-1] for move in recent if not move[3]), None)
    if latest is None or latest != seat.user_id:
        return False
    try:
        history.undoable(game, seat)
    except history.NoUndo:
        return False
    return True


def _render_board(
    request: HttpRequest,
    game: Game,
    message: str = "",
    status: int = 200,
    posted=None,
    notice: str = "",
) -> HttpResponse:
    """The board alone, for htmx to swap in, with the page's status line out of band."""
    context = board_context(request, game, message, posted, notice)
    return render(request, "games/_board.html", {**context, "oob": True}, status=status)


@require_GET
def game_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = visible_game(pk, request.user)
    context = board_context(request, game)
    context["show_board"] = game.state is not None  # a game cancelled while running too
    context.update(_seats_context(request, game))
    if game.status == Game.Status.FINISHED:
        context["chart"] = history.final_chart(game)
    context.update(_chat_context(request, game))
    return render(request, "games/game.html", context)


def _seats_context(request: HttpRequest, game: Game) -> dict:
    user = request.user
    is_open = game.status == Game.Status.OPEN
    held = challenges.pending_in(game) if is_open else []
    return {
        "game": game,
        "seat": game.seat_of(user),
        "invite_url": request.build_absolute_uri(reverse("games:invite", args=[game.invite_code])),
        "ai_levels": ai_levels(game.engine),
        "can_manage": user.is_authenticated and (game.creator_id == user.pk or user.is_staff),
        "can_challenge": is_open and user.is_authenticated and game.creator_id == user.pk,
        # Whom a seat is held for: told to the creator and the invitee, not to every visitor.
        "held_seats": [
            {
                "challenge": c,
                "named": user.is_authenticated and user.pk in (c.challenger_id, c.invitee_id),
            }
            for c in held
        ],
        "my_challenge": next((c for c in held if c.invitee_id == user.pk), None),
    }


@require_GET
def board(request: HttpRequest, pk: int) -> HttpResponse:
    return _render_board(request, visible_game(pk, request.user))


@require_GET
def seats(request: HttpRequest, pk: int) -> HttpResponse:
    """The waiting room's seat list, polled while the game is open; once it has started (or
    was cancelled) the page reloads itself to show the board."""
    game = visible_game(pk, request.user)
    if game.status != Game.Status.OPEN:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    return render(request, "games/_seats.html", _seats_context(request, game))


@require_GET
def poll(request: HttpRequest, pk: int) -> HttpResponse:
    """Cheap versioned polling of the board (``v``: the version the page shows) and of the
    chat (``c``: its chat version; ``static/js/chat.js`` adds it): unchanged, it costs one
    indexed query and no rendering (a game only its players may watch: the viewer's session and
    seat besides). A changed board answers with the viewer's own board, so
    nothing hidden is broadcast; a changed chat comes along out of band (alone, with nothing
    else swapped)."""
    refusal = gettext("v must be the version you have")
    try:
        seen = whole_number(request.GET.get("v"), refusal)
        chat_seen = whole_number(request.GET.get("c"), refusal)
    except ValueError:
        seen = chat_seen = None
    if seen is None and chat_seen is None:
        return HttpResponse(refusal, status=400)
    fields = ("version", "chat_version", *VISIBILITY_FIELDS)
    row = Game.objects.only(*fields).filter(pk=pk).first()
    if row is None or not row.visible_to(request.user):
        return HttpResponse(gettext("no such game"), status=404)
    board_changed = seen is not None and row.version != seen
    chat_changed = chat_seen is not None and row.chat_version != chat_seen
    if not board_changed and not chat_changed:
        return HttpResponse(status=204)
    game = visible_game(pk, request.user)
    chat_changed = chat_changed and chat.may_read(game, request.user)
    if board_changed:
        # The page showed the viewer's turn (``turn``): say why the board changed under it.
        mine = request.GET.get("turn") == "1"
        notice = services.what_changed(game, seen, request.user) if mine else ""
        response = _render_board(request, game, notice=notice)
    elif chat_changed:
        response = HttpResponse(headers={"HX-Reswap": "none"})
    else:
        return HttpResponse(status=204)
    if chat_changed:
        context = {**_chat_context(request, game), "oob": True}
        response.write(render_to_string("games/_chat_messages.html", context, request))
    return response


def too_large(request: HttpRequest, limit: int) -> bool:
    """Whether the body is over ``limit`` bytes by its declared length: an oversized body is
    refused unread, and a multipart form that the CSRF check has already read from the stream
    is not asked for its raw bytes, which are gone by then."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    return length.isascii() and length.isdigit() and int(length) > limit


@require_POST
def move(request: HttpRequest, pk: int) -> HttpResponse:
    """One decision of the seat to act. htmx gets the new board (4xx with the reason and the
    fresh board when refused); a plain form post is redirected back to the game page."""
    if not request.user.is_authenticated:
        return HttpResponse(gettext("log in to play"), status=403)
    if too_large(request, MAX_MOVE_BODY):
        return HttpResponse(gettext("that request is too large to be a move"), status=413)
    game = visible_game(pk, request.user)
    seatless = services.seatless_refusal(game, request.user)
    if seatless is not None:  # nothing of a stranger's post is read
        status, message = http_status(seatless), seatless.message
    else:
        status, message = _submit_posted(request, game)
    if not request.htmx:
        if message:
            messages.error(request, message)
        return see_other(game.get_absolute_url() + "#board")
    posted = request.POST if message and seatless is None else None
    return _render_board(request, visible_game(pk, request.user), message, status, posted)


def _submit_posted(request: HttpRequest, game: Game) -> tuple[int, str]:
    """Read a player's posted move and submit it: the status and the reason if refused."""
    try:
        version = whole_number(
            request.POST.get("version"),
            gettext("the move does not say which version of the game you saw"),
            required=True,
        )
        action = game.spec.action_from_post(request.POST)
    except ValueError as error:
        return 400, str(error) or gettext("malformed move")
    try:
        services.submit_move(
            game.pk,
            action,
            user=request.user,
            expected_version=version,
            idempotency_key=request.POST.get("key", "")[:64],
        )
    except services.GameError as error:
        return http_status(error), error.message
    return 200, ""


# The chat ----------------------------------------------------------------------------------


def _chat_context(request: HttpRequest, game: Game, error: str = "") -> dict:
    """What ``games/_chat.html`` needs; nothing of the chat if the viewer may not read it."""
    user = request.user
    readable = chat.may_read(game, user)
    context = {"game": game, "chat_readable": readable, "chat_version": game.chat_version}
    if not readable:
        return context
    others = [s for s in game.seats.all() if s.user_id and s.user_id != user.pk]
    context.update(
        chat_messages=list(chat.messages_for(game, user)),
        chat_writable=chat.is_player(game, user),
        chat_silenced=user.is_authenticated and chat.silenced(user),
        chat_players=[{"user": s.user, "muted": s.muted_by_viewer} for s in others],
        chat_error=error,
        chat_max=chat.MAX_LENGTH,
        poll_url=reverse("games:poll", args=[game.pk]),
    )
    return context


def _chat_answer(request: HttpRequest, pk: int, change) -> HttpResponse:
    """Do ``change`` (a chat service call); htmx gets the fresh chat (with the refusal and
    its status), a plain form post is sent back to the game page."""
    if not request.user.is_authenticated:
        return HttpResponse(gettext("log in to chat"), status=403)
    status, error = 200, ""
    try:
        change(visible_game(pk, request.user))
    except services.GameError as refusal:
        status, error = http_status(refusal), refusal.message
    if not request.htmx:
        if error:
            messages.error(request, error)
        return see_other(reverse("games:game", args=[pk]) + "#chat")
    context = _chat_context(request, visible_game(pk, request.user), error)
    return render(request, "games/_chat_messages.html", context, status=status)


@require_POST
def chat_post(request: HttpRequest, pk: int) -> HttpResponse:
    return _chat_answer(
        request, pk, lambda game: chat.post(game.pk, request.user, request.POST.get("text", ""))
    )


@require_POST
def chat_mute(request: HttpRequest, pk: int) -> HttpResponse:
    """A player hides another player's messages from their own view, or shows them again."""

    def change(game: Game) -> None:
        try:
            other = whole_number(request.POST.get("player"), gettext("say which player"), True)
        except ValueError as error:
            raise services.GameError(str(error)) from None
        chat.set_mute(game, request.user, other, request.POST.get("mute") == "1")

    return _chat_answer(request, pk, change)


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    try:
        engine = chosen_game(request.POST if request.method == "POST" else request.GET)
    except ValueError as error:
        messages.error(request, str(error))
        return see_other(reverse("games:lobby"))
    against_ai = request.GET.get("against") == "ai"
    form = NewGameForm(request.POST or None, engine=engine, against_ai=against_ai)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(request.user, **form.game_arguments())
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            return redirect(game)
    open_games = Game.objects.waiting_for_players()[:50]
    context = {
        "form": form,
        "open_games": open_games,
        "challenges": challenges.pending_for(request.user),
    }
    return render(request, "games/lobby.html", context, status=400 if form.errors else 200)


LIST_PAGE = 50
"""Games on one page of the archive and of the games to watch."""


def archive_page(data, viewer) -> tuple[ArchiveForm, Page | None]:
    """The archive's search form read from ``data`` (query parameters) and, when it is
    valid, the page of finished games it asks for (``GameQuerySet.archived_for``)."""
    form = ArchiveForm(data)
    if not form.is_valid():
        return form, None
    games = form.filter(Game.objects.archived_for(viewer))
    return form, Paginator(games, LIST_PAGE).get_page(form.cleaned_data["page"])


def watch_page(data) -> tuple[PageForm, Page | None]:
    """The page of running games to watch that ``data`` (its ``page``) asks for."""
    form = PageForm(data)
    if not form.is_valid():
        return form, None
    return form, Paginator(Game.objects.to_watch(), LIST_PAGE).get_page(form.cleaned_data["page"])


def listed_players(game: Game) -> list[dict]:
    """A listed game's players (``GameQuerySet.listed``): in a finished game first place
    first, each with their placement and score; else in seat order. ``bot`` puts the badge
    beside a bot account's name on the pages (the API's serializers leave it out)."""
    names = game.names()
    ai = {s.position: s.is_ai for s in game.seats.all()}
    bots = bot_seats(game)
    if game.status != Game.Status.FINISHED:
        return [{"name": name, "ai": ai[i], "bot": i in bots} for i, name in enumerate(names)]
    return [
        {
            "name": names[row.position],
            "ai": ai[row.position],
            "bot": row.position in bots,
            "placement": row.placement,
            "score": row.score,
        }
        for row in game.results.all()
    ]


def _list_status(form: forms.Form) -> int:
    return 400 if form.errors else 200


@require_GET
def archive(request: HttpRequest) -> HttpResponse:
    """Finished games to study, searchable; 400 with the form's errors for a search it cannot
    read."""
    form, page = archive_page(request.GET, request.user)
    rows = [{"game": g, "players": listed_players(g)} for g in page or ()]
    context = {"form": form, "page": page, "rows": rows}
    return render(request, "games/archive.html", context, status=_list_status(form))


@require_GET
def watch(request: HttpRequest) -> HttpResponse:
    """Running games anyone may watch; their pages show a spectator what any non-player sees."""
    form, page = watch_page(request.GET)
    rows = [{"game": g, "players": listed_players(g)} for g in page or ()]
    context = {"form": form, "page": page, "rows": rows}
    return render(request, "games/watch.html", context, status=_list_status(form))


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """Every game of the user, those waiting for their move first, then by how long; then the
    games they imported."""
    seats = (
        Seat.objects.filter(user=request.user)
        .select_related("game")
        .with_your_turn()
        .order_by("-your_turn", "game__turn_started_at", "-game__created_at")
    )
    games = [s.game for s in seats]
    to_act = {
        s.game_id: s for s in Seat.objects.filter(game__in=games).to_act().select_related("user")
    }
    rows = [{"game": s.game, "mine": s.your_turn, "to_act": to_act.get(s.game_id)} for s in seats]
    # The games the user imported to replay: theirs too, though nobody sat at them here.
    imported = Game.objects.filter(creator=request.user, imported=True).exclude(
        seats__user=request.user
    )
    rows += [{"game": game, "mine": False, "to_act": None} for game in imported]
    return render(request, "games/my_games.html", {"rows": rows})


@login_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    """Take back the player's last decision (``services.undo_move``): htmx gets the new board,
    a plain form post is redirected back to the game page, as after a move."""
    refuse_if_hidden(pk, request.user)
    status, message, back = on_posted_version(
        request,
        pk,
        gettext("the undo does not say which version of the game you saw"),
        lambda seen: services.undo_move(pk, request.user, expected_version=seen),
        "#board",
    )
    return back or _render_board(request, visible_game(pk, request.user), message, status)


def on_posted_version(request, pk: int, unreadable: str, act, anchor: str, required=False):
    """``act(version)`` with the version of the game the player saw, posted as ``version``
    (``unreadable``: the refusal when it is no plain number; None when absent and not
    ``required``). Returns the status and message of a refusal (200 and "" without one) and,
    for a plain form post, the redirect back to the game page at ``anchor``, the message
    flashed; None for htmx, which gets the part of the page it asked for."""
    status, message = 200, ""
    try:
        act(whole_number(request.POST.get("version"), unreadable, required=required))
    except ValueError as error:
        status, message = 400, str(error)
    except services.GameError as error:
        status, message = http_status(error), error.message
    if request.htmx:
        return status, message, None
    if message:
        messages.error(request, message)
    return status, message, see_other(reverse("games:game", args=[pk]) + anchor)


@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """Step through a game move by move (``?step=n``: the board after the n-th move, 0 the
    start), each player from their own seat: anyone through a finished or cancelled game
    (spectators see the public view), only its players through a running game."""
    game = visible_game(pk, request.user)
    seat = game.seat_of(request.user)
    if game.state is None:
        raise Http404(gettext("the game has not started"))
    if game.status == Game.Status.RUNNING and seat is None:
        return HttpResponse(gettext("Only its players may replay a running game."), status=403)
    viewer = seat.position if seat else None
    try:
        asked = int(request.GET["step"])
    except (KeyError, ValueError):
        asked = None
    try:
        shown = history.replay_step(game, asked, viewer)
    except history.ReplayError as error:
        logger.warning("game %s: move %s does not replay: %s", game.pk, error.version, error)
        message = gettext("The game's earlier moves no longer replay under today's rules.")
        return HttpResponse(message, status=409)
    step, last = shown.number, shown.last
    spec = game.spec
    names = game.names()
    context = {
        "game": game,
        "seat": seat,
        "version": game.version,
        "is_my_turn": False,
        "ui_template": spec.template,
        **spec.seat_board_context(shown.state, viewer, names, may_act=False),
        "step": step,
        "last": last,
        "steps": {"first": 0, "back": max(step - 1, 0), "forward": min(step + 1, last)},
        "lines": history.told(game, shown.events, names),
        "chart": shown.chart,
        "outcome": outcome_table(game, names) if step == last else None,
        "bot_seats": bot_seats(game),
    }
    return render(request, "games/replay.html", context)


@require_GET
def export(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished game as one JSON file to download (``docs/export.md``), the chat in it only
    for a reader who may read it."""
    game = visible_game(pk, request.user)
    if game.status != Game.Status.FINISHED:
        raise Http404(gettext("only a finished game can be exported"))
    exported = transfer.export_game(game, request.user)
    response = JsonResponse(exported, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="puerto-game-{game.pk}.json"'
    return response


MAX_IMPORT_POST = transfer.MAX_IMPORT_BYTES + 64 * 1024
"""The import form's largest post: the file, and the form's fields and boundaries around it."""


@csrf_exempt  # checked below (``csrf_protect``), once an oversized upload is refused unread
@login_required
def import_game(request: HttpRequest) -> HttpResponse:
    """Upload an exported game: checked and replayed, then kept as a finished game to replay
    (the one kept before if the user sent the same game already)."""
    if too_large(request, MAX_IMPORT_POST):
        messages.error(request, gettext("The file is larger than 2 MB."))
        return render(request, "games/import.html", {"form": ImportGameForm()}, status=413)
    return _import_game(request)


@csrf_protect
def _import_game(request: HttpRequest) -> HttpResponse:
    form = ImportGameForm(request.POST or None, request.FILES or None)
    retry_after = None
    if request.method == "POST" and form.is_valid():
        try:
            game, created = transfer.import_game(form.cleaned_data["file"], request.user)
        except transfer.ImportRefused as error:
            form.add_error("file", error.message)
        except rates.TooFast as error:
            form.add_error("file", error.message)
            retry_after = error.retry_after
        else:
            if not created:
                messages.info(request, gettext("You imported this game before: here it is."))
            return see_other(reverse("games:replay", args=[game.pk]))
    status = 400 if form.errors else 200
    if form.has_error("file", "too_large"):
        status = 413
    if retry_after is not None:
        status = 429
    response = render(request, "games/import.html", {"form": form}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@require_GET
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """A game's rules page: how puerto plays it, the board's help in one page."""
    spec = by_slug(slug)
    if spec is None:
        raise Http404(gettext("There is no such game."))
    page = spec.rules_template
    if isinstance(page, str):
        page = get_template(page)
    return HttpResponse(page.render(spec.rules_context(), request))


@require_GET
def full_log(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole log, told in the reader's language."""
    activate_now(request)
    game = visible_game(pk, request.user)
    names = game.names()
    log = []
    if game.state is not None:
        round_now = game.rules.round_number(game.engine_state())
        moves = list(history.logged_moves(game))
        log = history.log_groups(history.log_entries(game, names, moves, round_now))
    return render(request, "games/log.html", {"game": game, "log": log})


def invite(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, invite_code=code)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        return _lobby_action(request, game.pk, lambda: services.join_game(game.pk, request.user))
    return render(request, "games/invite.html", {"game": game})


def _lobby_action(request: HttpRequest, pk: int, action) -> HttpResponse:
    """``action`` on the game, its refusal flashed, then back to the game page; a game hidden
    from the requester is a 404 before anything is tried, so no refusal tells it exists."""
    refuse_if_hidden(pk, request.user)
    try:
        action()
    except services.GameError as error:
        messages.error(request, error.message)
    return see_other(reverse("games:game", args=[pk]))


@login_required
@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda: services.join_game(pk, request.user))


@login_required
@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda: services.leave_game(pk, request.user))


@login_required
@require_POST
def add_ai(request: HttpRequest, pk: int) -> HttpResponse:
    level = request.POST.get("level", Seat.AI.MEDIUM)
    return _lobby_action(request, pk, lambda: services.add_ai(pk, request.user, level))


@login_required
@require_POST
def remove_seat(request: HttpRequest, pk: int, seat_id: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda: services.remove_seat(pk, request.user, seat_id))


@login_required
@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda: services.cancel_game(pk, request.user))


# Challenges: the creator invites a player by name; the invitee accepts or declines ----------


@login_required
@require_POST
def challenge(request: HttpRequest, pk: int) -> HttpResponse:
    """The waiting room's "Challenge a player" form: the creator names a player."""
    username = request.POST.get("username", "").strip()
    try:
        made = challenges.challenge(pk, request.user, username)
    except services.GameError as error:
        messages.error(request, error.message)
    else:
        name = {"player": made.invitee.public_name}
        messages.success(request, gettext("%(player)s is challenged: a seat is held.") % name)
    return see_other(reverse("games:game", args=[pk]) + "#seats")


@login_required
@require_POST
def accept_challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """The invitee takes the seat held for them and goes to the game."""
    try:
        accepted = challenges.accept(challenge_id, request.user)
    except services.GameError as error:
        messages.error(request, error.message)
        return see_other(reverse("games:lobby") + "#challenges")
    return see_other(accepted.game.get_absolute_url())


@login_required
@require_POST
def decline_challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """The invitee says no; they stay in the lobby."""
    try:
        challenges.decline(challenge_id, request.user)
    except services.GameError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, gettext("You declined the challenge."))
    return see_other(reverse("games:lobby") + "#challenges")


@login_required
@require_POST
def withdraw_challenge(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """The challenger takes the challenge back, from the game's waiting room."""
    try:
        withdrawn = challenges.withdraw(challenge_id, request.user)
    except services.GameError as error:
        messages.error(request, error.message)
        return see_other(reverse("games:lobby"))
    return see_other(withdrawn.game.get_absolute_url() + "#seats")


# Move clocks and email ------------------------------------------------------------------------


@login_required
@require_POST
def take_back(request: HttpRequest, pk: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda: services.take_seat_back(pk, request.user))


@login_required
@require_POST
def vote_drop(request: HttpRequest, pk: int, seat_id: int) -> HttpResponse:
    return _lobby_action(request, pk, lambda: services.vote_to_drop(pk, request.user, seat_id))


@login_required
def vacation(request: HttpRequest) -> HttpResponse:
    """Start or stop a vacation: the player's move clocks stand still meanwhile."""
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "stop":
                clocks.stop_vacation(request.user)
                messages.success(request, gettext("Welcome back: your clocks run again."))
            else:
                clocks.start_vacation(request.user, float(request.POST.get("days", "")))
                messages.success(request, gettext("Enjoy your vacation: your clocks stand still."))
            return see_other(reverse("games:vacation"))
        except ValueError:
            messages.error(request, gettext("Give the number of days."))
            status = 400
        except clocks.VacationError as error:
            messages.error(request, str(error))
            status = 400
    left = clocks.vacation_left(request.user)
    return render(
        request,
        "games/vacation.html",
        {
            "current": clocks.current_vacation(request.user),
            "used_days": clocks.vacation_used(request.user).total_seconds() / 86400,
            "left_days": int(left.total_seconds() // 86400),
            "allowance_days": clocks.vacation_allowance().days,
            "past": request.user.vacations.all()[:10],
        },
        status=status,
    )


@csrf_exempt  # mail clients post without a session (RFC 8058); the signed token is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One-click unsubscribe: POST switches the kind of mail off at once (what mail clients
    send); GET only shows a page with a button, so link scanners unsubscribe nobody."""
    try:
        user, kind = notifications.read_unsubscribe_token(token)
    except signing.SignatureExpired:
        return render(
            request,
            "games/unsubscribe_invalid.html",
            {"expired": True, "days": settings.PUERTO_UNSUBSCRIBE_LINK_DAYS},
            status=410,
        )
    except signing.BadSignature:
        return render(request, "games/unsubscribe_invalid.html", status=400)
    # No address on these pages: whoever holds the link (a forwarded mail) learns none.
    context = {"kind": notifications.Notification.Kind(kind)}
    if request.method == "POST":
        notifications.unsubscribe(user, kind)
        return render(request, "games/unsubscribe_done.html", context)
    return render(request, "games/unsubscribe.html", context)
