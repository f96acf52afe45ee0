#!/usr/bin/env bash
# The first frame of a 1024x1024 level as a player meets it: `astar-rogue play LEVEL` in a
# fresh process on a 100x32 terminal (a tmux pane), timed from the exec to the first write
# of a whole frame to the terminal (a write of 1,000 bytes or more). In between: reading and
# checking the level, the terminal set up, every monster's first plan, the run's tape kept
# on disk, the frame drawn. The timestamps are the kernel's (perf's `sched_process_exec`
# and `sys_enter_write` tracepoints), so the process runs at full speed; strace slowed it by
# a third. Each level is the default cave of `astar-rogue generate --size 1024x1024 --seed S`
# (its 40 monsters, water and brush), made once in a scratch folder; the runs keep nothing
# (a scratch HOME). Prints, per seed, every run and the min / median / max in ms.
#
# Needs tmux and perf (with access to tracepoints: root, or kernel.perf_event_paranoid <= 1).
#
# usage: benches/first_frame.sh [RUNS] [SEED...]     (default: 9 runs, seeds 3 11 29)
#        BIN=path/to/astar-rogue benches/first_frame.sh ...   (another build, to compare)
set -euo pipefail
# A BIN given relative to where the script was run from.
if [ -n "${BIN:-}" ]; then
    BIN=$(realpath "$BIN")
fi
cd "$(dirname "$0")/.."

runs=${1:-9}
shift || true
seeds=("$@")
if [ ${#seeds[@]} -eq 0 ]; then
    seeds=(3 11 29)
fi
if [ -z "${BIN:-}" ]; then
    cargo build --quiet --release
    BIN="${CARGO_TARGET_DIR:-target}/release/astar-rogue"
fi
bin=$(realpath "$BIN")
scratch=$(mktemp -d)
# tmux's socket in the scratch folder, so that nothing is left behind.
tmx() { tmux -S "$scratch/tmux" "$@"; }
trap 'tmx kill-server 2>/dev/null || true; rm -rf "$scratch"' EXIT
# A session that outlives the runs, so that no run shares the machine with tmux starting.
tmx new-session -d -s keep -x 100 -y 32 "sleep 100000"
# The game keeps nothing of the user's and reads none of their settings: the data and
# settings folders are the scratch HOME's, and the settings file an empty one.
: > "$scratch/settings.toml"
game_env="env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u ASTAR_ROGUE_DATA HOME='$scratch/home' \
    ASTAR_ROGUE_CONFIG='$scratch/settings.toml'"

# Milliseconds from the exec to the first write of a whole frame, in a perf trace.
first_frame() {
    local start="" at fd count
    while read -r at fd count; do
        if [ "$fd" = exec ]; then
            start=$at
        elif [ -n "$start" ] && [ "$fd" = 0x00000001 ] && (( 16#${count#0x} >= 1000 )); then
            echo "$at $start" | awk '{ printf "%.1f\n", ($1 - $2) * 1000 }'
            return
        fi
    done < <(perf script -i "$1" 2>/dev/null | sed -n \
        -e 's/.* \([0-9.]*\): sched:sched_process_exec.*/\1 exec 0/p' \
        -e 's/.* \([0-9.]*\): syscalls:sys_enter_write: fd: \(0x[0-9a-f]*\), .*count: \(0x[0-9a-f]*\)/\1 \2 \3/p')
}

for seed in "${seeds[@]}"; do
    level="$scratch/cave$seed.txt"
    "$bin" generate --size 1024x1024 --seed "$seed" -o "$level" >/dev/null
    times=()
    for _ in $(seq "$runs"); do
        rm -rf "$scratch/home" "$scratch/trace"
        mkdir -p "$scratch/home"
        # The game waits for a key after its first frame: it is asked to quit (q, y) once
        # it has surely drawn, and perf writes its trace as the game ends.
        tmx new-session -d -s run -x 100 -y 32 \
            "sleep 0.3; $game_env perf record -q -o '$scratch/trace' \
             -e sched:sched_process_exec -e syscalls:sys_enter_write \
             '$bin' play '$level' --seed 1"
        sleep 3
        tmx send-keys -t run q
        sleep 0.3
        tmx send-keys -t run y
        for _ in $(seq 50); do
            tmx has-session -t run 2>/dev/null || break
            sleep 0.1
        done
        tmx kill-session -t run 2>/dev/null || true
        # The busy box that a slow start shows is a smaller write (about 700 bytes).
        ms=$(first_frame "$scratch/trace")
        if [ -z "$ms" ]; then
            echo "no first frame in the trace of seed $seed (is perf allowed to trace," \
                "and did the game quit on q, y?)" >&2
            exit 1
        fi
        times+=("$ms")
    done
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    count=$(printf '%s\n' "$sorted" | wc -l)
    echo "seed $seed: ${times[*]} ms; min / median / max $(echo "$sorted" | head -1) /" \
        "$(echo "$sorted" | sed -n "$(( (count + 1) / 2 ))p") / $(echo "$sorted" | tail -1) ms"
done
