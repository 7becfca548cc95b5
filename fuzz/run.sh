#!/usr/bin/env bash
# Runs the libFuzzer harnesses of fuzz/ for a bounded time each (default 60 s), starting from the
# seed corpus in fuzz/corpus and the corpus grown by earlier runs in BUILD/corpus-*. A crash, a
# sanitizer report, a leak, a timeout (10 s per input) or an out-of-memory (2 GiB) stops the
# harness: the input is saved as BUILD/artifacts/<kind>-<hash> and the script fails.
#
#   fuzz/run.sh [SECONDS] [BUILD]          e.g. fuzz/run.sh 3600 build-fuzz for an hour each
#   BUILD/fuzz_load_expr ARTIFACT          replays one input
set -euo pipefail
seconds=${1:-60}
build=${2:-build-fuzz}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$build/artifacts"
status=0
for harness in load_expr load_report; do
  corpus=${harness#load_}
  mkdir -p "$build/corpus-$corpus"
  echo "== fuzz_$harness for $seconds s (seed corpus fuzz/corpus/$corpus)"
  if ! "$build/fuzz_$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
      "$build/corpus-$corpus" "$here/corpus/$corpus" > "$build/fuzz_$harness.log" 2>&1; then
    status=1
    echo "fuzz_$harness FAILED: the end of $build/fuzz_$harness.log:"
    tail -n 60 "$build/fuzz_$harness.log"
  else
    grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units" "$build/fuzz_$harness.log" || true
  fi
done
exit $status
