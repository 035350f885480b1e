"""``docs/engine.md`` lists every event the engine writes and every refusal code it raises."""

import re
from pathlib import Path

from games.engines.puerto_rico import REFUSALS

from .events import FIELDS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()


def table(heading: str) -> dict[str, str]:
    """First column → second column of the table under ``## heading``."""
    section = DOC.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| (.*?) \|", section, re.MULTILINE)
    return dict(rows)


def test_every_event_is_documented_with_its_fields():
    documented = table("The log")
    assert set(documented) == set(FIELDS)
    for kind, fields in documented.items():
        assert set(re.findall(r"`(\w+)`", fields)) == FIELDS[kind] - {"event"}, kind


def test_every_refusal_code_is_documented():
    assert set(table("Refusals")) == set(REFUSALS)
