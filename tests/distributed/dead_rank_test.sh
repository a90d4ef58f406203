#!/bin/sh
# A rank that dies ends the run: mpirun sends SIGTERM to the others, and
# rank 0 writes what the last finished round knew and ends with exit code
# 3, within 5 s of the death; the job never hangs.
#   dead_rank_test.sh MPIEXEC PROBE RULESET
set -u
mpiexec=$1 probe=$2 ruleset=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
timeout 120 "$mpiexec" --oversubscribe -np 2 "$probe" "$ruleset" "$dir" 20000 >"$dir/out" 2>&1
code=$?
fail() { echo "dead_rank_test: $*"; cat "$dir/out"; exit 1; }
[ "$code" -ne 124 ] || fail "the job hung (timeout)"
[ "$code" -ne 0 ] || fail "mpirun exited 0 though a rank died"
[ -f "$dir/killed" ] || fail "rank 1 never killed itself (the search ended first?)"
[ ! -f "$dir/finished" ] || fail "rank 0 finished the search with a rank dead"
[ -f "$dir/partial" ] || fail "rank 0 wrote no partial report"
states=$(sed -n 's/^states //p' "$dir/partial")
[ "${states:-0}" -gt 0 ] || fail "the partial report has no states: $(cat "$dir/partial")"
killed=$(cat "$dir/killed")
at=$(sed -n 's/^at //p' "$dir/partial")
awk -v k="$killed" -v a="$at" 'BEGIN { exit !(a - k >= 0 && a - k <= 5) }' ||
  fail "the partial report came $(awk -v k="$killed" -v a="$at" 'BEGIN { print a - k }') s after the death"
echo "dead_rank_test: rank 1 died, rank 0 reported $states states $(awk -v k="$killed" -v a="$at" 'BEGIN { printf "%.2f", a - k }') s later (mpirun exit $code)"
