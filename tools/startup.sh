#!/bin/sh
# `make bench`: wall time from starting `diloti play` to its first prompt.
# Standard input is empty, so the table leaves as soon as it has drawn the
# board and asked for a move: the run is the start-up. Median of N runs.
bin=${1:-build/diloti}
n=${2:-11}
state=$(mktemp -d)
i=0
while [ $i -lt "$n" ]; do
  s=$(date +%s%N)
  XDG_CONFIG_HOME="$state/none" XDG_STATE_HOME="$state" "$bin" play --ai random --seed 1 </dev/null >/dev/null
  e=$(date +%s%N)
  echo $(( (e - s) / 1000 ))
  i=$((i + 1))
done | sort -n | awk '{ a[NR] = $1 } END {
  printf "table start-up to the first prompt: median %.1f ms (min %.1f, max %.1f; %d runs)\n",
    a[int((NR + 1) / 2)] / 1000, a[1] / 1000, a[NR] / 1000, NR }'
rm -rf "$state"
