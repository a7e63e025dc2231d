#!/usr/bin/env bash
# A real three-node OpenSearch 2.19.3 cluster on loopback, for the fault tests
# (tests/real_cluster_faults_test.ts): nodes n1, n2, n3 that can be killed (the whole process tree)
# and started again one by one.
#
#   real/cluster3.sh up              start the three nodes, wait for a green cluster, print the URLs
#   real/cluster3.sh down            stop every node (the whole process tree of each), keep the data
#   real/cluster3.sh kill NAME       kill -9 one node's whole process tree (n1, n2 or n3)
#   real/cluster3.sh start NAME      start one node again (on its old data) and wait until it answers
#   real/cluster3.sh restart NAME    kill, then start
#   real/cluster3.sh urls            print the node URLs, comma-separated (the CLUSTER3_URLS value)
#   real/cluster3.sh status          which nodes run, and the cluster's health
#   real/cluster3.sh clean           down, then remove the state folder
#
# Environment:
#   REAL_STATE       the state folder (default: .real-state in the repository); the cluster lives in
#                    $REAL_STATE/cluster3/: the unpacked distribution, one folder per node (config,
#                    data, logs, tmp), pid files n1.pid … and launcher logs n1.out …
#   CLUSTER3_HTTP    the first HTTP port (default 9240; the nodes take 9240, 9241, 9242)
#   CLUSTER3_TRANSPORT  the first transport port (default 9340)
#   CLUSTER3_HEAP    the heap of each node (default 512m)
#   OPENSEARCH_JAVA_HOME or JAVA17_HOME  a Java 17+ JDK (default: the system's Java 17, then JAVA_HOME)
#
# The distribution is org.opensearch.distribution.integ-test-zip:opensearch:2.19.3:zip, taken from
# the Maven cache (~/.m2) or fetched by Maven into it (three tries). OpenSearch refuses to run as
# root: when this script runs as root, the nodes run as uid/gid 65534 (setpriv) and their folders
# belong to that uid. Each node is started in its own session (setsid), so killing it kills its
# launcher and its JVM together.
set -euo pipefail

VERSION=2.19.3
COORDS="org.opensearch.distribution.integ-test-zip:opensearch:${VERSION}:zip"
here=$(cd "$(dirname "$0")/.." && pwd)
STATE=${REAL_STATE:-$here/.real-state}
mkdir -p "$STATE"
STATE=$(cd "$STATE" && pwd)
DIR="$STATE/cluster3"
HOME_DIR="$DIR/opensearch-$VERSION"
HTTP0=${CLUSTER3_HTTP:-9240}
TRANSPORT0=${CLUSTER3_TRANSPORT:-9340}
HEAP=${CLUSTER3_HEAP:-512m}
NODES=(n1 n2 n3)
CLUSTER=searchvisitor-faults

die() { echo "cluster3: $*" >&2; exit 1; }

index_of() {
  case "$1" in
    n1) echo 0 ;; n2) echo 1 ;; n3) echo 2 ;;
    *) die "unknown node '$1': use n1, n2 or n3" ;;
  esac
}
http_port() { echo $((HTTP0 + $(index_of "$1"))); }
transport_port() { echo $((TRANSPORT0 + $(index_of "$1"))); }
urls() {
  local out=() n
  for n in "${NODES[@]}"; do out+=("http://127.0.0.1:$(http_port "$n")"); done
  (IFS=,; echo "${out[*]}")
}

find_java() {
  local c
  for c in "${OPENSEARCH_JAVA_HOME:-}" "${JAVA17_HOME:-}" /usr/lib/jvm/java-17-openjdk-amd64 \
    /usr/lib/jvm/temurin-17-jdk-amd64 "${JAVA_HOME:-}" /usr/lib/jvm/temurin-21-jdk-amd64 \
    /usr/lib/jvm/temurin-25-jdk-amd64; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] || continue
    local major
    major=$("$c/bin/java" -version 2>&1 | sed -nE 's/.*version "([0-9]+).*/\1/p' | head -n 1)
    if [ -n "$major" ] && [ "$major" -ge 17 ]; then echo "$c"; return; fi
  done
  die "no Java 17 or later found: install openjdk-17-jdk-headless or set OPENSEARCH_JAVA_HOME"
}

