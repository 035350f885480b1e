"""Create a demo administrator on a fresh database so a newcomer can sign in right away."""

import secrets

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the demo administrator if no superuser exists; print its password once."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username: str, **options):
        User = get_user_model()
        if User.objects.filter(is_superuser=True).exists():
            self.stdout.write("An administrator already exists; nothing to do.")
            return
        password = secrets.token_urlsafe(12)
        email = f"{username}@localhost"
        admin = User.objects.create_superuser(username=username, email=email, password=password)
        # Logging in on the site needs a verified address; this one is known good by fiat.
        EmailAddress.objects.create(user=admin, email=email, verified=True, primary=True)
        self.stdout.write(
            self.style.SUCCESS(
                f"Created demo administrator {username!r} with password {password!r}. "
                "It is shown only now; change it with `manage.py changepassword`."
            )
        )
