"""A task the reliability tests load into their workers (``--include``): it runs until the test
lets it end, meeting its time limits on the way."""

import time
from pathlib import Path

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded


@shared_task(ignore_result=True)
def run_until_released(folder: str) -> None:
    """Write ``started`` into ``folder`` and run until the test writes ``released`` there; a soft
    time limit met meanwhile is noted as ``soft-limit`` (the task goes on, as the AI task plays
    a fallback move)."""
    folder = Path(folder)
    (folder / "started").touch()
    while not (folder / "released").exists():
        try:
            time.sleep(0.05)
        except SoftTimeLimitExceeded:
            (folder / "soft-limit").touch()
