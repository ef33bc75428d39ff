#!/usr/bin/env bash
# A Spark standalone cluster on loopback for the big jobs: one master and two workers started
# from the PySpark installation (scale/setup.sh's venv), each worker with its own cores, memory,
# work and log folders. Stops only what it started (the pids it recorded, and their children:
# the executors).
#
#   scale/cluster.sh up       # start (idempotent); waits until both workers are ALIVE
#   scale/cluster.sh status   # what runs, and the master's view of its workers (exit 1: nothing)
#   scale/cluster.sh down     # stop what `up` started and wait until it is gone
#
# Environment: TIANWANG_CLUSTER_DIR (state: pid files, logs, work folders; default
# ~/.cache/tianwang/cluster), TIANWANG_CLUSTER_PORT (7077), TIANWANG_CLUSTER_UI_PORT (8080),
# TIANWANG_CLUSTER_WORKER_CORES (1), TIANWANG_CLUSTER_WORKER_MEMORY (1g),
# TIANWANG_SPARK_PYTHON (the python with pyspark; default the venv scale/setup.sh makes).
# The jobs then take `--engine spark --cluster spark://127.0.0.1:7077`.
set -euo pipefail
state="${TIANWANG_CLUSTER_DIR:-$HOME/.cache/tianwang/cluster}"
port="${TIANWANG_CLUSTER_PORT:-7077}"
ui="${TIANWANG_CLUSTER_UI_PORT:-8080}"
cores="${TIANWANG_CLUSTER_WORKER_CORES:-1}"
memory="${TIANWANG_CLUSTER_WORKER_MEMORY:-1g}"
workers=2
url="spark://127.0.0.1:$port"
die() { echo "scale/cluster.sh: error: $*" >&2; exit 1; }
say() { echo "scale/cluster.sh: $*" >&2; }

alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }
pid_of() { [ -f "$state/$1.pid" ] && cat "$state/$1.pid" || true; }
# A process's live children (any of its threads may have started them): a worker's are its
# executors (CoarseGrainedExecutorBackend).
children() {
    local c
    for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
        [ "$(awk '{print $3}' "/proc/$c/stat" 2>/dev/null)" = Z ] || [ ! -e "/proc/$c" ] || echo "$c"
    done
}

spark_class() {
    local py="${TIANWANG_SPARK_PYTHON:-$HOME/.cache/tianwang/spark-venv/bin/python}"
    command -v java >/dev/null || die "java not found: install openjdk-17-jre-headless"
    [ -x "$py" ] || py=$(command -v python3 || true)
    [ -n "$py" ] || die "no python: run scale/setup.sh"
    local home
    home=$("$py" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))' 2>/dev/null) \
        || die "$py has no pyspark: run scale/setup.sh (or set TIANWANG_SPARK_PYTHON)"
    [ -x "$home/bin/spark-class" ] || die "no spark-class in $home/bin"
    export SPARK_HOME="$home"
    echo "$home/bin/spark-class"
}

