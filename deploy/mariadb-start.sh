#!/usr/bin/env bash
# Starts a real MariaDB server (Debian's mariadb-server, run directly: no service manager, no Docker) with a data
# directory, socket and port of its own, and prints its JDBC URL (jdbc:mariadb://127.0.0.1:PORT/) on stdout.
#   deploy/mariadb-start.sh [DIR] [PORT]
#     DIR   where the data directory, socket, pid and log go (default work/mariadb; created; kept between runs)
#     PORT  the TCP port on 127.0.0.1 (default FLOWSQL_MARIADB_PORT, else a free port)
#   FLOWSQL_INSTALL_TOOLS=1 installs mariadb-server with apt-get when mariadbd is missing (.ci/run sets it).
# The server allows root only over its socket (DIR/mysqld.sock); create least-privilege users through it.
# Stop it with deploy/mariadb-stop.sh [DIR]. docs/DATABASE.md#mariadb
set -euo pipefail
say() { printf '[flowsql] %s\n' "$*" >&2; }
PROJECT_DIR="$(cd "$(dirname "$0")/.." && pwd)"
source "$PROJECT_DIR/deploy/lib.sh"
DIR="${1:-$PROJECT_DIR/work/mariadb}"
MARIADBD="$(command -v mariadbd || echo /usr/sbin/mariadbd)"
if [[ ! -x "$MARIADBD" ]]; then
  if [[ "${FLOWSQL_INSTALL_TOOLS:-0}" != 1 ]]; then
    say "mariadbd is missing (apt-get install mariadb-server, or rerun with FLOWSQL_INSTALL_TOOLS=1)"
    exit 3
  fi
  say "installing mariadb-server with apt-get ..."
  SUDO=""; [[ $(id -u) != 0 ]] && SUDO="sudo"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mariadb-server >&2 \
    || { $SUDO apt-get update >&2 && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mariadb-server >&2; }
  MARIADBD="$(command -v mariadbd || echo /usr/sbin/mariadbd)"
fi
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
if pid_alive "$DIR/mysqld.pid"; then
  echo "jdbc:mariadb://127.0.0.1:$(cat "$DIR/port")/"
  exit 0
fi
free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$(( 20000 + RANDOM % 40000 ))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return 0; }
  done
  return 1
}
PORT="${2:-${FLOWSQL_MARIADB_PORT:-$(free_port)}}"
USER_ARGS=(); [[ $(id -u) == 0 ]] && USER_ARGS=(--user=root)
if [[ ! -d "$DIR/data/mysql" ]]; then
  mariadb-install-db --no-defaults --datadir="$DIR/data" "${USER_ARGS[@]}" --skip-test-db \
    --auth-root-authentication-method=socket > "$DIR/install.log" 2>&1 || { say "mariadb-install-db failed: $DIR/install.log"; exit 1; }
fi
rm -f "$DIR/mysqld.sock"
mkdir -p "$DIR/nofiles"
# Table names case-insensitive (as SQLite's), text compared as PostgreSQL and SQLite compare it (binary, trailing
# spaces count: NO PAD), utf8mb4,
# a small buffer pool (one server per test class on shared machines), no binary log, nothing but 127.0.0.1.
"$MARIADBD" --no-defaults --datadir="$DIR/data" "${USER_ARGS[@]}" --port="$PORT" --bind-address=127.0.0.1 \
  --socket="$DIR/mysqld.sock" --pid-file="$DIR/mysqld.pid" --log-error="$DIR/error.log" --skip-log-bin \
  --skip-name-resolve --lower-case-table-names=1 --character-set-server=utf8mb4 --collation-server=utf8mb4_nopad_bin \
  --innodb-buffer-pool-size=64M --innodb-log-file-size=16M --performance-schema=OFF --secure-file-priv="$DIR/nofiles" \
  --local-infile=0 --max-connections=100 < /dev/null > /dev/null 2>&1 &
echo $! > "$DIR/mysqld.pid"
echo "$PORT" > "$DIR/port"
for _ in $(seq 1 300); do
  if [[ -S "$DIR/mysqld.sock" ]] && mariadb --no-defaults -S "$DIR/mysqld.sock" -uroot -e "SELECT 1" >/dev/null 2>&1; then
    echo "jdbc:mariadb://127.0.0.1:$PORT/"
    exit 0
  fi
  pid_alive "$DIR/mysqld.pid" || break
  sleep 0.1
done
say "MariaDB did not start; see $DIR/error.log"
tail -5 "$DIR/error.log" >&2 || true
exit 1
