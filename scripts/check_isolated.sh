#!/usr/bin/env bash
# `make check` with the real components hidden: nginx, Chromium, GNU Go, ffmpeg, espeak-ng, clang and node
# are bind-mounted over by a stub that fails, in a private mount namespace (needs root). A test
# that uses one of them without its marker fails here instead of silently slowing `make check`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "check_isolated.sh needs root (it bind-mounts in a private mount namespace)" >&2; exit 1; }
SERVICES=$(make -s -f Makefile print-services)
exec unshare --mount --propagation private bash -c '
  stub=$(mktemp)
  printf "#!/bin/sh\necho \"\$0 is hidden by check_isolated.sh: give the test that ran it its marker\" >&2\nexit 127\n" > "$stub"
  chmod 755 "$stub"
  for bin in /usr/sbin/nginx /usr/lib/chromium/chromium /usr/bin/chromium /usr/games/gnugo \
             /usr/bin/ffmpeg /usr/bin/ffprobe /usr/bin/espeak-ng /usr/bin/clang /usr/bin/node; do
    [ -e "$bin" ] && mount --bind "$stub" "$bin"
  done
  SOLOSHOP_PARITY_SCALE=0.5 .venv/bin/python -m pytest -q -n 2 -p no:cacheprovider -m "not ($1)" "${@:2}"
' check-isolated "$SERVICES" "$@"