# The master's JSON (its web UI): the number of ALIVE workers, or nothing if it does not answer.
alive_workers() {
    local py="${TIANWANG_SPARK_PYTHON:-$HOME/.cache/tianwang/spark-venv/bin/python}"
    [ -x "$py" ] || py=python3
    "$py" - "$ui" <<'EOF' 2>/dev/null || true
import json, sys, urllib.request
try:
    with urllib.request.urlopen("http://127.0.0.1:%s/json/" % sys.argv[1], timeout=2) as r:
        v = json.load(r)
except Exception:
    sys.exit(0)
print(sum(1 for w in v.get("workers", []) if w.get("state") == "ALIVE"))
EOF
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() { # name, log folder, class, args…
    local name="$1" logdir="$2"
    shift 2
    mkdir -p "$logdir"
    # spark-class execs java, so the recorded pid is the JVM's.
    setsid nohup "$sc" "$@" >"$logdir/$name.out" 2>&1 </dev/null &
    echo $! >"$state/$name.pid"
}

up() {
    sc=$(spark_class)
    mkdir -p "$state"
    export SPARK_LOCAL_IP=127.0.0.1 SPARK_MASTER_HOST=127.0.0.1
    # Spark's own daemons read these; keep a user's SPARK_CONF_DIR out of this cluster.
    export SPARK_CONF_DIR="$state/conf" SPARK_NO_DAEMONIZE=1
    mkdir -p "$SPARK_CONF_DIR"
    local m
    m=$(pid_of master)
    if alive "$m"; then
        say "master already running (pid $m)"
    else
        port_busy "$port" && die "port $port is taken by another program: set TIANWANG_CLUSTER_PORT"
        port_busy "$ui" && die "port $ui is taken by another program: set TIANWANG_CLUSTER_UI_PORT"
        start master "$state/master/logs" org.apache.spark.deploy.master.Master \
            --host 127.0.0.1 --port "$port" --webui-port "$ui"
        say "master started (pid $(pid_of master)), logs in $state/master/logs"
    fi
    # The master must listen before the workers register.
    local i
    for i in $(seq 1 60); do
        port_busy "$port" && break
        alive "$(pid_of master)" || die "the master exited: see $state/master/logs/master.out"
        sleep 1
    done
    port_busy "$port" || die "the master does not listen on $port after 60 s: see $state/master/logs"
    local n w
    for n in $(seq 1 "$workers"); do
        w=$(pid_of "worker$n")
        if alive "$w"; then
            say "worker$n already running (pid $w)"
            continue
        fi
        mkdir -p "$state/worker$n/work"
        SPARK_WORKER_DIR="$state/worker$n/work" start "worker$n" "$state/worker$n/logs" \
            org.apache.spark.deploy.worker.Worker --host 127.0.0.1 \
            --port $((port + n)) --webui-port $((ui + n)) \
            --cores "$cores" --memory "$memory" --work-dir "$state/worker$n/work" "$url"
        say "worker$n started (pid $(pid_of "worker$n"), $cores core, $memory), logs in $state/worker$n/logs"
    done
    for i in $(seq 1 60); do
        [ "$(alive_workers)" = "$workers" ] && {
            echo "$url"
            return 0
        }
        for n in master $(seq -f 'worker%g' 1 "$workers"); do
            alive "$(pid_of "$n")" || die "$n exited: see its logs under $state"
        done
        sleep 1
    done
    die "fewer than $workers ALIVE workers after 60 s (master JSON on port $ui): see $state/*/logs"
}

down() {
    [ -d "$state" ] || { say "nothing recorded in $state"; return 0; }
    local pids=() n p c
    for n in worker2 worker1 master; do
        p=$(pid_of "$n")
        if alive "$p"; then
            for c in $(children "$p"); do pids+=("$c"); done
            pids+=("$p")
        fi
    done
    if [ "${#pids[@]}" -gt 0 ]; then
        kill "${pids[@]}" 2>/dev/null || true
        local i left
        for i in $(seq 1 30); do
            left=()
            for p in "${pids[@]}"; do alive "$p" && left+=("$p"); done
            [ "${#left[@]}" -eq 0 ] && break
            sleep 1
        done
        if [ "${#left[@]}" -gt 0 ]; then
            say "still running after 30 s, killing: ${left[*]}"
            kill -9 "${left[@]}" 2>/dev/null || true
            sleep 1
        fi
    fi
    rm -f "$state"/master.pid "$state"/worker*.pid
    say "stopped (${#pids[@]} processes)"
}

status() {
    local n p c running=0
    for n in master $(seq -f 'worker%g' 1 "$workers"); do
        p=$(pid_of "$n")
        if alive "$p"; then
            running=$((running + 1))
            echo "$n: running, pid $p$(for c in $(children "$p"); do printf ', executor pid %s' "$c"; done)"
        else
            echo "$n: not running"
        fi
    done
    local a
    a=$(alive_workers)
    if [ -n "$a" ]; then
        echo "master $url: $a ALIVE workers (web UI http://127.0.0.1:$ui)"
    else
        echo "master $url: does not answer"
    fi
    [ "$running" -gt 0 ]
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    status) status ;;
    *) die "usage: scale/cluster.sh up | down | status" ;;
esac
