"""Hints run on the AI players' queue (a player waits for them as for an AI move); reviews on
the low-priority ``reviews`` queue, which a worker of its own serves."""

from celery import shared_task

from analysis import hints, reviews


@shared_task(ignore_result=True)
def answer_hint(hint_id: int) -> None:
    hints.answer(hint_id)


@shared_task(ignore_result=True)
def review_seat(review_id: int) -> None:
    """A few of the review's decisions; the rest in a fresh task, behind other reviews."""
    if reviews.review_some(review_id):
        review_seat.delay(review_id)
