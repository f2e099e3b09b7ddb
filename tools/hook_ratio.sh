#!/bin/sh
# `make bench`: what a house rule's moves hook costs, as the ratio of
# `pilotta+no-contra` to plain `pilotta` through the Lua API (issue 29:
# at most 3). The two run by turns, N pairs, each pair on one core
# (taskset, when there is one): the cores of a VM may differ in speed and
# drift over minutes, and two medians taken minutes apart on whichever
# core the scheduler chose measured that drift as much as the hook.
bin=${1:-build/diloti}
n=${2:-5}
rounds=${3:-3000}
pin=""
core=${BENCH_CORE:-0}
if command -v taskset >/dev/null 2>&1 && taskset -c "$core" true 2>/dev/null; then pin="taskset -c $core"; fi

rate() { $pin "$bin" --rules "$1" bench --rounds "$rounds" | sed -n 's/.*: \([0-9]*\) rounds\/s.*/\1/p'; }

i=0
while [ $i -lt "$n" ]; do
  p=$(rate pilotta)
  h=$(rate pilotta+no-contra)
  echo "$p $h"
  i=$((i + 1))
done | awk -v n="$n" -v pin="${pin:+on one core}" '
  { p[NR] = $1; h[NR] = $2; r[NR] = $1 / $2 }
  function median(a, k,   i, j, t) {
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return a[int((k + 1) / 2)]
  }
  END {
    printf "pilotta+no-contra against pilotta, %d pairs run by turns%s: %.2f times slower (median of the pairs; rounds/s medians %.0f against %.0f)\n",
      NR, pin ? " " pin : "", median(r, NR), median(h, NR), median(p, NR)
  }'
