"""The platform's shape: it names no game (every game reaches the lobby, the pages, the API
and the AI through its ``GameSpec`` on the shelf, ``games.registry``, so a new game is a new
package and one line of ``PUERTO_GAMES``), and its modules import each other in layers, never
in a circle (what happens after a change hangs off ``games.signals``)."""

import ast
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


def imports_of(path: Path) -> set[str]:
    """The project modules ``path`` imports, at its top or inside a function alike."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                module = (ROOT / whole.replace(".", "/")).with_suffix(".py")
                found.add(whole if module.exists() else node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def module_graph() -> dict[str, set[str]]:
    paths = [p for app in ("games", "moderation", "accounts") for p in (ROOT / app).rglob("*.py")]
    names = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
        for p in paths
        if "migrations" not in p.parts
    }
    return {name: imports_of(path) & set(names) - {name} for name, path in names.items()}


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (its modules in order, the first again at the end), or none."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node not in done:
            for following in sorted(graph[node]):
                if found := visit(following, [*path, node]):
                    return found
            done.add(node)
        return []

    return next((found for start in sorted(graph) if (found := visit(start, []))), [])


def test_no_modules_of_the_site_import_each_other_in_a_circle():
    graph = module_graph()
    assert {"games.services", "games.notifications", "games.tasks", "games.clocks"} <= set(graph)
    assert cycle_in(graph) == []


def test_the_cycle_check_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycle_in(graph) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set()}) == []
