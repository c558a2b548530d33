#!/usr/bin/env bash
# Make sure a Debian package some tests need is installed (idempotent):
#   ensure_apt.sh REQUIRED PROGRAM PACKAGE...
# PROGRAM (a path, or a command on the PATH) tells whether it is there; if not, PACKAGE... are
# installed with apt when we may. Otherwise it says why, and the tests that need it skip, or,
# with REQUIRED=1 (as in CI), this fails.
set -u
required=$1 program=$2
shift 2
have() { [ -x "$program" ] || command -v "$program" >/dev/null 2>&1; }
missing() {
  echo "ensure_apt: $program is missing; $1" >&2
  [ "$required" = 1 ] && exit 1
  exit 0
}
have && exit 0
command -v apt-get >/dev/null 2>&1 || missing "no apt-get here: install $* yourself"
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  missing "run: sudo apt-get install -y $*"
fi
echo "ensure_apt: installing $* (once)" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq && $SUDO apt-get install -y -qq "$@" >/dev/null
have || missing "$* did not install"
exit 0
