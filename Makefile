# The two commands a newcomer needs: `make demo` (install + run the main job) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
PASSWISE := $(VENV)/bin/passwise
# One home for the demo and the CLI: the CLI's default ($PASSWISE_HOME, else ~/.passwise), so
# the README's commands after `make demo` read the index the demo built.

.PHONY: demo demo-full test install lint

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --no-cache-dir --upgrade pip
	$(PY) -m pip install --quiet --no-cache-dir -e '.[cpu,test]'
	touch $@

# The main job on the embedded default: index the offline corpus, answer a question with cited
# sources, then diagnose a bundled kernel (a softmax whose row stride is kept out of Triton's
# specialization, so its loads stay scalar), then one optimize round on the CPU: a GELU launched
# with 64-element blocks is diagnosed, its block size searched, each candidate verified, and the
# verified winner shown as a diff (timed in the Triton interpreter: not a GPU speed).
demo: install
	$(PASSWISE) index
	$(PASSWISE) search "why are global loads not vectorized after the coalesce pass" --k 5
	$(PASSWISE) diagnose softmax --candidate bench/defects/softmax-stride-do-not-specialize/slow.py
	$(PASSWISE) optimize gelu --candidate bench/defects/gelu-block-64/slow.py --device cpu \
		--rounds 1 --repeats 3 --max-tier 3

# The same with the compiler's own source: indexes triton-ascend (upstream Triton's C++ and the
# Ascend backend; needs network or PASSWISE_MIRRORS) and diagnoses a GEMM whose tile is too
# small for warp-group MMA, which climbs to tier 4 and cites the deciding compiler source.
demo-full: install
	$(PASSWISE) index --corpus default --corpus triton-ascend
	$(PASSWISE) diagnose gemm_fp16 --candidate bench/defects/gemm-blockm16-no-wgmma/slow.py

test: install
	bash scripts/test.sh

lint: install
	$(VENV)/bin/ruff check .
