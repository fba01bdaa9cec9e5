# One-command set-up: `make run` starts the bot, `make test` runs every check.
# Both build .venv from the repo's own requirement files when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-deps: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-deps: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.run-deps $@

run: $(VENV)/.run-deps
	$(BIN)/python bot.py

lint: $(VENV)/.dev-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev-deps
	$(BIN)/mypy --strict engine/ db/ cogs/ playground/ bot.py config.py

pytest: $(VENV)/.dev-deps
	$(BIN)/python -m pytest

test: lint typecheck pytest

bench: $(VENV)/.dev-deps
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/db.py
	$(BIN)/python bench/bot_load.py
	$(BIN)/python bench/art.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
