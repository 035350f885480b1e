"""WSGI entry point, served by gunicorn in production."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puerto.settings")

application = get_wsgi_application()

# The garbage collector's full passes walked every object the code and settings loaded, for
# the life of the process, and a request makes tens of thousands of short-lived objects, so it
# ran often: about 3 % of a request's CPU (docs/benchmarks.md). What is loaded by now stays
# for good and is left out of those passes; and the youngest generation is collected after
# 20,000 allocations rather than 700, still well within a request's memory.
gc.collect()
gc.freeze()
gc.set_threshold(20_000, 20, 100)
