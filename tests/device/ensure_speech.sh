#!/usr/bin/env bash
# espeak-ng and aplay for the spoken-count tests, installed when missing (see ../ensure_apt.sh);
# called by `make test`. Without them those tests skip, or this fails with PEGPI_REQUIRE_SPEECH=1 (CI).
exec bash "$(dirname "$0")/../ensure_apt.sh" "${PEGPI_REQUIRE_SPEECH:-0}" espeak-ng espeak-ng alsa-utils
