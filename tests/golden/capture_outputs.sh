#!/usr/bin/env bash
# Captures every output a user sees from the bundled scenarios, so that a refactor can show it
# changed none of them: run it with the binary before and after, then `diff -r` the two folders.
#
#   tests/golden/capture_outputs.sh BUILD_BEFORE/gpusched /tmp/before
#   tests/golden/capture_outputs.sh build/release/gpusched /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
#
# Per scenario: `replay` in every --output form and --html, and `explain` (text with --members,
# and json) of every pod it leaves unscheduled, remedies included; then `check scenarios/` with
# its JUnit file, `validate`, the snapshot's `snapshot --to-scenario` and `whatif`, `plan`,
# `compare`, `sweep` and `import openb`. Each command's exit code and stderr are kept with its
# stdout.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 GPUSCHED_BINARY OUTPUT_DIR" >&2; exit 2; }
bin=$(realpath "$1")
out=$2
cd "$(dirname "$0")/../.."
mkdir -p "$out"
out=$(realpath "$out")

# run NAME CMD...: stdout to NAME, stderr to NAME.err, the exit code to NAME.rc.
run() {
  local name=$1
  shift
  "$@" >"$out/$name" 2>"$out/$name.err"
  echo $? >"$out/$name.rc"
}

mapfile -t scenarios < <("$bin" check scenarios/ 2>/dev/null | sed -n 's/^\(PASS\|FAIL\|ERROR\) \([^ ]*\).*/\2/p')
[ ${#scenarios[@]} -gt 0 ] || { echo "no scenarios listed by check" >&2; exit 1; }
for file in "${scenarios[@]}"; do
  name=$(echo "$file" | tr '/' '_')
  for form in table json metrics metrics-csv seam seam-csv pods-csv gpu-steps-csv; do
    run "$name.$form" "$bin" replay "$file" --output "$form"
  done
  run "$name.html-stdout" "$bin" replay "$file" --output json --html "$out/$name.html"
  # Every pod left unscheduled: pods-csv's phase column is the third.
  tail -n +2 "$out/$name.pods-csv" | awk -F, '$3 == "Pending" {print $1 "/" $2}' | while read -r pod; do
    pod_name=$(echo "$pod" | tr '/' '_')
    run "$name.explain.$pod_name.txt" "$bin" explain "$file" --pod "$pod" --members
    run "$name.explain.$pod_name.json" "$bin" explain "$file" --pod "$pod" --output json
  done
done
run check "$bin" check scenarios/ --junit "$out/check.junit.xml"
run validate "$bin" validate "${scenarios[@]}"
run snapshot "$bin" snapshot scenarios/snapshots/gpu-lab.json --to-scenario
run whatif "$bin" whatif --cluster scenarios/snapshots/gpu-lab.json \
  --add scenarios/manifests/training-job.yaml --output json
# The planning commands on the bundled scenarios and examples/planning/, and the openb import
# when the trace is next to the checkout (../shared/data/openb).
run plan "$bin" plan scenarios/gpu-fragmentation-spread.json --pool a100 --min 1 --max 6 \
  --objective 'wait.max<10m'
run plan-mix "$bin" plan scenarios/gpu-pool-mix.json --pool h100=0..4 --pool l4=0..6 \
  --objective pending==0 --output json
run compare "$bin" compare scenarios/gpu-fragmentation-spread.json \
  --config examples/planning/least-allocated.yaml --config examples/planning/most-allocated.yaml \
  --output csv
run sweep "$bin" sweep examples/planning/fragmentation-sweep.yaml
openb=$(realpath -m ../shared/data/openb)
if [ -f "$openb/openb_pod_list_default.csv" ]; then
  # From the output folder, so that the message names the same relative file in every capture.
  (cd "$out" && run import-openb "$bin" import openb "$openb/openb_node_list_all_node.csv" \
    "$openb/openb_pod_list_default.csv" --pools -o openb.json)
fi
echo "captured $(ls "$out" | wc -l) files from ${#scenarios[@]} scenarios in $out"
