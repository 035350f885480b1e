# puerto: `make run` to play locally, `make test` to check everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HTMX_DIR := static/vendor/htmx
HTMX_VERSION ?= $(shell cat $(HTMX_DIR)/VERSION)
IDIOMORPH_DIR := static/vendor/idiomorph
IDIOMORPH_VERSION ?= $(shell cat $(IDIOMORPH_DIR)/VERSION)

.PHONY: run test lint format bench bench-ai htmx idiomorph clean

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

## Lint, then the whole test suite in two processes (tests/conftest.py says what each keeps apart).
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest -n 2 --dist loadgroup

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

# $(call vendor,package,version,dir,file in dist/): fetch a package from the npm registry and
# keep one file of it, its licence and its version.
define vendor
	rm -rf $(3)/.pack && mkdir -p $(3)/.pack
	cd $(3)/.pack && npm pack --silent $(1)@$(2) >/dev/null && tar xzf $(1)-$(2).tgz
	cp $(3)/.pack/package/dist/$(4) $(3)/$(4)
	cp $(3)/.pack/package/LICENSE $(3)/LICENSE
	echo $(2) > $(3)/VERSION
	rm -rf $(3)/.pack
endef

## Re-vendor htmx from the npm registry: `make htmx HTMX_VERSION=2.0.12` (VERSION records it).
htmx:
	$(call vendor,htmx.org,$(HTMX_VERSION),$(HTMX_DIR),htmx.min.js)

## Re-vendor idiomorph, htmx's morph swap: `make idiomorph IDIOMORPH_VERSION=0.8.0`.
idiomorph:
	$(call vendor,idiomorph,$(IDIOMORPH_VERSION),$(IDIOMORPH_DIR),idiomorph-ext.min.js)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
