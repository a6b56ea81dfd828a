# The two commands a newcomer needs: `make demo` (install + run the main job) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PASSWISE := $(VENV)/bin/passwise
export PASSWISE_HOME ?= $(CURDIR)/.passwise

.PHONY: demo test install lint

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[cpu,test]'
	touch $@

# The main job on the embedded default: index the offline corpus, then answer a question.
demo: install
	$(PASSWISE) index
	$(PASSWISE) search "why are global loads not vectorized after the coalesce pass" --k 5

test: install
	bash scripts/test.sh

lint: install
	$(VENV)/bin/ruff check .
