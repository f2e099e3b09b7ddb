#!/bin/sh
# `make bench`: wall time from starting `diloti play` to its first prompt.
# Standard input is empty, so the table leaves as soon as it has drawn the
# board and asked for a move: the run is the start-up. Median of N runs,
# next to the same measure of /bin/true: what merely starting a process
# costs on this machine (a few ms on bare metal, far more in some VMs).
bin=${1:-build/diloti}
n=${2:-11}
state=$(mktemp -d)

measure() {
  i=0
  while [ $i -lt "$n" ]; do
    s=$(date +%s%N)
    XDG_CONFIG_HOME="$state/none" XDG_STATE_HOME="$state" "$@" </dev/null >/dev/null
    e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
    i=$((i + 1))
  done | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f %.1f %.1f %d", a[int((NR + 1) / 2)] / 1000, a[1] / 1000, a[NR] / 1000, NR }'
}

set -- $(measure "$bin" play --ai random --seed 1) $(measure /bin/true)
printf "table start-up to the first prompt: median %s ms (min %s, max %s; %s runs); " "$1" "$2" "$3" "$4"
printf "starting /bin/true: median %s ms\n" "$5"
rm -rf "$state"
