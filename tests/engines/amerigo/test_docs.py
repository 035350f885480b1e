"""``docs/amerigo.md`` lists every event the engine writes (with its fields), every refusal
code, and every invented value of ``data.py``."""

import random
import re
from pathlib import Path

from games.engines import amerigo as am

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "amerigo.md").read_text()
RULES = (ROOT / "games" / "engines" / "amerigo" / "rules.py").read_text()
DATA = (ROOT / "games" / "engines" / "amerigo" / "data.py").read_text()


def table(heading: str) -> dict[str, str]:
    section = DOC.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\| `(\w+)` \| (.*?) \|", section, re.MULTILINE))


def test_every_event_is_documented_with_its_fields():
    documented = table("The log")
    assert set(documented) == set(re.findall(r'_emit\(\s*log,\s*"(\w+)"', RULES))
    seen: dict[str, set[str]] = {}
    for n in am.PLAYER_COUNTS:
        rng = random.Random(n)
        state = am.new_game(n, n)
        while not am.is_over(state):
            legal = am.legal_actions(state)
            log: list[dict] = []
            state = am.apply(state, legal[rng.randrange(len(legal))], log=log, inplace=True)
            for event in log:
                seen.setdefault(event["event"], set()).update(event)
    assert len(seen) > 15
    for kind, fields in seen.items():
        assert set(re.findall(r"`(\w+)`", documented[kind])) == fields - {"event"}, kind


def test_every_refusal_code_is_documented():
    assert set(table("Refusals")) == set(am.REFUSALS)


def test_every_approximation_is_listed():
    assert DATA.count("APPROXIMATION") >= 14
    section = DOC.split("## Invented values", 1)[1]
    for words in (
        "Island landscape",
        "Completion table",
        "Pirate markers",
        "Tracks",
        "Landscape tiles",
        "Village tiles",
        "Goods markers",
        "Progress markers",
    ):
        assert words in section
