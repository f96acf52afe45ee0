#!/usr/bin/env bash
# Our engine against the anchors' tuned_bucket (../shared/anchors) on every scenario of each
# Moving AI map in ../shared/movingai: for each map, ROUNDS interleaved rounds of the harness,
# `scen --jobs 1` (lower H, the default) and `scen --jobs 1 --ties lifo`, best of each kept,
# so a busy moment of a shared machine hits all three alike. Prints the README's table.
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

# Mean µs per query and M expansions/s from one `scen` summary line; fails unless every
# scenario was checked against its exact cost and none failed. (Called in a command
# substitution, which `set -e` does not reach: callers test its status.)
scen_mean() {
    local line n
    line=$("$ours" scen --jobs 1 "$@" | tail -1)
    n=$(sed -n 's/^\([0-9]*\) scenarios, 0 failed, \1 exact,.*/\1/p' <<<"$line")
    if [ -z "$n" ]; then
        echo "scen was not exact on every scenario: $line" >&2
        return 1
    fi
    sed -n 's/.*mean \([0-9.]*\) us\/query, \([0-9.]*\) M.*/\1 \2/p' <<<"$line"
}

min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b) ? a : b }'; }

echo "| map | ours µs/query (lower H) | ours µs/query (LIFO) | tuned_bucket µs/query | lower H / tuned | LIFO / tuned | our M expansions/s |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for map in "${maps[@]}"; do
    scen=../shared/movingai/$map.map.scen
    best_low=inf best_lifo=inf best_tuned=inf rate=0
    for _ in $(seq "$rounds"); do
        tuned=$("$anchors" all --maps "$map" --only tuned_bucket --scen-max 0 --cap 60 |
            awk -v m="mai:$map" '/^== / { cur = ($2 == m) } cur && $1 == "tuned_bucket" { print $4 }')
        [ -n "$tuned" ] || { echo "no tuned_bucket figure for $map" >&2 && exit 1; }
        out=$(scen_mean "$scen") || exit 1
        read -r low low_rate <<<"$out"
        out=$(scen_mean --ties lifo "$scen") || exit 1
        read -r lifo _ <<<"$out"
        best_tuned=$(min "$tuned" "$best_tuned")
        best_lifo=$(min "$lifo" "$best_lifo")
        if [ "$(min "$low" "$best_low")" = "$low" ]; then
            best_low=$low rate=$low_rate
        fi
    done
    awk -v m="$map" -v l="$best_low" -v f="$best_lifo" -v t="$best_tuned" -v r="$rate" \
        'BEGIN { printf "| %s | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f |\n", m, l, f, t, l / t, f / t, r }'
done
