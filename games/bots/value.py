"""A seat's expected final score, predicted from what lies on the table.

The VP already won, plus a linear model of what is still to come, one per player count and
stage of the game (rounds left), fitted by
``games.bots.train`` on games between the heuristic players; the weights live in ``weights``.
Searches stop their playouts early and ask this model how the game will end, which is much
cheaper, and much less noisy, than playing every game to the end.
"""

from __future__ import annotations

from games.engines.puerto_rico.captain import warehouse_kinds
from games.engines.puerto_rico.craftsman import capacity
from games.engines.puerto_rico.data import BUILDINGS, CORN, QUARRY
from games.engines.puerto_rico.scoring import scores
from games.engines.puerto_rico.state import State

from .knowledge import LARGE, Values, circles, large_bonus
from .weights import WEIGHTS

STAGES = (1.5, 3.0, 5.0, 8.0)
"""Upper bounds of rounds left for the stages 0-3; stage 4 is everything above."""
NAMES = (
    "bias",
    "customs_vp",
    "large_bonus_empty",
    "doubloons",
    "corn",
    "indigo",
    "sugar",
    "tobacco",
    "coffee",
    "made_corn",
    "made_indigo",
    "made_sugar",
    "made_tobacco",
    "made_coffee",
    "idle_indigo",
    "idle_sugar",
    "idle_tobacco",
    "idle_coffee",
    "idle_corn",
    "colonists",
    "san_juan",
    "free_spaces",
    "island_tiles",
    "worked_quarries",
    "quarries",
    "city_spaces",
    "harbor",
    "wharf",
    "factory_kinds",
    "office",
    "markets",
    "warehouses",
    "hacienda",
    "construction_hut",
    "hospice",
    "university",
    "rounds_left",
    "made_x_rounds",
    "doubloons_x_rounds",
    "next_governor",
)


def stage(values: Values) -> int:
    for i, bound in enumerate(STAGES):
        if values.rounds < bound:
            return i
    return len(STAGES)


def features(state: State, seat: int, values: Values) -> tuple[float, list[float]]:
    """The VP a seat already has for sure (chips, buildings, occupied large buildings), and
    the model's inputs for what comes on top, in the order of ``NAMES``. A VP won now is a
    VP at the end: the model is not asked to guess that."""
    pl = state.players[seat]
    city = pl.city
    won = pl.vp
    empty = 0
    for name in city:
        won += BUILDINGS[name].vp
        if name in LARGE:
            if city[name]:
                won += large_bonus(pl, name)
            else:
                empty += large_bonus(pl, name)
    made = capacity(pl)
    circ = circles(pl)
    idle = [min(pl.tiles[g], circ[g]) - made[g] for g in range(1, 5)]
    worked = sum(pl.worked) + sum(city.values())
    slots = sum(pl.tiles) + sum(BUILDINGS[b].circles for b in city)
    kinds = sum(1 for g in range(5) if made[g])
    r = values.rounds
    n = state.num_players
    return won, [
        1.0,
        pl.vp if "customs_house" in city else 0,
        empty,
        pl.doubloons,
        *pl.goods,
        *made,
        *idle,
        pl.tiles[CORN] - pl.worked[CORN],
        pl.colonists(),
        pl.san_juan,
        slots - worked,
        sum(pl.tiles),
        pl.worked[QUARRY],
        pl.tiles[QUARRY],
        pl.city_spaces_used(),
        1 if city.get("harbor") else 0,
        1 if city.get("wharf") else 0,
        kinds if city.get("factory") else 0,
        1 if city.get("office") else 0,
        (1 if city.get("small_market") else 0) + (2 if city.get("large_market") else 0),
        warehouse_kinds(pl),
        1 if city.get("hacienda") else 0,
        1 if city.get("construction_hut") else 0,
        1 if city.get("hospice") else 0,
        1 if city.get("university") else 0,
        r,
        r * sum(made),
        r * pl.doubloons,
        1 if (state.governor + 1) % n == seat else 0,
    ]


def predict(state: State, values: Values) -> list[float]:
    """Each seat's expected final score (the real one, tie-break as a fraction, once over)."""
    if state.phase == "over":
        return [s["total"] + 0.01 * s["tiebreak"] for s in scores(state)]
    weights = WEIGHTS[state.num_players][stage(values)]
    out = []
    for seat in range(state.num_players):
        won, x = features(state, seat, values)
        out.append(won + sum(w * v for w, v in zip(weights, x, strict=True)))
    return out


def standing(predicted: list[float], seat: int) -> float:
    """How far ahead ``seat`` is expected to finish: against the best rival mostly, and the
    average one a little (pulling everyone down helps too)."""
    others = [v for s, v in enumerate(predicted) if s != seat]
    return predicted[seat] - 0.75 * max(others) - 0.25 * sum(others) / len(others)
