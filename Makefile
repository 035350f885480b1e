# puerto: `make run` to play locally, `make test` to check everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HTMX_DIR := static/vendor/htmx
HTMX_VERSION ?= $(shell cat $(HTMX_DIR)/VERSION)

.PHONY: run test lint format bench bench-ai htmx clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## Serve on http://127.0.0.1:8000 together with a Celery worker (beat embedded).
run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py ensure_demo_admin
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho start --procfile Procfile.dev --env /dev/null

## Lint, then the whole test suite.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Run every bench/bench_*.py script in turn; each prints its own figures.
bench: $(STAMP)
	@set -e; for script in bench/bench_*.py; do \
		[ -e "$$script" ] || { echo "no benchmark scripts in bench/"; break; }; \
		echo "== $$script"; $(BIN)/python "$$script"; \
	done

## AI tournaments (about an hour on two cores): win rates of each level against the one below.
bench-ai: $(STAMP)
	$(BIN)/python bench/bench_ai.py

## Re-vendor htmx from the npm registry: `make htmx HTMX_VERSION=2.0.12` (VERSION records it).
htmx:
	rm -rf $(HTMX_DIR)/.pack && mkdir -p $(HTMX_DIR)/.pack
	cd $(HTMX_DIR)/.pack && npm pack --silent htmx.org@$(HTMX_VERSION) >/dev/null \
		&& tar xzf htmx.org-$(HTMX_VERSION).tgz
	cp $(HTMX_DIR)/.pack/package/dist/htmx.min.js $(HTMX_DIR)/htmx.min.js
	cp $(HTMX_DIR)/.pack/package/LICENSE $(HTMX_DIR)/LICENSE
	echo $(HTMX_VERSION) > $(HTMX_DIR)/VERSION
	rm -rf $(HTMX_DIR)/.pack

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
