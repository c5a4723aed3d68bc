# kortbord: the two commands of the README, and helpers for developers.
#   make run   -- set up (once) and start kortbord
#   make test  -- set up (once) and run the whole test suite (lint, types, tests)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run play-mulle play-cribbage test lint typecheck pytest bench bench-bots setup clean compiled clean-compiled

setup: $(STAMP)

# CribbageSim, the second outside Cribbage player (bench/cribbage_hoyleish.py): its packages declare Python >= 3.12
# though the code runs on 3.11, so they are installed past that check, pinned, without dependencies.
$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[server,postgres,research,reference,dev]'
	$(BIN)/python -m pip install --quiet --ignore-requires-python --no-deps \
		CribbageSim==1.0.2 HandsDecksCards==1.0.0 UserResponseCollector==1.1.0
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/kortbord serve

play-mulle: $(STAMP)
	$(BIN)/kortbord play mulle

play-cribbage: $(STAMP)
	$(BIN)/kortbord play cribbage

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples scripts
	$(BIN)/ruff format --check src tests bench examples scripts

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -n 2 -q

# one table: figure, kortbord, the peer measured in the same run, ratio, goal (issue #13), met or not; the
# detailed scripts (bench/cribbage_engine.py, mulle_engine.py, cribbage_scoring.py, table_load.py, vs_previous.py)
# run on their own
bench: $(STAMP)
	$(BIN)/python bench/engines.py

bench-bots: $(STAMP)
	$(BIN)/python bench/bots.py

# the optional compiled build of Mulle's fast core (issue #13 item 5): mypyc compiles src/kortbord/mulle/fast.py
# into extensions next to it (needs gcc and Python's headers); the package imports them in its place
# (kortbord.mulle.fast.COMPILED), KORTBORD_PURE=1 forces the source; make clean-compiled removes them.  In a git
# worktree that shares another checkout's venv: make compiled BIN=/that/.venv/bin STAMP=/dev/null (no setup step:
# /dev/null is filtered out, else its old time would re-run setup and re-point the venv's editable install here)
compiled: $(filter-out /dev/null,$(STAMP))
	cd src && $(abspath $(BIN))/mypyc --no-warn-unused-configs kortbord/mulle/fast.py
	# mypyc leaves the unchanged loader extension (fast.*.so) with its first build's time: mark the build fresh
	touch src/kortbord/mulle/fast.*.so src/kortbord/mulle/fast__mypyc.*.so

clean-compiled:
	rm -rf src/build src/kortbord/mulle/fast.*.so src/kortbord/mulle/fast__mypyc.*.so

clean: clean-compiled
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
