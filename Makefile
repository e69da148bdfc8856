# Two commands a user needs: `make run` and `make test`. Everything else is set up on the way.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8501
HOST ?= 127.0.0.1
# Extra arguments for the app, e.g. make run ARGS="--corpus /path/to/rules"
ARGS ?=
STREAMLIT_FLAGS := --server.headless true --browser.gatherUsageStats false \
	--server.address $(HOST) --server.port $(PORT) --client.toolbarMode minimal \
	--server.fileWatcherType none --server.maxUploadSize 20
# make bench QUESTIONS=path evaluates that question set alone (default: every tests/data/questions*.yaml).
QUESTIONS ?=

.PHONY: run test lint typecheck pytest bench venv deps dev-deps chromium postgresql lock clean

# The stamp files carry the lock file's checksum, so editing a lock reinstalls.
RUN_STAMP = $(VENV)/.deps-$(shell cat requirements.txt | md5sum | cut -c1-12)
DEV_STAMP = $(VENV)/.dev-deps-$(shell cat requirements.txt requirements-dev.txt | md5sum | cut -c1-12)

$(PY):
	@$(PYTHON) -m venv $(VENV) || { echo "Не удалось создать $(VENV). На Debian/Ubuntu установите: sudo apt install python3-venv"; exit 1; }
	@$(PY) -m pip install -q --upgrade pip

$(RUN_STAMP): | $(PY)
	@echo "Устанавливаю зависимости (requirements.txt)…"
	@$(PY) -m pip install -q -r requirements.txt
	@rm -f $(VENV)/.deps-* && touch $@

$(DEV_STAMP): $(RUN_STAMP)
	@echo "Устанавливаю инструменты тестирования (requirements-dev.txt)…"
	@$(PY) -m pip install -q -r requirements.txt -r requirements-dev.txt
	@rm -f $(VENV)/.dev-deps-* && touch $@

deps: $(RUN_STAMP)
dev-deps: $(DEV_STAMP)

run: deps
	@echo "Приложение: http://$(HOST):$(PORT)  (остановить: Ctrl+C)"
	@exec $(PY) -m streamlit run app.py $(STREAMLIT_FLAGS) -- $(ARGS)

# Browser tests need Debian's chromium; install it where apt is usable, otherwise the
# tests skip with a reason (under CI=true a missing chromium fails them instead).
chromium:
	@if [ -x /usr/bin/chromium ]; then :; \
	else $(call apt_install,chromium,браузерные тесты); fi

# $(call apt_install,PACKAGE,WHAT): install a Debian package as root or through sudo; where apt is
# not usable say that WHAT will be skipped (under CI=true those tests fail instead).
define apt_install
if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "Устанавливаю $(1): $(2)…"; \
		apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null \
		|| echo "$(1) не установился: $(2) будут пропущены (под CI — провалены)"; \
	elif command -v apt-get >/dev/null && sudo -n true 2>/dev/null; then \
		echo "Устанавливаю $(1): $(2) (sudo)…"; \
		sudo -n apt-get update -qq >/dev/null && sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null \
		|| echo "$(1) не установился: $(2) будут пропущены (под CI — провалены)"; \
	else echo "apt недоступен: $(2) будут пропущены (нужен пакет $(1))"; fi
endef

# The journal's tests start their own PostgreSQL server (Debian's postgresql package) in a
# temporary folder; install it where apt is usable, otherwise those tests skip with a reason
# (under CI=true a missing server fails them instead).
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	else $(call apt_install,postgresql,тесты журнала на PostgreSQL); fi

PACKAGES := storage rules_index lexicon rulings engine casebook cardbase desk app_pages app.py

lint: dev-deps
	$(PY) -m ruff check $(PACKAGES) tests
	$(PY) -m ruff format --check $(PACKAGES) tests

typecheck: dev-deps
	$(PY) -m mypy $(PACKAGES)

# The tests over every core (pytest-xdist), a whole file to one worker, so that a file's module
# fixtures (its browser, its app server) stay in one process; files go out in tests/conftest.py's
# order, the long ones first. PYTEST_JOBS=0: all in this process.
PYTEST_JOBS ?= auto
pytest: dev-deps chromium postgresql
	$(PY) -m pytest -n $(PYTEST_JOBS) --dist loadfile --no-loadscope-reorder

test: lint typecheck pytest

bench: dev-deps postgresql
	@for f in tests/bench/bench_*.py; do echo "== $$f"; QUESTIONS=$(QUESTIONS) $(PY) $$f || exit 1; done

# Regenerate the full locks from the direct lists (requirements.in, requirements-dev.in).
lock: | $(PY)
	$(PY) -m pip install -q pip-tools
	$(PY) -m piptools compile -q --strip-extras --no-emit-index-url --no-emit-find-links -o requirements.txt requirements.in
	$(PY) -m piptools compile -q --strip-extras --no-emit-index-url --no-emit-find-links -o requirements-dev.txt requirements-dev.in

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache tests/artifacts
