"""Puerto Rico (3 to 5 players, the 2-player game, New Buildings, Nobles)."""

from django.utils.translation import gettext_lazy

from games.bots.puerto_rico import BOTS, analyse
from games.engines import puerto_rico
from games.registry import GameSpec, Ladder
from games.ui import puerto_rico as ui
from games.ui.puerto_rico_events import describe_event, describe_refusal, log_heading
from games.ui.puerto_rico_names import OPTION_CHOICE_NAMES, OPTION_TEXTS, OUTCOME_PARTS
from games.ui.puerto_rico_rules import rules_page

GAME = GameSpec(
    name="puerto_rico",
    title=gettext_lazy("Puerto Rico"),
    engine=puerto_rico,
    bots=BOTS,
    analyst=analyse,
    describe_action=ui.describe_action,
    template="games/puerto_rico/board.html",
    board_context=ui.board_context,
    moderator_board_context=ui.moderator_board_context,
    action_from_post=ui.action_from_post,
    describe_event=describe_event,
    describe_refusal=describe_refusal,
    log_heading=log_heading,
    rules_template="games/puerto_rico/rules.html",
    rules_context=rules_page,
    option_texts=OPTION_TEXTS,
    option_choice_names=OPTION_CHOICE_NAMES,
    outcome_parts=OUTCOME_PARTS,
    summary=gettext_lazy(
        "Planters, builders and captains on a Caribbean island: choose a role, and everyone "
        "does it, you first. 3 to 5 players, the 2-player game, New Buildings and Nobles."
    ),
    picture="img/puerto-rico.png",
    # Every edition on one ladder: the expansions change buildings, not the skill that wins,
    # and four ladders would each be thin. The 2-player game is another game (its own
    # setup, three roles each a round), so it is rated apart.
    ladders=(
        Ladder("puerto_rico", gettext_lazy("Puerto Rico, 3 to 5 players"), (3, 4, 5)),
        Ladder("puerto_rico_2p", gettext_lazy("Puerto Rico, 2 players"), (2,)),
    ),
)
