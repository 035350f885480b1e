"""What the rest of the site hears of a game: the one way ``games.services`` tells it.

Two kinds of receivers. Inside the change's transaction (``game_changed``, ``game_finished``,
``vote_opened``, ``game_cancelled``, ``chat_posted``, ``challenge_changed``): they write what
must commit together with the change or not at all, the move clock, the notification outbox
and the event journal.
After commit (``move_applied``, ``game_started``, ``notifications_written``): they queue work
that must see the stored change, the AI's turn and the delivery of mail; a broker that is down
is logged there, never the request's failure. Each receiver is a function in its own module
(``games.clocks``, ``games.notifications``, ``events.journal``), connected in its app; a new
consumer of a game's end is one more receiver of ``game_finished``.
"""

from django.dispatch import Signal

game_changed = Signal()
"""Inside the transaction, after the game row and its moves are saved: ``game``,
``previous_position`` (the seat that was to act before, or None at the start), ``by_ai``."""

game_finished = Signal()
"""Inside the transaction of the move that ended the game, after ``game_changed``: ``game``
(finished, its result stored)."""

vote_opened = Signal()
"""Inside the timeout's transaction: the other players may vote to drop ``seat`` of ``game``;
``voters`` are their user ids."""

game_cancelled = Signal()
"""Inside the transaction of a moderator's cancellation of ``game`` (its reason stored)."""

chat_posted = Signal()
"""Inside the transaction that stores a chat ``message`` (``games.chat.post``)."""

challenge_changed = Signal()
"""Inside the transaction of a challenge's change: ``challenge``, made (pending) or answered
(``games.challenges``, or ``games.services`` when its game is cancelled or a player leaves the
site)."""

notifications_written = Signal()
"""After commit: outbox rows ``ids`` wait for delivery."""

move_applied = Signal()
"""A move (and any forced moves after it) was stored: ``game_id``, ``version``, ``by_ai``, and
``ai_to_act`` (an AI seat is to act now)."""

game_started = Signal()
"""A game filled up and started: ``game_id``."""
