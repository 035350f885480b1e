"""The worker's pool (``CELERY_WORKER_POOL``): Celery's prefork pool, acting on a task's time
limit only once the worker has read what the task's process already reported. (The module's name
keeps "prefork" in it: Celery's Django fixup recognises the prefork pool by that name.)

While the worker reconnects to the broker its event loop stands still (kombu retries in a
blocking loop): a task that finishes meanwhile leaves its result unread in the pipe, and its
time limit falls due. Back on the broker, the loop runs due timers before it reads the pipes, so
Celery would signal a process that finished long ago: the soft limit's ``SoftTimeLimitExceeded``
killed the idle process, a hard limit terminates it. Here a limit whose process has unread
messages waits until the loop has read them; a task that had finished is then no longer
pending, and its limit does nothing."""

from celery.concurrency import asynpool, prefork
from kombu.asynchronous import get_event_loop

UNREAD_RECHECK_SECONDS = 0.1
"""How soon a time limit is looked at again when its process still has messages to be read."""


class AsynPool(asynpool.AsynPool):
    """The pool of the event loop (on Redis), with time limits as above."""

    def _on_soft_timeout(self, job, soft, hard, hub):
        if job not in self._cache:
            return  # finished while its limit waited for the pipe to be read
        if self._has_unread_messages(job):
            hub.call_later(UNREAD_RECHECK_SECONDS, self._on_soft_timeout, job, soft, hard, hub)
        else:
            super()._on_soft_timeout(job, soft, hard, hub)

    def _on_hard_timeout(self, job):
        if self._has_unread_messages(job):
            get_event_loop().call_later(UNREAD_RECHECK_SECONDS, self._on_hard_timeout, job)
        else:
            super()._on_hard_timeout(job)

    def _has_unread_messages(self, job) -> bool:
        pending = self._cache.get(job)
        process = pending and self._process_by_pid(pending._worker_pid)[0]
        return bool(process) and process.outq._reader.poll(0)


class TaskPool(prefork.TaskPool):
    """The prefork pool with the time limits above (the threaded pool of the file-system broker
    in development reads results in a thread of its own and needs no change)."""

    Pool = AsynPool
