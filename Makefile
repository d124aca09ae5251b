# The two commands a fresh machine needs: `make run` and `make test`.
# Each creates or updates the local virtual environment (.venv) first.
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test venv
venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test,manual]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/gptnt run --mission 3 --mode async

test: $(STAMP)
	$(VENV)/bin/python -m pytest -q
