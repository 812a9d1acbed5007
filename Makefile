# LLM-DataDist status codes: one catalog, every output generated from it.
#
#   make generate   regenerate every output from catalog/
#   make test       drift check of the committed outputs, then the test suite
#
# Both create .venv/ first when it is missing (or pyproject.toml changed).

SHELL := /bin/bash
PYTHON_BOOT ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: help venv generate check validate test docs serve bench clean

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): pyproject.toml
	@test -x $(PY) || { echo "creating $(VENV) with $(PYTHON_BOOT)"; $(PYTHON_BOOT) -m venv $(VENV); }
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[docs,test]'
	@touch $(STAMP)

venv: $(STAMP) ## create .venv/ with the pinned dependencies

generate: $(STAMP) ## regenerate every output from the catalog (a second run changes nothing)
	$(PY) -m generator generate

check: $(STAMP) ## fail when a committed output is stale, missing or orphaned; writes nothing
	$(PY) -m generator check

validate: $(STAMP) ## check the catalog only
	$(PY) -m generator validate

test: $(STAMP) ## drift check on the committed outputs, then the whole test suite
	$(PY) -m generator check
	scripts/ensure-browser
	$(PY) -m pytest $(PYTEST_ARGS)

docs: $(STAMP) ## build the site into site/build/
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --config-file site/mkdocs.yml

serve: $(STAMP) ## serve the site on http://127.0.0.1:8000/
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs serve --config-file site/mkdocs.yml

bench: $(STAMP) ## time validate, generate and check at 100, 1,000 and 10,000 codes
	$(PY) -m generator.bench

clean: ## remove the built site and caches (keeps .venv/)
	rm -rf site/build .pytest_cache .hypothesis
