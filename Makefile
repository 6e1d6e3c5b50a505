# Two commands matter: `make run` and `make test` (see README.md).
# Every install goes through scripts/install.sh (also the Docker image's and CI's): the
# dependencies pyproject.toml declares, at the versions of requirements.lock (server) or
# requirements-dev.lock (server + test + bench extras).  `make lock` refreshes both.
VENV    ?= .venv
BIN     := $(VENV)/bin
HOST    ?= 127.0.0.1
PORT    ?= 8000
STAMP   := $(VENV)/.installed
TSTAMP  := $(VENV)/.installed-test
UV      := uv==0.13.9
UVENV   := $(VENV)/lock-tool
export HOST PORT

.PHONY: run serve test lint install install-test migrate chromium axe bench bench-scale lock lock-upgrade clean check-scenarios messages

$(STAMP): requirements.lock pyproject.toml scripts/install.sh scripts/check_installed.py
	scripts/install.sh $(VENV) requirements.lock
	touch $@

$(TSTAMP): requirements-dev.lock $(STAMP)
	scripts/install.sh $(VENV) requirements-dev.lock test,bench
	touch $@

install: $(STAMP)
install-test: $(TSTAMP)

migrate: $(STAMP)
	$(BIN)/overlord-server migrate

# The one way to start the server (also the Docker image's CMD): migrate, then uvicorn
# with the project's flags (1 MiB websocket frames, proxy headers, WORKERS).
run serve: $(STAMP)
	$(BIN)/overlord-server serve

# Debian's chromium for the Playwright browser tests (never a downloaded browser).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "installing Debian chromium"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "WARNING: could not install chromium; browser tests will be skipped"; \
	fi

# axe-core (the accessibility audit of the browser tests, tests/e2e/test_a11y.py), a pinned
# version from the npm registry, into the venv (never from a CDN at test time).
AXE_VERSION := 4.10.3
AXE := $(VENV)/npm/node_modules/axe-core/axe.min.js
$(AXE):
	npm install --silent --no-save --no-audit --no-fund --prefix $(VENV)/npm axe-core@$(AXE_VERSION) \
	  || echo "WARNING: could not install axe-core; the accessibility audit will be skipped"
axe: $(AXE)

# ruff (rules and format in pyproject.toml), mypy --strict of engine/, mypy of app/
# (config in pyproject.toml [tool.mypy]); `make test` runs it first
lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict engine
	$(BIN)/mypy app

# on every core (pytest-xdist; each worker has its own servers, databases and browser)
test: install-test lint chromium axe
	$(BIN)/python -m pytest -q --durations=15 -n auto

bench: install-test
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/server_bench.py

# The Overlord scale benchmark needs only the runtime install (G games x 9 sockets, the
# server beside a bare websocket relay; docs/performance.md "Overlord scale"), then the
# in-process delivery benchmark (the worker's own Python per action).  G=20,50.
G ?= 20,50
bench-scale: $(STAMP)
	$(BIN)/python bench/overlord_scale.py --games $(G)
	$(BIN)/python bench/delivery_bench.py

# Re-resolve the lock files from pyproject.toml, keeping the pinned versions that still
# fit (`make lock-upgrade`: the newest allowed); resolved for Python 3.11+, every platform.
LOCKCMD = $(UVENV)/bin/uv pip compile --quiet --universal --python-version 3.11 \
          --custom-compile-command 'make lock'
lock lock-upgrade: $(UVENV)/bin/uv
	$(LOCKCMD) $(if $(filter lock-upgrade,$@),--upgrade) pyproject.toml -o requirements.lock
	$(LOCKCMD) $(if $(filter lock-upgrade,$@),--upgrade) pyproject.toml --extra test --extra bench \
	  -c requirements.lock -o requirements-dev.lock

$(UVENV)/bin/uv: | $(BIN)/python
	$(BIN)/python -m venv $(UVENV)
	$(UVENV)/bin/pip install -q $(UV)

# The translation catalogs (app/i18n.py): the names the server sends (app/i18n_terms.py,
# from the engine), the message template extracted from app/, templates/ and static/, and
# every language's catalog updated from it (new messages then need their translation:
# tests/app/test_i18n.py lists them).
messages: $(STAMP)
	$(BIN)/python scripts/i18n_terms.py > app/i18n_terms.py
	$(BIN)/pybabel -q extract -F babel.cfg -k t -k tn:1,2 -k N_ --no-location --sort-output \
	  --omit-header -o app/locales/messages.pot .
	$(BIN)/pybabel -q update -i app/locales/messages.pot -d app/locales -D messages \
	  --no-fuzzy-matching --ignore-obsolete --omit-header

check-scenarios: install
	@for f in scenarios/*.m44; do $(BIN)/python -m engine check "$$f" || exit 1; done

clean:
	rm -rf $(VENV) data .pytest_cache build
