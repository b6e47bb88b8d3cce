# Three commands each do all the set-up on a fresh machine with Python 3.11:
#   make book   - build the website in all three languages and print where it is
#   make pdf    - the same, plus the whole course as one PDF book per language
#   make test   - install what the tests need and run the whole test suite
# Python packages install into .venv. The few Debian packages they need besides
# (tools/system-packages.txt) are installed as root or with sudo, saying so first;
# where that is not possible, make stops before anything else, in one line that says how.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip --disable-pip-version-check -q
# Extra packages for the test run, e.g. TEST_EXTRAS=torch==2.13.0. Under CI=true (.ci/run) they are
# CI_EXTRAS, which make the torch parity tests run (mandatory there).
CI_EXTRAS := torch==2.13.0
IN_CI := $(filter 1 true True TRUE yes Yes YES,$(CI))
TEST_EXTRAS ?= $(if $(IN_CI),$(CI_EXTRAS))
# The Debian packages of tools/system-packages.txt: `make book`, `make pdf` and `make test` install
# what is missing (as root, or with sudo after saying what), or stop in one line that says how.
# SYSTEM_PACKAGES=skip goes on without them (their tests skip, except under CI=true).
SYSTEM_PACKAGES ?=
export SYSTEM_PACKAGES
# pytest arguments; e.g. `make test PYTEST_ARGS="tests/test_errors.py"`
PYTEST_ARGS ?=

# Arguments of the batch grader, e.g. `make grade GRADE_ARGS="submissions/ --group-by top --json report.json"`
# (`python -m grading --help` lists them; `python -m grading merge --help` for shard reports)
GRADE_ARGS ?=

# system-packages-test, system-packages-book, system-packages-pdf: see tools/system_packages.py
.PHONY: help venv dev test book pdf serve notebooks bench mutants grade wheel autograder clean

help:
	@echo "make venv       create .venv with what the book and the grader need"
	@echo "make dev        .venv plus what the tests and contributors need (once)"
	@echo "make book       build the site (zh, en, ru) into _build/site and print where it is"
	@echo "make pdf        the site plus one PDF book per language (_build/pdf, linked from every page)"
	@echo "make serve      serve the built site on http://127.0.0.1:8000"
	@echo "make test       install what the tests need (Debian packages, .venv) and run the whole test suite"
	@echo "make notebooks  regenerate every notebook from src/; execute the section and solution ones"
	@echo "make bench      attention vs torch SDPA, KV-cache speedup, decoder, grading speed, notebook times (not part of the tests)"
	@echo "make mutants    put realistic bugs into lib one at a time; which lib test catches each (minutes)"
	@echo "make grade GRADE_ARGS=\"submissions/ --group-by top --json report.json --feedback feedback/\"   grade exercise notebooks"
	@echo "make wheel      build the course's package as a wheel into _build/dist (for learners and Gradescope)"
	@echo "make autograder NOTEBOOK=ex01_allowed_set   a ready Gradescope autograder (docs/instructors.md)"
	@echo "make clean      delete _build and .pytest_cache"

$(VENV)/.installed: requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed, found " + sys.version' 
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PIP) install -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed

dev: $(VENV)/.installed-dev
ifneq ($(strip $(TEST_EXTRAS)),)
	$(PIP) install $(TEST_EXTRAS)
endif

# The system's packages first, before the venv: where they cannot be installed, nothing else runs.
system-packages-%:
	@$(PYTHON) tools/system_packages.py $*

test: system-packages-test
	@$(MAKE) --no-print-directory dev
	$(PY) -m pytest $(PYTEST_ARGS)

notebooks: dev
	$(PY) tools/build_notebooks.py

bench: dev
	$(PY) bench/attention_cache.py
	$(PY) bench/decoder.py
	$(PY) bench/grading_speed.py --count 20 --starts 20 --fairness
	$(PY) bench/notebook_times.py

mutants: dev
	$(PY) tools/mutants.py

grade: venv
	$(PY) -m grading $(GRADE_ARGS)

# The course's package (lib and grading) as a wheel, for learners outside the repository
# (`%pip install "./causality_heads_position-<version>-py3-none-any.whl[learner]"`) and for Gradescope.
wheel: venv
	rm -f _build/dist/causality_heads_position-*.whl
	$(PY) -m pip wheel --no-deps --no-build-isolation --quiet --disable-pip-version-check -w _build/dist .
	@ls _build/dist/causality_heads_position-*.whl

# A Gradescope autograder for one assignment: make autograder NOTEBOOK=ex01_allowed_set
autograder: venv
	@test -n "$(NOTEBOOK)" || { echo "usage: make autograder NOTEBOOK=ex01_allowed_set" >&2; exit 2; }
	$(PY) tools/make_autograder.py --notebook $(NOTEBOOK)

book: system-packages-book
	@$(MAKE) --no-print-directory venv
	$(PY) tools/build_site.py

# The books are printed by Chromium (with the CJK fonts: tools/system-packages.txt) through
# Playwright, and bound by pypdf: both come with the test requirements.
pdf: system-packages-pdf
	@$(MAKE) --no-print-directory dev
	$(PY) tools/build_site.py
	$(PY) tools/build_pdf.py

serve: venv
	$(PY) tools/build_site.py --serve

clean:
	rm -rf _build .pytest_cache
