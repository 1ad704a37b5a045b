#!/usr/bin/env bash
# The executable under a memory cap (`ulimit -v`, issue 19): large or endless input ends in an
# exit code and a sentence, never a signal, and a large file fits the bound docs/cli.md states
# ("Limits"). Usage: memory_capped.sh GPUSCHED WORK_DIR
set -u
gpusched=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# capped CAP_KIB CODE TEXT ARGS...: runs gpusched ARGS under CAP_KIB of address space and
# expects exit CODE with TEXT on stderr (or stdout).
capped() {
  local cap=$1 want=$2 text=$3
  shift 3
  (ulimit -v "$cap" && exec "$gpusched" "$@") >out.txt 2>err.txt
  local code=$?
  [ "$code" -lt 128 ] || fail "gpusched $* under $cap KiB: killed by signal $((code - 128))"
  [ "$code" = "$want" ] || fail "gpusched $* under $cap KiB: exit $code, not $want: $(head -c 300 err.txt)"
  grep -qF -- "$text" err.txt out.txt || fail "gpusched $* under $cap KiB: no \"$text\""
}

# A scenario of 10,000 pods and 200 nodes, about 3 MB, in YAML and in JSON.
awk 'BEGIN {
  print "name: big\ncluster:"
  for (i = 0; i < 200; i++)
    printf "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: node-%d\n  status:\n    allocatable:\n      cpu: \"64\"\n      memory: 512Gi\n      pods: \"110\"\n      nvidia.com/gpu: \"8\"\n", i
  for (i = 0; i < 10000; i++)
    printf "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: pod-%d\n    namespace: default\n    labels:\n      app: a%d\n  spec:\n    containers:\n    - name: main\n      image: busybox\n      resources:\n        requests:\n          cpu: 500m\n          memory: 1Gi\n", i, i % 10
}' >big.yaml
awk 'BEGIN {
  printf "{\"name\": \"big\", \"cluster\": ["
  for (i = 0; i < 200; i++)
    printf "%s{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"node-%d\"}, \"status\": {\"allocatable\": {\"cpu\": \"64\", \"memory\": \"512Gi\", \"pods\": \"110\", \"nvidia.com/gpu\": \"8\"}}}\n", (i ? ", " : ""), i
  for (i = 0; i < 10000; i++)
    printf ", {\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"pod-%d\", \"namespace\": \"default\", \"labels\": {\"app\": \"a%d\"}}, \"spec\": {\"containers\": [{\"name\": \"main\", \"image\": \"busybox\", \"resources\": {\"requests\": {\"cpu\": \"500m\", \"memory\": \"1Gi\"}}}]}}\n", i, i % 10
  print "]}"
}' >big.json

# One pod whose node affinity lists 400,000 short values (about 2 MB): each value used to cost
# ~1.4 KB while the list was read.
for syntax in json yaml; do
  awk -v syntax=$syntax 'BEGIN {
    printf "{\"name\": \"wide\", \"cluster\": [{\"apiVersion\": \"v1\", \"kind\": \"Pod\", "
    printf "\"metadata\": {\"name\": \"p\"}, \"spec\": {\"containers\": [{\"name\": \"c\"}], "
    printf "\"affinity\": {\"nodeAffinity\": {\"requiredDuringSchedulingIgnoredDuringExecution\": "
    printf "{\"nodeSelectorTerms\": [{\"matchExpressions\": [{\"key\": \"zone\", "
    printf "\"operator\": \"In\", \"values\": [\"0\""
    for (i = 1; i < 400000; i++) printf ",\"%d\"", i % 10
    print "]}]}]}}}}}]}"
  }' >wide.$syntax
done

# The documented bound (docs/cli.md, "Limits"): 30 times the input's size (80 for YAML flow
# collections, as wide.yaml is) beyond what the program needs without input (its code and
# libraries: 32 MiB of address space is ample).
for file in big.yaml big.json wide.yaml wide.json; do
  size_kib=$(($(wc -c <"$file") / 1024))
  factor=30
  [ "$file" = wide.yaml ] && factor=80
  capped $((32 * 1024 + factor * size_kib)) 0 "$file: ok (" validate "$file"
  # Under caps too small for it, memory runs out at different places: each time exit 3 and a
  # sentence (a YAML file used to abort while its partial tree was freed).
  for cap_mib in 24 32 40 48 56; do
    (ulimit -v $((cap_mib * 1024)) && exec "$gpusched" validate "$file") >out.txt 2>err.txt
    code=$?
    [ "$code" -lt 128 ] || fail "validate $file under $cap_mib MiB: killed by signal $((code - 128))"
    [ "$code" = 0 ] || [ "$code" = 3 ] || fail "validate $file under $cap_mib MiB: exit $code"
    [ "$code" = 0 ] || grep -qx "gpusched: out of memory" err.txt ||
      fail "validate $file under $cap_mib MiB: $(cat err.txt)"
  done
done

# A device and an endless pipe are read up to the 256 MiB limit, then refused.
too_large="file is larger than the limit of 256 MiB"
capped $((640 * 1024)) 2 "/dev/zero: $too_large" replay /dev/zero
mkfifo endless
yes >endless 2>/dev/null &
writer=$!
capped $((640 * 1024)) 2 "endless: $too_large" validate endless
wait "$writer"

# A clock that goes far (the largest duration) costs no more than one that does not.
cat >far.json <<'JSON'
{"name": "far", "timeline": [{"at": "2562047h", "apply":
  {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"}}}]}
JSON
cat >far-pool.json <<'JSON'
{"name": "far-pool", "nodePools": [{"count": 1, "provisioning": {"launchDelay": "2562047h"},
  "node": {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "p"},
           "status": {"allocatable": {"cpu": "1", "pods": "10"}}}}]}
JSON
for file in far.json far-pool.json; do
  for output in table json seam-csv; do
    capped $((64 * 1024)) 0 "" replay "$file" -o "$output" --html far.html
  done
done
echo "memory-capped runs: all ended with an exit code and a sentence"
