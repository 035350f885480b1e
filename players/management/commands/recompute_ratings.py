"""Rate every rated game again, in the order they were rated, from newcomers' ratings."""

from django.core.management.base import BaseCommand

from players.models import Rating
from players.ratings import recompute


class Command(BaseCommand):
    help = "Recompute every rating from the stored results, and say which ones changed."

    def handle(self, *args, **options) -> None:
        before = {(r.ladder, r.user_id, r.ai_level): r.value for r in Rating.objects.all()}
        games = recompute()
        after = {(r.ladder, r.user_id, r.ai_level): r.value for r in Rating.objects.all()}
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        self.stdout.write(f"{games} rated games, {len(after)} ratings, {len(changed)} changed")
        for ladder, user_id, level in changed:
            who = f"user {user_id}" if user_id else f"AI {level}"
            old, new = before.get((ladder, user_id, level)), after.get((ladder, user_id, level))
            self.stdout.write(f"  {ladder} {who}: {old} -> {new}")
