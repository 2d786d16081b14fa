# praetor_analysis: the two Quick start commands (see README.md).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: help demo test test-fast lint bench docs dashboard screenshots clean chromium mutants

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[viz,dev,sweep]'
	mkdir -p $(VENV)/etc/jupyter && cp share/jupyter/jupyter_nbconvert_config.json $(VENV)/etc/jupyter/
	touch $(STAMP)

# nbconvert's config in the venv: a plain `.venv/bin/jupyter nbconvert --to html` asks no CDN for require.js or
# MathJax (another Jupyter reads the same file with JUPYTER_CONFIG_PATH=share/jupyter)
NBCONFIG := $(VENV)/etc/jupyter/jupyter_nbconvert_config.json
$(NBCONFIG): share/jupyter/jupyter_nbconvert_config.json $(STAMP)
	mkdir -p $(dir $@) && cp $< $@

# Debian's Chromium for the browser tests of the report (no browser is ever downloaded by a test tool)
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
	      || echo "could not install chromium: the browser tests will be skipped"; \
	  else echo "chromium not installed: the browser tests will be skipped"; fi; }

## help: what each target does (these lines of the Makefile)
help:
	@sed -n 's/^## //p' $(firstword $(MAKEFILE_LIST))

## demo: set up and run the main job on the shipped default data (writes out/report.html)
demo: $(STAMP)
	mkdir -p out
	$(BIN)/praetor report -o out/report.html

## test: set up and run the whole test suite: over 7,500 tests, about 10 minutes on 2 idle cores (pytest-xdist)
test: $(STAMP) chromium
	$(BIN)/python -m pytest -q -n auto

## test-fast: the tests not marked slow: over 7,200 tests, about 3 minutes on 2 idle cores (slow: Monte Carlo
## oracles, fuzzing, the catalog-wide and roster-wide checks and the browser tests, each sampled here)
# --dist loadfile: each test file runs on one worker, so its module fixtures (a catalog read, a report written,
# the CLI's bad-input runs) are set up once, not once per worker (three such files: 58 -> 36 CPU-s); make test
# keeps the default (its slow files, fuzzing and Monte Carlo, are spread over the workers test by test)
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m "not slow"

## docs: the HTML gallery of the notebooks, executed with their figures (out/docs/index.html; offline)
docs: $(STAMP) $(NBCONFIG)
	$(BIN)/python scripts/build_docs.py --out out/docs

## dashboard: serve notebooks/dashboard.ipynb with Voila (a pre-heated kernel: plots within seconds; the project's
## page template, share/jupyter/voila/templates/praetor, asks no CDN for anything; plotly's widget bundle is copied
## into its static folder, so the page loads it as a file beside the widgets; plotly's JupyterLab extension, a second
## plotly.js the anywidget figures do not use, is not loaded)
dashboard: $(STAMP)
	$(BIN)/python -c "from pathlib import Path; from praetor_analysis.views.figures.widgets import install_bundle; \
	  install_bundle(Path('share/jupyter/voila/templates/praetor/static'))"
	JUPYTER_PATH=$(CURDIR)/share/jupyter $(BIN)/voila --template=praetor --preheat_kernel=True --pool_size=1 \
	  --VoilaConfiguration.extension_denylist=jupyterlab-plotly notebooks/dashboard.ipynb

## screenshots: remake docs/images/*.png (the report, the dashboard's tabs) in Debian's Chromium
screenshots: $(STAMP) chromium
	$(BIN)/python scripts/screenshots.py

## lint: ruff (lint and format check) and mypy (the whole package; see [tool.mypy] in pyproject.toml)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

## bench: the speed benchmarks (prints figures and ratios against a baseline)
bench: $(STAMP)
	$(BIN)/python bench/bench_batch.py
	$(BIN)/python bench/bench_door.py
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_catalog.py
	$(BIN)/python bench/bench_units.py
	$(BIN)/python bench/bench_barrage.py
	$(BIN)/python bench/bench_report.py
	$(BIN)/python bench/bench_matchup.py

## mutants: mutation testing of analysis/ and bsdata/ with mutmut (not in CI; hours for every module, so by
## default a sample: MUTANTS='praetor_analysis.analysis.fire_plan*' picks others; see docs/testing.md)
MUTANTS ?= praetor_analysis.analysis.fire_plan* praetor_analysis.analysis.per_point* \
	praetor_analysis.analysis.unit_ratings* praetor_analysis.bsdata.roster.* praetor_analysis.bsdata.roster_costs*
mutants: $(STAMP)
	$(BIN)/python -m pip install --quiet 'mutmut>=3.8,<4'
	$(BIN)/mutmut run --max-children 2 $(foreach m,$(MUTANTS),'$(m)')
	$(BIN)/mutmut results

clean:
	rm -rf $(VENV) build *.egg-info mutants
