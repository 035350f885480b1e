# puerto production image: one image for web, events, the workers and beat.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 1000 puerto
WORKDIR /app

# The dependencies first, exactly as locked (requirements.lock, with hashes: docs/operations.md
# says how to refresh it): this layer is built again only when the lock changes.
COPY pyproject.toml requirements.lock ./
RUN pip install --require-hashes -r requirements.lock

# Then the code (.dockerignore leaves out tests, benches, docs), owned by root and read-only to
# the user the site runs as. Editable, so every entry point (gunicorn, celery) imports the code
# from /app, next to the templates and static files the settings find there.
COPY . .
RUN pip install --no-deps -e .

# Static files are collected into the image; the key here only lets settings load. The var
# folder is the only place the site may write to.
RUN SECRET_KEY=collectstatic-only DEBUG=false PUERTO_VAR_DIR=/tmp/var \
    python manage.py collectstatic --noinput \
    && rm -rf /tmp/var \
    && mkdir -p /app/var \
    && chown puerto:puerto /app/var

USER puerto
EXPOSE 8000
CMD ["gunicorn", "puerto.wsgi", "--bind", "0.0.0.0:8000", "--access-logfile", "-"]
