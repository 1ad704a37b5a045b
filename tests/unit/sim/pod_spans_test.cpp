// SimulationResult::pod_spans: every pod instance with its wait and what it held, including the
// pods gone before the end that SimulationResult::pods leaves out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched {
namespace {

const std::string kScenarios = std::string(GPUSCHED_SOURCE_DIR) + "/scenarios/";

// A replay recording its pod spans, as `replay --html` asks for them.
SimulationResult replay_with_spans(const std::string& file) {
  SimulationOptions options;
  options.record_pod_spans = true;
  return simulate(io::load_scenario(kScenarios + file), options);
}

const PodSpan& span_of(const SimulationResult& result, const std::string& pod) {
  auto it = std::find_if(result.pod_spans.begin(), result.pod_spans.end(),
                         [&](const PodSpan& span) { return span.pod == pod; });
  REQUIRE(it != result.pod_spans.end());
  return *it;
}

TEST_CASE("pod_spans keep a preemption victim deleted before the end", "[sim][html]") {
  const SimulationResult result = replay_with_spans("serving-preempts-batch.json");
  REQUIRE(result.pod_spans.size() == 2);
  // trainer is gone from the pods at the end, but its span says it held gpu-node until its
  // graceful termination ended at 1m30s.
  CHECK(std::none_of(result.pods.begin(), result.pods.end(),
                     [](const PodRecord& r) { return r.pod.metadata.name == "trainer"; }));
  const PodSpan& trainer = span_of(result, "default/trainer");
  CHECK(trainer.created == 0);
  CHECK(trainer.scheduled == TimeMs{0});
  CHECK(trainer.finished == TimeMs{90'000});
  CHECK(trainer.node == "gpu-node");
  CHECK(trainer.gpus.empty());  // gpu-node declares no GPU hardware: no device UUIDs
  // serving waited from 1m to 1m30s and holds the node to the end.
  const PodSpan& serving = span_of(result, "default/serving");
  CHECK(serving.created == 60'000);
  CHECK(serving.scheduled == TimeMs{90'000});
  CHECK_FALSE(serving.finished);
  CHECK(serving.node == "gpu-node");
  // In creation order.
  CHECK(result.pod_spans.front().pod == "default/trainer");
}

TEST_CASE("pod_spans are recorded only when asked for", "[sim][html]") {
  const SimulationResult result =
      simulate(io::load_scenario(kScenarios + "serving-preempts-batch.json"));
  CHECK(result.pod_spans.empty());
  CHECK(result.pods.size() == 1);
}

TEST_CASE("pod_spans name the physical GPUs a pod's devices are on", "[sim][html]") {
  const SimulationResult result = replay_with_spans("gpu/hgx-h100-groups.json");
  std::size_t with_gpus = 0;
  for (const PodRecord& record : result.pods) {
    const PodSpan& span = span_of(result, record.pod.key());
    auto devices = record.devices.find("nvidia.com/gpu");
    if (devices == record.devices.end()) {
      CHECK(span.gpus.empty());
      continue;
    }
    ++with_gpus;
    // Whole GPUs: the device IDs are the GPUs' UUIDs, and the span lists them by GPU index.
    std::vector<std::string> expected = devices->second;
    std::vector<std::string> held = span.gpus;
    std::sort(expected.begin(), expected.end());
    std::sort(held.begin(), held.end());
    CHECK(held == expected);
    CHECK(span.node == record.pod.spec.node_name);
  }
  CHECK(with_gpus == 4);
  // The 8-GPU pod never starts: a span with no node.
  CHECK(std::count_if(result.pod_spans.begin(), result.pod_spans.end(), [](const PodSpan& span) {
          return !span.scheduled && span.node.empty();
        }) == 1);
}

}  // namespace
}  // namespace gpusched
