#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each from a temporary copy of its seed corpus
# (docs/fuzzing.md): `run_fuzzers.sh BUILD_DIR SECONDS`, from the source tree's root. New inputs
# go to the temporary directory, never into the repository; a crash is kept as
# BUILD_DIR/crash-* and ends the run with libFuzzer's non-zero status.
set -euo pipefail
build=$1
seconds=$2
seeds=tests/fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # run TARGET CORPUS...: the first corpus is written to, the others only read
  "$build/$1" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -dict="$seeds/scenario.dict" -artifact_prefix="$build/" "${@:2}"
}

for pair in scenario:corpus scenario_yaml:corpus-yaml snapshot:corpus-snapshot \
  snapshot_yaml:corpus-snapshot-yaml; do
  target=${pair%%:*}
  corpus=${pair#*:}
  mkdir "$work/$target"
  run "gpusched_${target}_fuzzer" "$work/$target" "$seeds/$corpus"
done

# The CLI target's inputs are a byte choosing the command and the file's extension
# (cli_fuzzer.cpp: command = byte % 10, extension = byte / 10 % 4), then the file: every
# scenario seed for each command, as JSON (bytes 0-9) and YAML (10-19).
mkdir "$work/cli" "$work/cli-seeds"
for command in 0 1 2 3 4 5 6 7 8 9; do
  for seed in "$seeds"/corpus/*.json; do
    { printf "\\x$(printf %02x "$command")"; cat "$seed"; } >"$work/cli-seeds/$command-$(basename "$seed")"
  done
  for seed in "$seeds"/corpus-yaml/*.yaml; do
    { printf "\\x$(printf %02x $((command + 10)))"; cat "$seed"; } \
      >"$work/cli-seeds/$command-$(basename "$seed")"
  done
done
run gpusched_cli_fuzzer "$work/cli" "$work/cli-seeds"
