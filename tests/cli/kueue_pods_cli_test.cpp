// Kueue's pod integration at the command line: what its pod webhook refuses ends the run with
// exit 2 at the field, and a pod group's replay reports Kueue's and kube-scheduler's texts.
#include <catch2/catch.hpp>

#include <string>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace gpusched {
namespace {

using test::run_cli;
using test::TempDir;

TEST_CASE("a pod group without its total count is refused by Kueue's pod webhook",
          "[cli][kueue][pod]") {
  const TempDir dir;
  const std::string scenario = dir.write("group.json", R"({
  "name": "group",
  "kueue": {"configuration": {"integrations": {"frameworks": ["batch/job", "pod"]}}},
  "cluster": [
    {"kind": "Pod", "metadata": {"name": "p", "labels": {"kueue.x-k8s.io/queue-name": "q",
     "kueue.x-k8s.io/pod-group-name": "g"}}, "spec": {"containers": [{"name": "c"}]}}
  ]
})");
  const auto r = run_cli({"replay", scenario});
  CHECK(r.code == 2);
  CHECK(r.err.starts_with("gpusched: error: " + scenario));
  CHECK(r.err.find("/cluster/0/metadata/labels/kueue.x-k8s.io~1pod-group-name: admission webhook "
                   "\"vpod.kb.io\" denied the request: "
                   "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]: Required value: "
                   "both the 'kueue.x-k8s.io/pod-group-total-count' annotation and the "
                   "'kueue.x-k8s.io/pod-group-name' label should be set") != std::string::npos);
}

TEST_CASE("the pod group scenario reports the gated pods and the group's Workload",
          "[cli][kueue][pod]") {
  const std::string scenario =
      std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/kueue-pod-group-gang.json";
  const auto r = run_cli({"replay", scenario, "--until", "25s"});
  CHECK(r.code != 2);
  // kubectl's STATUS of a gated pod, and the events of the pod integration's recorder.
  CHECK(r.out.find("train-b-3   SchedulingGated") != std::string::npos);
  CHECK(r.out.find("Warning  ErrWorkloadCompose  15s   pod-kueue-controller  'train-b' group has "
                   "fewer runnable pods than expected") != std::string::npos);
  CHECK(r.out.find("couldn't assign flavors to pod set c2322fd1: insufficient unused quota for "
                   "nvidia.com/gpu in flavor h100, 16 more needed") != std::string::npos);
}

}  // namespace
}  // namespace gpusched
