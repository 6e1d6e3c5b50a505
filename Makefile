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

.PHONY: run serve test install install-test migrate chromium bench bench-scale lock lock-upgrade clean check-scenarios

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

test: install-test chromium
	$(BIN)/python -m pytest -q --durations=15

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

check-scenarios: install
	@for f in scenarios/*.m44; do $(BIN)/python -m engine check "$$f" || exit 1; done

clean:
	rm -rf $(VENV) data .pytest_cache build
