# Two commands matter: `make run` and `make test` (see README.md).
PY      ?= python3.11
VENV    := .venv
BIN     := $(VENV)/bin
HOST    ?= 127.0.0.1
PORT    ?= 8000
STAMP   := $(VENV)/.installed
TSTAMP  := $(VENV)/.installed-test

.PHONY: run test install install-test migrate chromium bench clean check-scenarios

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(TSTAMP): pyproject.toml $(STAMP)
	$(BIN)/pip install -q -e '.[test]'
	touch $@

install: $(STAMP)
install-test: $(TSTAMP)

migrate: $(STAMP)
	mkdir -p data
	$(BIN)/alembic upgrade head

run: migrate
	$(BIN)/uvicorn app.main:app --host $(HOST) --port $(PORT) --ws-max-size 1048576

# Debian's chromium for the Playwright browser tests (never a downloaded browser).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "installing Debian chromium"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "WARNING: could not install chromium; browser tests will be skipped"; \
	fi

test: install-test chromium
	$(BIN)/python -m pytest -q

bench: install
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/server_bench.py

check-scenarios: install
	@for f in ../shared/scenarios/m44/*.m44; do $(BIN)/python -m engine check "$$f" || exit 1; done

clean:
	rm -rf $(VENV) data .pytest_cache
