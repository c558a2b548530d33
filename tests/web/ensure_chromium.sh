#!/usr/bin/env bash
# Make sure Debian's chromium is installed for the phone-page browser tests (idempotent).
# Called by `make test`. Installs with apt when /usr/bin/chromium is missing and we may; otherwise
# says why, and the browser tests skip (or fail when PEGPI_REQUIRE_BROWSER=1, as in CI).
set -u
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure_chromium: no apt-get here; install Chromium yourself to run the browser tests" >&2
  [ "${PEGPI_REQUIRE_BROWSER:-0}" = 1 ] && exit 1
  exit 0
fi
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure_chromium: /usr/bin/chromium is missing; run: sudo apt-get install -y chromium" >&2
  [ "${PEGPI_REQUIRE_BROWSER:-0}" = 1 ] && exit 1
  exit 0
fi
echo "ensure_chromium: installing Debian's chromium (a few minutes, once)" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium >/dev/null
if [ ! -x /usr/bin/chromium ]; then
  echo "ensure_chromium: chromium did not install" >&2
  [ "${PEGPI_REQUIRE_BROWSER:-0}" = 1 ] && exit 1
fi
exit 0
