#!/usr/bin/env bash
# Our engine against the anchors' tuned_bucket (../shared/anchors) on every scenario of each
# Moving AI map in ../shared/movingai: for each map, ROUNDS interleaved rounds of the harness,
# `scen --jobs 1` (A* under lower H, the default), `scen --jobs 1 --ties lifo` and
# `scen --jobs 1 --algorithm jps` (Jump Point Search, lower H), best of each kept, so a busy
# moment of a shared machine hits all four alike. Prints the run's date and the table of
# docs/benchmarks.md; a JPS figure marked "(A*)" is a map JPS hands over to A* (its straight
# runs are too short for jumping to pay), and says so in `scen`'s output.
#
# usage: benches/anchors.sh [ROUNDS] [MAP...]     (default: 5 rounds, all eleven maps)
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=${1:-5}
shift || true
maps=("$@")
if [ ${#maps[@]} -eq 0 ]; then
    for scen in ../shared/movingai/*.map.scen; do
        maps+=("$(basename "$scen" .map.scen)")
    done
fi

target=${CARGO_TARGET_DIR:-target}
CARGO_TARGET_DIR="$target/anchors" cargo build --quiet --release \
    --manifest-path ../shared/anchors/Cargo.toml
cargo build --quiet --release
anchors="$target/anchors/release/anchors"
ours="$target/release/astar-rogue"

# Every timed run on one core (the last, or ANCHORS_CPU; ANCHORS_CPU=none leaves them to the
# scheduler) when taskset is there, so that no side is moved between cores mid-run: on this
# 2-core machine, unpinned, LIFO / tuned_bucket ranged over 0.76 to 1.08 in one run of seven
# maps and 0.76 to 0.91 pinned minutes later (docs/benchmarks.md).
pin=()
cpu=${ANCHORS_CPU:-$(($(nproc) - 1))}
if [ "$cpu" != none ] && command -v taskset >/dev/null; then
    pin=(taskset -c "$cpu")
fi

# Mean µs per query, M expansions/s and whether JPS handed the map over to A* (1 or 0), from
# one `scen` run; fails unless every scenario was checked against its exact cost and none
# failed. (Called in a command substitution, which `set -e` does not reach: callers test its
# status.)
scen_mean() {
    local out line n handed
    out=$("${pin[@]}" "$ours" scen --jobs 1 "$@")
    line=$(tail -1 <<<"$out")
    n=$(sed -n 's/^\([0-9]*\) scenarios, 0 failed, \1 exact,.*/\1/p' <<<"$line")
    if [ -z "$n" ]; then
        echo "scen was not exact on every scenario: $line" >&2
        return 1
    fi
    handed=0
    if grep -q "hands this map over to A\*" <<<"$out"; then handed=1; fi
    echo "$(sed -n 's/.*mean \([0-9.]*\) us\/query, \([0-9.]*\) M.*/\1 \2/p' <<<"$line") $handed"
}

min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b) ? a : b }'; }

echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC'), $rounds interleaved rounds, best of each kept."
echo
echo "| map | lower H µs/query | LIFO µs/query | JPS µs/query | tuned_bucket µs/query | lower H / tuned | LIFO / tuned | JPS / tuned | JPS / LIFO | A* M expansions/s |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for map in "${maps[@]}"; do
    scen=../shared/movingai/$map.map.scen
    best_low=inf best_lifo=inf best_jps=inf best_tuned=inf rate=0 handed=0
    for _ in $(seq "$rounds"); do
        tuned=$("${pin[@]}" "$anchors" all --maps "$map" --only tuned_bucket --scen-max 0 --cap 60 |
            awk -v m="mai:$map" '/^== / { cur = ($2 == m) } cur && $1 == "tuned_bucket" { print $4 }')
        [ -n "$tuned" ] || { echo "no tuned_bucket figure for $map" >&2 && exit 1; }
        out=$(scen_mean "$scen") || exit 1
        read -r low low_rate _ <<<"$out"
        out=$(scen_mean --ties lifo "$scen") || exit 1
        read -r lifo _ _ <<<"$out"
        out=$(scen_mean --algorithm jps "$scen") || exit 1
        read -r jps _ handed <<<"$out"
        best_tuned=$(min "$tuned" "$best_tuned")
        best_lifo=$(min "$lifo" "$best_lifo")
        best_jps=$(min "$jps" "$best_jps")
        if [ "$(min "$low" "$best_low")" = "$low" ]; then
            best_low=$low rate=$low_rate
        fi
    done
    awk -v m="$map" -v l="$best_low" -v f="$best_lifo" -v j="$best_jps" -v t="$best_tuned" \
        -v r="$rate" -v h="$handed" \
        'BEGIN { note = h ? " (A*)" : "";
                 printf "| %s | %.1f | %.1f | %.1f%s | %.1f | %.2f | %.2f | %.2f | %.2f | %.1f |\n",
                        m, l, f, j, note, t, l / t, f / t, j / t, j / f, r }'
done
