#!/usr/bin/env bash
# scripts/citus.sh — a Citus cluster (a coordinator and two workers on loopback) for tests, CI and
# the bench, run by ../shared/citus/citus-setup.sh (Citus 13.2.2 against Debian's postgresql-15;
# AGPL-3.0, run as separate servers, never linked or copied into this project).
#
#   scripts/citus.sh install   build Citus once and cache its binaries, or install them from the cache
#   scripts/citus.sh start     install, then start the cluster; prints the coordinator URL on stdout
#   scripts/citus.sh stop      stop every node
#   scripts/citus.sh url       the coordinator URL (when it answers; exit 1 otherwise)
#   scripts/citus.sh stop-worker N [immediate|fast]   stop worker N (1 or 2; default immediate: no
#                              checkpoint, its connections cut, as a crash), leaving its data
#   scripts/citus.sh start-worker N                 start worker N again (after stop-worker)
#   scripts/citus.sh restart-worker N [SECONDS]     stop worker N (immediate), wait SECONDS (3), start it
#
# Tests that need Citus read MW_CITUS_URL (export MW_CITUS_URL=$(scripts/citus.sh start)) and skip,
# saying why, without it. Environment: MW_CITUS_DIR (default /var/cache/missionweave-citus: the
# build, the cached binaries, the nodes' data and logs), MW_CITUS_SETUP (the setup script,
# default ../shared/citus/citus-setup.sh), MW_CITUS_PORT (coordinator port, default 9700; workers
# the next two).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
SETUP="${MW_CITUS_SETUP:-$here/../shared/citus/citus-setup.sh}"
export WORKDIR="${MW_CITUS_DIR:-/var/cache/missionweave-citus}"
export BASE_PORT="${MW_CITUS_PORT:-9700}"
export N_WORKERS=2
export WITH_LLVM="${WITH_LLVM:-no}"
export CITUS_BIN_TARBALL="$WORKDIR/citus-13.2.2-pg15-bin.tar.gz"
PG_BIN=/usr/lib/postgresql/15/bin
URL="postgresql://postgres@127.0.0.1:$BASE_PORT/postgres"

say() { printf '[citus] %s\n' "$*" >&2; }
installed() { [ -f "$("$PG_BIN/pg_config" --pkglibdir 2>/dev/null)/citus.so" ]; }

install() {
  [ -x "$SETUP" ] || { say "no setup script at $SETUP"; exit 3; }
  [ -x "$PG_BIN/postgres" ] || { say "no PostgreSQL 15 at $PG_BIN (apt-get install postgresql-15)"; exit 3; }
  if installed; then return; fi
  [ "$(id -u)" = 0 ] || { say "Citus is not installed and installing it needs root"; exit 3; }
  mkdir -p "$WORKDIR"
  if [ -s "$CITUS_BIN_TARBALL" ]; then
    say "installing cached binaries $CITUS_BIN_TARBALL"
    "$SETUP" install-binaries
    installed && return
  fi
  say "building Citus (about 3 minutes on 2 cores): log in $WORKDIR/make.log"
  local started=$SECONDS
  # The setup script installs postgresql-server-dev-15 with its header files, which the cached
  # binaries never need again.
  "$SETUP" deps >"$WORKDIR/deps.log" 2>&1
  "$SETUP" build
  "$SETUP" package-binaries
  say "built in $((SECONDS - started)) s, cached as $CITUS_BIN_TARBALL"
}

# Worker N's data directory (the setup script's layout: $WORKDIR/data/n<port>), N in 1..N_WORKERS.
worker_dir() {
  case "${1:-}" in ''|*[!0-9]*) say "worker number expected (1..$N_WORKERS)"; exit 2 ;; esac
  [ "$1" -ge 1 ] && [ "$1" -le "$N_WORKERS" ] || { say "no worker $1 (1..$N_WORKERS)"; exit 2; }
  local dir="$WORKDIR/data/n$((BASE_PORT + $1))"
  [ -s "$dir/PG_VERSION" ] || { say "no data directory $dir (scripts/citus.sh start first)"; exit 3; }
  echo "$dir"
}
as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }
stop_worker() {
  local dir; dir=$(worker_dir "$1")
  as_postgres "$PG_BIN/pg_ctl" -D "$dir" -m "${2:-immediate}" -w -t 60 stop >&2
}
start_worker() {
  local dir; dir=$(worker_dir "$1")
  as_postgres "$PG_BIN/pg_ctl" -D "$dir" -l "$WORKDIR/log/pg-$((BASE_PORT + $1)).log" -w -t 60 start >&2
}

answers() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$BASE_PORT"; }

case "${1:-}" in
  install) install ;;
  start)
    install
    if answers; then say "already running"; else
      [ "$(id -u)" = 0 ] || [ "$(id -un)" = postgres ] || { say "starting the nodes needs root or the postgres user"; exit 3; }
      "$SETUP" start >&2
    fi
    echo "$URL" ;;
  stop) "$SETUP" stop ;;
  url) answers && echo "$URL" ;;
  stop-worker) stop_worker "${2:-}" "${3:-immediate}" ;;
  start-worker) start_worker "${2:-}" ;;
  restart-worker) stop_worker "${2:-}" immediate; sleep "${3:-3}"; start_worker "${2:-}" ;;
  *) echo "usage: $0 install|start|stop|url|stop-worker N [immediate|fast]|start-worker N|restart-worker N [SECONDS]" >&2; exit 2 ;;
esac
