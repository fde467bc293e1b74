# Shared by the deploy/ scripts (sourced, not run): paths, build-if-needed, the cached Java classpath, JVM flags.
PROJECT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK_DIR="$PROJECT_DIR/work"
SHARED_DATA="${FLOWSQL_SHARED_DATA:-$PROJECT_DIR/../shared/data}"
# MVN may carry flags, e.g. MVN="mvn -o" for offline use.
MVN="${MVN:-mvn}"
mkdir -p "$WORK_DIR"

# Flags Flink needs on JDK 17 (the ones Flink's own scripts pass).
FLINK_JAVA_OPTS=(
  --add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED
  --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED
)
# Pekko's scheduler (under Flink's RPC timers) wakes every 10 ms by default, in each of a process's two actor systems
# (RPC and metrics), whether or not anything is due: about 6 ms of CPU per second each in an idle process. Flink's own
# timers are heartbeats and time-outs of seconds, so 100 ms ticks lose nothing (docs/MEASUREMENTS.md, "Idle cost").
FLINK_JAVA_OPTS+=("-Dpekko.scheduler.tick-duration=${FLOWSQL_PEKKO_TICK:-100ms}")
# FLOWSQL_JVM_OPTS: more flags for every JVM the cluster scripts start: JobManager, TaskManagers, the SQL client and
# also the short ones (BashJavaUtils' memory sums) and the HA ZooKeeper, as FLOWSQL_JVM_FLAGS (CI and the cluster tests
# pass the test JVMs' flags, C1 only and the serial GC, for less CPU in short runs; unset for anything measured or
# long-running).
# shellcheck disable=SC2206  # space-separated flags
FLOWSQL_JVM_FLAGS=(${FLOWSQL_JVM_OPTS:-})
FLINK_JAVA_OPTS+=("${FLOWSQL_JVM_FLAGS[@]}")
LOG_CONFIG="-Dlog4j2.configurationFile=$PROJECT_DIR/devstack/src/main/resources/flowsql-devstack-log4j2.properties"

log() { printf '[flowsql] %s\n' "$*" >&2; }

# Builds the modules (mvn package in the reactor: nothing is installed into the local Maven repository, which may be
# shared) when their classes are missing (FLOWSQL_REBUILD=1 forces it).
ensure_built() {
  if [[ "${FLOWSQL_REBUILD:-0}" == 1 || ! -d "$PROJECT_DIR/job/target/classes/io/flowsql/job" \
        || ! -d "$PROJECT_DIR/config/target/classes/io/flowsql/config" \
        || ! -d "$PROJECT_DIR/devstack/target/classes/io/flowsql/devstack" \
        || ! -d "$PROJECT_DIR/benchmarks/target/classes/io/flowsql/benchmarks" \
        || ! -d "$PROJECT_DIR/console/target/classes/io/flowsql/console" ]]; then
    log "building (mvn -q -DskipTests package) ..."
    (cd "$PROJECT_DIR" && $MVN -B -q -DskipTests package) || { log "build failed"; return 1; }
  fi
}

# Prints the runtime classpath of a module ($1, default job: all scopes, so Flink, the broker and the simulator
# are included), cached in work/<module>.classpath and refreshed when a pom changes. The project's own modules are
# taken from the reactor (their target/classes), never from the local Maven repository.
# FLOWSQL_JOB_CLASSPATH, when set, is the job module's classpath as it is (nothing resolved): e.g. a test's own, whose
# Maven build runs beside it in this checkout.
project_classpath() {
  local module="${1:-job}"
  if [[ "$module" == job && -n "${FLOWSQL_JOB_CLASSPATH:-}" ]]; then printf '%s' "$FLOWSQL_JOB_CLASSPATH"; return 0; fi
  local cache="$WORK_DIR/$module.classpath"
  local stale=0
  if [[ ! -s "$cache" ]]; then stale=1
  elif [[ -n "$(find "$PROJECT_DIR" -maxdepth 2 -name pom.xml -newer "$cache" -print -quit)" ]]; then stale=1
  fi
  if [[ $stale == 1 ]]; then
    log "resolving the classpath (cached in work/$module.classpath) ..."
    rm -f "$cache"
    # console and benchmarks test against the job's and udfs' test classes (test-jars): Maven's reactor hands those
    # out only once test-compile has run, so for them the phase is test-compile (else a clean ~/.m2 fails to resolve)
    local phase=compile
    [[ "$module" == console || "$module" == benchmarks ]] && phase=test-compile
    (cd "$PROJECT_DIR" && $MVN -B -q "$phase" dependency:build-classpath -pl "$module" -am -Dmdep.outputFile="$cache" >&2) \
      || { log "could not resolve the classpath"; return 1; }
  fi
  printf '%s:%s' "$PROJECT_DIR/$module/target/classes" "$(cat "$cache")"
}

# What /proc says of number $1: "<thread group> <parent's PID> <start, seconds since the epoch>"; fails when the
# number names nothing. A process's thread group is its own number; a thread's is its process's.
proc_identity() {
  local stat tgid
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  tgid="$(awk '$1 == "Tgid:" {print $2}' "/proc/$1/status" 2>/dev/null)" || return 1
  stat="${stat##*) }"   # the fields after the command name (which may hold spaces and parentheses): state, parent,
  # ...; the 20th is field 22, the start in clock ticks after boot
  awk -v tgid="$tgid" -v btime="$(awk '$1 == "btime" {print $2}' /proc/stat)" -v hz="$(getconf CLK_TCK)" \
    '{print tgid, $2, btime + int($20 / hz)}' <<< "$stat"
}

# True when the PID in file $1 still names the process the file was written for (docs/OPERATIONS.md#pid-files).
# PIDs and thread ids come from one pool that wraps around within minutes on a busy machine (pid_max 32768, and every
# JVM thread takes one): a stale file's number may by then name another program's process or one of its threads, and
# kill on a thread's id signals its whole process. So the number must name a process (its own thread group), started
# no later than the file was written. Without /proc (macOS) only kill -0 is asked.
pid_alive() {
  [[ -s "$1" ]] || return 1
  local pid tgid parent started
  pid="$(tr -d '[:space:]' < "$1")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  [[ -d /proc/self ]] || return 0
  read -r tgid parent started < <(proc_identity "$pid") || return 1
  [[ "$tgid" == "$pid" ]] && (( started <= $(stat -c %Y "$1") + 2 ))
}

# True while $1, the PID of a process this shell started in the background ($!), still names that process: a process
# of its own whose parent is this shell ($2 when given, e.g. $$ from a subshell). Once the child has ended (and the
# shell has reaped it) its number is free and may name another program's process or thread, which a later kill must
# not reach.
child_alive() {
  local expected_parent="${2:-$BASHPID}" tgid parent started
  [[ "$1" =~ ^[0-9]+$ ]] && kill -0 "$1" 2>/dev/null || return 1
  [[ -d /proc/self ]] || return 0
  read -r tgid parent started < <(proc_identity "$1") || return 1
  [[ "$tgid" == "$1" && "$parent" == "$expected_parent" ]]
}

# Stops the process whose PID is in file $1 (TERM, then KILL after $2 seconds) and removes the file. Only the process
# the file was written for (pid_alive) is signalled, before and while waiting.
stop_pid_file() {
  local file="$1" grace="${2:-30}"
  if pid_alive "$file"; then
    local pid; pid="$(tr -d '[:space:]' < "$file")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 $((grace * 5))); do pid_alive "$file" || break; sleep 0.2; done
    if pid_alive "$file"; then kill -9 "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$file"
}
