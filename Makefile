# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest browser speech fonts bench clean

# On a Raspberry Pi, picamera2 comes from apt, so the venv must see the system site-packages.
VENV_FLAGS := $(shell $(PYTHON) -c "import picamera2" >/dev/null 2>&1 && echo --system-site-packages)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The service unit's memory setting (systemd/pegpi.service): fewer malloc arenas for the threads.
run: $(STAMP)
	MALLOC_ARENA_MAX=2 $(BIN)/pegpi run

test: $(STAMP) lint typecheck browser speech fonts pytest

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest

# The symbol fonts some training designs print their pips with (npm packages, fetched once into
# ~/.cache/pegpi/fonts, or $$PEGPI_DATA/fonts): the renderer tests draw with them, training needs them.
fonts: $(STAMP)
	$(BIN)/python -c "from vision.render.suitfonts import fetch_all; fetch_all()"

# The phone-page tests drive a real headless Chromium (Debian's package, installed when missing).
browser:
	@bash tests/web/ensure_chromium.sh

# The spoken-count tests run Debian's espeak-ng and aplay (installed when missing, as the browser is).
speech:
	@bash tests/device/ensure_speech.sh

# Speed and memory, printed as figures (budgets in the README and ARCHITECTURE.md).
bench: $(STAMP)
	$(BIN)/pegpi bench cribbage-shows
	$(BIN)/pegpi bench recognition
	$(BIN)/pegpi bench vision
	$(BIN)/pegpi bench mat --paper A1
	$(BIN)/pegpi bench runtime
	$(BIN)/pegpi bench web

clean:
	rm -rf $(VENV) build *.egg-info
