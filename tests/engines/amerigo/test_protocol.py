"""Amerigo is a registered engine offering the whole protocol the platform relies on."""

from games.engines import amerigo as am
from games.engines import get_engine
from games.engines.protocol import Engine


def test_registered_with_the_whole_protocol():
    engine = get_engine("amerigo")
    assert engine is am
    missing = [name for name in Engine.__annotations__ if not hasattr(engine, name)]
    missing += [
        name for name in vars(Engine) if not name.startswith("_") and not hasattr(engine, name)
    ]
    assert not missing
    assert engine.NAME == "amerigo"
