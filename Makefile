# The two commands a learner needs: `make run` and `make test`. Both set up .venv on first use.
# `make run` installs only what running needs; `make test` adds the test tools. Both show pip's progress.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
JOBS ?= auto

.PHONY: run test test-fast margins validate bench catalogs catalogs-check clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "jittrainer needs Python 3.11 or newer; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	@echo "Installing jittrainer and what it needs to run (jax, textual, ...): about a minute the first time."
	$(BIN)/python -m pip install --progress-bar on -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	@echo "Installing jittrainer with its test tools."
	$(BIN)/python -m pip install --progress-bar on -e '.[dev]'
	touch $(RUN_STAMP) $(DEV_STAMP)

run: $(RUN_STAMP)
	$(BIN)/jittrainer

test: $(DEV_STAMP)
	$(BIN)/python -m pytest -n $(JOBS)

# Every right file against its exercise's tolerance on 200 seeds' inputs (the suite runs 8): ~11 min of CPU.
margins: $(DEV_STAMP)
	JITTRAINER_MARGIN_SEEDS=200 $(BIN)/python -m pytest tests/test_margins.py -n $(JOBS)

test-fast: $(DEV_STAMP)
	$(BIN)/python -m pytest -m "not worker" -n $(JOBS)

validate: $(RUN_STAMP)
	$(BIN)/jittrainer validate

bench: $(RUN_STAMP)
	$(BIN)/jittrainer bench

catalogs: $(DEV_STAMP)
	$(BIN)/python -m jittrainer.i18n.build

# Changes nothing; lists what is missing, fuzzy or stale (tests/test_catalogs.py runs the same check).
# `make catalogs --check` would not do this: make takes --check as an option of its own and runs `make catalogs`.
catalogs-check: $(DEV_STAMP)
	$(BIN)/python -m jittrainer.i18n.build --check

clean:
	rm -rf $(VENV) .pytest_cache build dist src/*.egg-info
