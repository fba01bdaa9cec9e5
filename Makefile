# One-command set-up: `make run` starts the bot (on Discord with a token, else the
# playground in a browser), `make test` runs every check.
# Both build .venv from the repo's own requirement files when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck pytest browser postgres bench catalogue clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-deps: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-deps: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.run-deps $@

# With DISCORD_TOKEN (environment or .env) this is `python bot.py`; without, the playground.
run: $(VENV)/.run-deps
	$(BIN)/python -m playground.launch

lint: $(VENV)/.dev-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev-deps
	$(BIN)/mypy --strict engine/ db/ cogs/ playground/ tools/ bot.py config.py bench/ tests/

# Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# the suite starts dozens of `python bot.py` processes and three pytest workers, and
# without __pycache__ each compiles the project and pytest re-rewrites every test module.
pytest: $(VENV)/.dev-deps browser postgres
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest

# The browser tests (tests/browser) drive the system's Chromium, never one Playwright
# downloads. As root on Debian/Ubuntu it is installed here, with a colour emoji font.
BROWSER_PACKAGES := chromium fonts-noto-color-emoji
browser:
	@if command -v chromium >/dev/null 2>&1 && { ! command -v dpkg >/dev/null 2>&1 || \
	    dpkg -s fonts-noto-color-emoji >/dev/null 2>&1; }; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing $(BROWSER_PACKAGES) for the browser tests (apt-get)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq $(BROWSER_PACKAGES) >/dev/null; \
	elif ! command -v chromium >/dev/null 2>&1; then \
	  echo "The browser tests need Chromium as 'chromium' on the PATH: install it (Debian/Ubuntu: sudo apt-get install chromium fonts-noto-color-emoji) and run make test again."; \
	  exit 1; \
	fi

# The database tests run every repository on a real PostgreSQL server too, which the
# suite starts itself (tests/postgres.py: initdb + pg_ctl in a temporary directory,
# a Unix socket, no TCP port). It needs Debian's package; as root it is installed here.
postgres:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; \
	then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing postgresql for the database tests (apt-get)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq postgresql >/dev/null; \
	else \
	  echo "The database tests need PostgreSQL's server binaries: install them (Debian/Ubuntu: sudo apt-get install postgresql) and run make test again."; \
	  exit 1; \
	fi

test: browser postgres lint typecheck pytest

bench: $(VENV)/.dev-deps
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/db.py
	$(BIN)/python bench/bot_load.py
	$(BIN)/python bench/table_memory.py
	$(BIN)/python bench/art.py

# Re-extract every player-facing string into cogs/uno/i18n/locales (docs/development.md, "Words").
catalogue: $(VENV)/.run-deps
	$(BIN)/python -m tools.catalogue

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
