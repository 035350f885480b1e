"""Ratings: openskill's Plackett-Luce model (Weng-Lin), which rates placements of two to five
seats, ties included, with an uncertainty that shrinks as a player plays.

Who is rated in a rated game (``Game.rated``, finished, never imported): each person's seat
as its person, each AI player's own seat as its level (so "hard" has a number to aim at), and
a seat that an AI player took over from its person as that person, placed last: the seat was
left, as on Board Game Arena. Ratings change in the transaction that stores the result
(a receiver of ``game_finished``), once per game: a game already rated is not rated again.
``recompute`` rates every rated game again in the order they were first rated and gives the
same numbers.
"""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean

from django.db import IntegrityError, transaction
from django.db.models import Min, Q
from openskill.models import PlackettLuce

from games.models import Game, Result
from players.models import Rating, RatingChange

MODEL = PlackettLuce()
"""openskill's defaults: a new rating is mu 25, sigma 25/3."""
BASE = 1500
SCALE = 40
"""A rating as players read it: ``BASE + SCALE * (mu - 3 * sigma)``, 1500 for a newcomer; it
rises as a player wins and as their sigma shrinks."""


def shown(mu: float, sigma: float) -> int:
    return round(BASE + SCALE * (mu - 3 * sigma))


NEWCOMER = shown(MODEL.mu, MODEL.sigma)


def is_rated(game: Game) -> bool:
    return game.rated and not game.imported and game.status == Game.Status.FINISHED


def rated_placements(results: list[Result]) -> dict[int, int]:
    """Each seat's placement as rated, by position: the engine's, except that seats whose
    person left them to an AI player come after every other seat, tied among themselves.
    Equal seats share a placement and the next one skips (1, 1, 3)."""
    left = Result.PlayedBy.TAKEN_OVER
    keys = {r.position: (True, 0) if r.played_by == left else (False, r.placement) for r in results}
    ordered = sorted(keys.values())
    return {position: ordered.index(key) + 1 for position, key in keys.items()}


def rate_game(game: Game) -> list[RatingChange]:
    """Rate ``game`` from its ``Result`` rows, within the caller's transaction; nothing if it
    is not rated or was rated already. The ratings it changes are locked in the order of their
    keys, so two games that share a player are rated one after the other."""
    if not is_rated(game) or RatingChange.objects.filter(game=game).exists():
        return []
    results = list(game.results.select_related("seat").order_by("position"))
    holders = {r.position: _holder(r) for r in results}
    ladder = game.spec.ladder_for(game.num_players).key
    with transaction.atomic():
        ratings = _locked_ratings(ladder, set(holders.values()))
        placements = rated_placements(results)
        positions = sorted(holders)
        before = {p: ratings.get(holders[p]) for p in positions}
        teams = [
            [MODEL.rating(mu=r.mu, sigma=r.sigma) if r else MODEL.rating()] for r in before.values()
        ]
        rated = MODEL.rate(teams, ranks=[placements[p] for p in positions])
        after = {p: team[0] for p, team in zip(positions, rated, strict=True)}
        # An AI level in two seats of one game moves once, by the mean of its seats.
        seats_of = defaultdict(list)
        for p in positions:
            seats_of[holders[p]].append(p)
        changes = []
        for holder, seats in seats_of.items():
            rating = ratings.get(holder)
            if rating is None:  # a person whose account is gone: the others are still rated
                continue
            old_mu, old_sigma, old_value = rating.mu, rating.sigma, rating.value
            rating.mu = fmean(after[p].mu for p in seats)
            rating.sigma = fmean(after[p].sigma for p in seats)
            rating.value = shown(rating.mu, rating.sigma)
            rating.games += 1
            rating.wins += any(placements[p] == 1 for p in seats)
            rating.last_game_at = game.finished_at
            changes += [
                RatingChange(
                    game=game,
                    position=p,
                    rating=rating,
                    placement=placements[p],
                    mu_before=old_mu,
                    sigma_before=old_sigma,
                    mu_after=rating.mu,
                    sigma_after=rating.sigma,
                    value_before=old_value,
                    value_after=rating.value,
                    at=game.finished_at,
                )
                for p in seats
            ]
        Rating.objects.bulk_update(
            ratings.values(), ["mu", "sigma", "value", "games", "wins", "last_game_at"]
        )
        return RatingChange.objects.bulk_create(changes)


def _holder(result: Result) -> tuple[int | None, str]:
    """Whose rating a seat counts for: (user id, "") for a person, (None, level) for an AI
    player's own seat."""
    if result.played_by == Result.PlayedBy.AI:
        return (None, result.seat.ai_level)
    return (result.user_id, "")


def _locked_ratings(ladder: str, holders: set[tuple[int | None, str]]) -> dict:
    """The ratings of ``holders`` on ``ladder``, created at the newcomer's value where
    missing, and locked until the transaction ends. Created and locked in key order, so two
    games that share players wait for each other rather than deadlock."""
    wanted = {h for h in holders if h != (None, "")}
    users = [u for u, _ in wanted if u is not None]
    levels = [level for _, level in wanted if level]
    ratings = Rating.objects.filter(ladder=ladder).filter(
        Q(user_id__in=users) | Q(ai_level__in=levels)
    )
    found = set(ratings.values_list("user_id", "ai_level"))
    for user_id, level in sorted(wanted - found, key=str):
        try:
            with transaction.atomic():  # a concurrent game may create the same row first
                Rating.objects.create(
                    ladder=ladder,
                    user_id=user_id,
                    ai_level=level,
                    mu=MODEL.mu,
                    sigma=MODEL.sigma,
                    value=NEWCOMER,
                )
        except IntegrityError:
            pass
    return {(r.user_id, r.ai_level): r for r in ratings.select_for_update().order_by("pk")}


def rating_order() -> list[int]:
    """Every game to rate, in the order they were rated: by their first rating change (the
    order the locks gave), then games not rated yet by when they finished."""
    games = Game.objects.filter(rated=True, imported=False, status=Game.Status.FINISHED)
    games = games.annotate(first=Min("rating_changes__id"))
    rated = games.filter(first__isnull=False).order_by("first").values_list("pk", flat=True)
    unrated = games.filter(first__isnull=True).order_by("finished_at", "pk")
    return [*rated, *unrated.values_list("pk", flat=True)]


def recompute() -> int:
    """Rate every rated game again from its results, in order, from newcomers' ratings; the
    number of games rated. One transaction: a reader sees the old ratings or the new."""
    with transaction.atomic():
        order = rating_order()
        Rating.objects.all().delete()  # their changes go with them
        games = Game.objects.with_seats().in_bulk(order)
        for pk in order:
            rate_game(games[pk])
    return len(order)
