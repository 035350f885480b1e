"""Stefan Feld's Amerigo (2 to 4 players), as the German rulebook writes it."""

from django.utils.translation import gettext_lazy

from games.bots.amerigo import BOTS, analyse
from games.engines import amerigo
from games.registry import GameSpec
from games.ui import amerigo as ui
from games.ui.amerigo_events import describe_event, describe_refusal, log_heading
from games.ui.amerigo_names import OUTCOME_PARTS

GAME = GameSpec(
    name="amerigo",
    title=gettext_lazy("Amerigo"),
    engine=amerigo,
    bots=BOTS,
    analyst=analyse,
    describe_action=ui.describe_action,
    template="games/amerigo/board.html",
    board_context=ui.board_context,
    moderator_board_context=ui.moderator_board_context,
    action_from_post=ui.action_from_post,
    describe_event=describe_event,
    describe_refusal=describe_refusal,
    log_heading=log_heading,
    rules_template="games/amerigo/rules.html",
    outcome_parts=OUTCOME_PARTS,
    summary=gettext_lazy(
        "Stefan Feld's voyage of discovery: the cubes falling from the tower choose the "
        "actions; sail, build trading posts, settle the islands. 2 to 4 players."
    ),
    picture="img/amerigo.png",
)
