# puerto production image: one image for web, worker and beat.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 1000 puerto
WORKDIR /app

# Editable, so every entry point (gunicorn, celery) imports the code from /app, next to the
# templates and static files the settings find there.
COPY . .
RUN pip install -e .

# Static files are collected into the image; the key here only lets settings load.
RUN SECRET_KEY=collectstatic-only DEBUG=false PUERTO_VAR_DIR=/tmp/var \
    python manage.py collectstatic --noinput \
    && chown -R puerto:puerto /app

USER puerto
EXPOSE 8000
CMD ["gunicorn", "puerto.wsgi", "--bind", "0.0.0.0:8000", "--access-logfile", "-"]