find_zip() {
  local repo zip
  repo=$(mvn -q help:evaluate -Dexpression=settings.localRepository -DforceStdout 2>/dev/null ||
    true)
  [ -d "$repo" ] || repo="$HOME/.m2/repository"
  zip="$repo/org/opensearch/distribution/integ-test-zip/opensearch/$VERSION/opensearch-$VERSION.zip"
  if [ ! -f "$zip" ]; then
    command -v mvn >/dev/null || die "Maven (mvn) is missing: it fetches $COORDS"
    local try
    for try in 1 2 3; do
      if mvn -q -B dependency:get -Dartifact="$COORDS" -Dtransitive=false >&2; then break; fi
      echo "cluster3: fetching $COORDS failed (try $try of 3)" >&2
      sleep $((try * 5))
    done
    [ -f "$zip" ] || die "could not download $COORDS from Maven Central (see Maven's output above)"
  fi
  echo "$zip"
}

# Runs a command as the nodes' user: uid 65534 when we are root, ourselves otherwise.
as_node_user() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
  else
    "$@"
  fi
}

prepare() {
  if [ ! -x "$HOME_DIR/bin/opensearch" ]; then
    local zip
    zip=$(find_zip)
    mkdir -p "$DIR"
    rm -rf "$HOME_DIR.tmp" && mkdir -p "$HOME_DIR.tmp"
    unzip -q "$zip" -d "$HOME_DIR.tmp"
    mv "$HOME_DIR.tmp/opensearch-$VERSION" "$HOME_DIR" && rmdir "$HOME_DIR.tmp"
  fi
  local n
  for n in "${NODES[@]}"; do
    local nd="$DIR/$n"
    if [ ! -d "$nd/config" ]; then
      mkdir -p "$nd/data" "$nd/logs" "$nd/tmp"
      cp -r "$HOME_DIR/config" "$nd/config"
      # The JVM's own files (gc log, error file, heap dump) go to the node's folder, not the home.
      sed -i -e "s#logs/gc.log#$nd/logs/gc.log#" -e "s#logs/hs_err#$nd/logs/hs_err#" \
        -e "s#HeapDumpPath=data#HeapDumpPath=$nd/data#" -e '/^-Xm[sx]/d' "$nd/config/jvm.options"
    fi
  done
  if [ "$(id -u)" = 0 ]; then chown -R 65534:65534 "$DIR"; fi
}

