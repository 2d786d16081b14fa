# praetor_analysis: the two Quick start commands (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[viz,dev]'
	touch $(STAMP)

## demo: set up and run the main job on the shipped default data
demo: $(STAMP)
	$(BIN)/praetor calc data/examples/autocannon_vs_legionaries.json

## test: set up and run the whole test suite
test: $(STAMP)
	$(BIN)/python -m pytest -q

## bench: the speed benchmarks (prints figures and ratios against a baseline)
bench: $(STAMP)
	$(BIN)/python bench/bench_engine.py

clean:
	rm -rf $(VENV) build *.egg-info
