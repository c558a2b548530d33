#!/usr/bin/env bash
# Debian's chromium for the phone-page browser tests, installed when missing (see ../ensure_apt.sh);
# called by `make test`. Without it the browser tests skip, or fail with PEGPI_REQUIRE_BROWSER=1 (CI).
exec bash "$(dirname "$0")/../ensure_apt.sh" "${PEGPI_REQUIRE_BROWSER:-0}" /usr/bin/chromium chromium