pid_of() {
  local f="$DIR/$1.pid"
  [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && cat "$f"
}

start_node() {
  local n=$1 java
  index_of "$n" >/dev/null
  if pid_of "$n" >/dev/null; then echo "cluster3: $n runs already (pid $(pid_of "$n"))"; return; fi
  java=$(find_java)
  prepare
  local nd="$DIR/$n" seeds="" m
  for m in "${NODES[@]}"; do seeds+="${seeds:+,}127.0.0.1:$(transport_port "$m")"; done
  (
    cd "$HOME_DIR"
    export OPENSEARCH_JAVA_HOME="$java" OPENSEARCH_PATH_CONF="$nd/config" OPENSEARCH_TMPDIR="$nd/tmp"
    export OPENSEARCH_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP"
    unset JAVA_TOOL_OPTIONS JAVA_OPTS
    as_node_user setsid "$HOME_DIR/bin/opensearch" \
      -Ecluster.name=$CLUSTER -Enode.name="$n" -Enetwork.host=127.0.0.1 \
      -Ehttp.port="$(http_port "$n")" -Etransport.port="$(transport_port "$n")" \
      -Ediscovery.seed_hosts="$seeds" -Ecluster.initial_cluster_manager_nodes=n1,n2,n3 \
      -Epath.data="$nd/data" -Epath.logs="$nd/logs" \
      -Ecluster.routing.allocation.disk.threshold_enabled=false \
      -Eaction.auto_create_index=true \
      >"$DIR/$n.out" 2>&1 </dev/null &
    echo $! >"$DIR/$n.pid"
  )
  echo "cluster3: started $n (pid $(cat "$DIR/$n.pid"), http://127.0.0.1:$(http_port "$n"))"
}

# Every descendant of a pid, deepest first.
descendants() {
  local child
  for child in $(pgrep -P "$1" || true); do
    descendants "$child"
    echo "$child"
  done
}

kill_node() {
  local n=$1 pid
  index_of "$n" >/dev/null
  pid=$(pid_of "$n" || true)
  if [ -z "$pid" ]; then rm -f "$DIR/$n.pid"; echo "cluster3: $n is not running"; return; fi
  local tree
  tree="$(descendants "$pid") $pid"
  # The node's session (setsid made the launcher its leader), then any descendant that left it.
  kill -9 -- "-$pid" 2>/dev/null || true
  # shellcheck disable=SC2086
  kill -9 $tree 2>/dev/null || true
  local i
  for i in $(seq 1 100); do
    local alive=0 p
    for p in $tree; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  rm -f "$DIR/$n.pid"
  echo "cluster3: killed $n (pids $tree)"
}

wait_http() {
  local n=$1 port i
  port=$(http_port "$n")
  for i in $(seq 1 240); do
    if curl -fsS "http://127.0.0.1:$port/" >/dev/null 2>&1; then return 0; fi
    if ! pid_of "$n" >/dev/null; then
      echo "cluster3: $n exited while starting; its log:" >&2
      tail -n 60 "$DIR/$n.out" >&2 || true
      return 1
    fi
    sleep 0.5
  done
  echo "cluster3: $n did not answer on port $port within 120 s; its log:" >&2
  tail -n 60 "$DIR/$n.out" >&2 || true
  return 1
}

wait_green() {
  local port
  port=$(http_port "${1:-n1}")
  if ! curl -fsS "http://127.0.0.1:$port/_cluster/health?wait_for_status=green&wait_for_nodes=3&timeout=120s" \
    >/dev/null; then
    echo "cluster3: the cluster is not green with 3 nodes within 120 s" >&2
    curl -sS "http://127.0.0.1:$port/_cluster/health?pretty" >&2 || true
    return 1
  fi
}

case "${1:-}" in
  up)
    t0=$(date +%s)
    prepare
    for n in "${NODES[@]}"; do start_node "$n"; done
    for n in "${NODES[@]}"; do wait_http "$n" || { "$0" down; exit 1; }; done
    wait_green || { "$0" down; exit 1; }
    echo "cluster3: green with 3 nodes in $(($(date +%s) - t0)) s"
    echo "CLUSTER3_URLS=$(urls)"
    ;;
  down)
    for n in "${NODES[@]}"; do kill_node "$n"; done
    ;;
  kill | stop)
    [ -n "${2:-}" ] || die "usage: $0 kill NAME"
    kill_node "$2"
    ;;
  start)
    [ -n "${2:-}" ] || die "usage: $0 start NAME"
    start_node "$2"
    wait_http "$2"
    ;;
  restart)
    [ -n "${2:-}" ] || die "usage: $0 restart NAME"
    kill_node "$2"
    start_node "$2"
    wait_http "$2"
    ;;
  urls)
    urls
    ;;
  status)
    for n in "${NODES[@]}"; do
      if p=$(pid_of "$n"); then echo "$n: running (pid $p)"; else echo "$n: stopped"; fi
    done
    curl -sS "http://127.0.0.1:$HTTP0/_cat/health?v" 2>/dev/null || true
    ;;
  clean)
    "$0" down
    rm -rf "$DIR"
    ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
