"""The game's options and player counts, described as data so a site can build its
new-game form without knowing the game."""

from .data import SETUPS, VP_CHIPS_5P_OPTIONS

EDITIONS = ("base", "new_buildings", "nobles", "both")
"""The base game, with Expansion I (New Buildings), Expansion II (Nobles), or both."""

PLAYER_COUNTS = tuple(sorted(SETUPS))

OPTIONS = (
    {
        "name": "hidden_vp",
        "label": "Hidden VP chips",
        "help": "VP chips lie face down: nobody sees another player's VP until the end.",
        "type": "bool",
        "default": True,
    },
    {
        "name": "vp_chips",
        "label": "VP chips with five players",
        "help": "122 (first edition) or 126 (2011 edition).",
        "type": "choice",
        "choices": VP_CHIPS_5P_OPTIONS,
        "default": VP_CHIPS_5P_OPTIONS[0],
        "players": (5,),
    },
    {
        "name": "edition",
        "label": "Expansions",
        "help": (
            "The base game, or with the New Buildings (the violet buildings are drafted "
            "before the first round), the Nobles, or both."
        ),
        "type": "choice",
        "choices": EDITIONS,
        "default": EDITIONS[0],
    },
)
"""``players``: the player counts an option applies to (all when absent)."""
