"""The platform names no game: every game reaches the lobby, the pages, the API and the AI
through its ``GameSpec`` on the shelf (``games.registry``), so a new game is a new package and
one line of ``PUERTO_GAMES``."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from games.registry import shelf

ROOT = Path(settings.BASE_DIR)
PLATFORM = ["services.py", "models.py", "views.py", "forms.py", "urls.py", "api.py"]
SITE_TEMPLATES = sorted(ROOT.glob("templates/*.html")) + sorted(ROOT.glob("templates/games/*.html"))


def names_of_games() -> list[str]:
    names = set()
    for game in shelf():
        names |= {game.name, game.slug, str(game.title)}
    return sorted(names)


@pytest.mark.parametrize(
    "path", [ROOT / "games" / name for name in PLATFORM] + SITE_TEMPLATES, ids=str
)
def test_the_platform_names_no_game(path):
    text = path.read_text()
    found = [n for n in names_of_games() if re.search(re.escape(n), text, re.IGNORECASE)]
    assert not found, f"{path.relative_to(ROOT)} names {found}"


def test_the_check_knows_every_game_by_each_of_its_names():
    """Not a vacuous check: the shelf is read, and the site's templates are found."""
    assert names_of_games() == ["Amerigo", "Puerto Rico", "amerigo", "puerto-rico", "puerto_rico"]
    assert len(SITE_TEMPLATES) > 20
