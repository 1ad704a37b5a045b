// libFuzzer target: io::parse_scenario on arbitrary bytes, then a short replay of what parses;
// and io::parse_snapshot on the same bytes, whose scenario (`snapshot --to-scenario`) must load
// back.
// Built twice: as JSON ("fuzz.json") and as YAML ("fuzz.yaml"; GPUSCHED_FUZZ_FILE), since the
// file name decides the syntax.
//
// Bad input must end in gpusched::InputError and nothing else: any other exception escapes
// (libFuzzer reports it as a crash), and ASan/UBSan, -timeout and -rss_limit_mb catch the rest.
// Only small scenarios are replayed, so that one input takes milliseconds; see docs/fuzzing.md.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/io/snapshot.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/sim/simulator.hpp"

#ifndef GPUSCHED_FUZZ_FILE
#define GPUSCHED_FUZZ_FILE "fuzz.json"
#endif

namespace {

constexpr std::size_t kMaxObjects = 50;                  // cluster objects + objects applied later
constexpr std::size_t kMaxActions = 50;                  // timeline entries
constexpr std::size_t kMaxExpectations = 50;             // expect entries
constexpr std::int64_t kMaxPods = 100;                   // pods the controllers may create in total
constexpr gpusched::TimeMs kMaxTime = 60LL * 60 * 1000;  // 1h of virtual time

// Pods a controller object may create: replicas, or a Job's parallelism / completions. A
// DaemonSet's, one per node, are counted in small_enough.
std::int64_t pods_of(const gpusched::Object& object) {
  if (const auto* d = std::get_if<gpusched::Deployment>(&object)) return std::max(d->replicas, 0);
  if (const auto* r = std::get_if<gpusched::ReplicaSet>(&object)) return std::max(r->replicas, 0);
  if (const auto* s = std::get_if<gpusched::StatefulSet>(&object)) return std::max(s->replicas, 0);
  if (const auto* j = std::get_if<gpusched::Job>(&object)) {
    return std::max<std::int64_t>({j->parallelism, j->completions.value_or(0), 0});
  }
  if (std::holds_alternative<gpusched::DaemonSet>(object)) return 0;
  return 1;
}

// Whether the scenario is small enough to replay in milliseconds.
bool small_enough(const gpusched::Scenario& scenario) {
  if (scenario.until && *scenario.until > kMaxTime) return false;
  if (scenario.timeline.size() > kMaxActions || scenario.expect.size() > kMaxExpectations) {
    return false;
  }
  std::size_t objects = scenario.cluster.size();
  std::int64_t pods = 0;
  std::int64_t nodes = 0;
  std::int64_t daemon_sets = 0;
  auto count = [&](const gpusched::Object& object) {
    pods += pods_of(object);
    if (std::holds_alternative<gpusched::Node>(object)) ++nodes;
    if (std::holds_alternative<gpusched::DaemonSet>(object)) ++daemon_sets;
  };
  for (const auto& pool : scenario.node_pools) nodes += pool.max_count();
  objects += static_cast<std::size_t>(std::max<std::int64_t>(nodes, 0));
  for (const auto& object : scenario.cluster) count(object);
  for (const auto& action : scenario.timeline) {
    if (action.at > kMaxTime) return false;
    objects += action.objects.size();
    for (const auto& object : action.objects) count(object);
    if (action.verb == gpusched::Verb::Scale) pods += std::max(action.replicas, 0);
    if (objects > kMaxObjects || pods > kMaxPods) return false;
  }
  for (const auto& expectation : scenario.expect) {
    if (expectation.at && *expectation.at > kMaxTime) return false;
  }
  return objects <= kMaxObjects && pods + nodes * daemon_sets <= kMaxPods;
}

// The same bytes as a kubectl snapshot. What it writes as a scenario must load without error:
// an InputError there escapes and is a crash.
void fuzz_snapshot(std::string_view text) {
  gpusched::io::Snapshot snapshot;
  try {
    snapshot = gpusched::io::parse_snapshot(text, GPUSCHED_FUZZ_FILE);
  } catch (const gpusched::InputError&) {
    return;
  }
  const std::string written = gpusched::io::scenario_json_text(snapshot.scenario);
  static_cast<void>(gpusched::io::parse_scenario(written, "written.json"));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz_snapshot(text);
  gpusched::Scenario scenario;
  try {
    scenario = gpusched::io::parse_scenario(text, GPUSCHED_FUZZ_FILE);
  } catch (const gpusched::InputError&) {
    return 0;  // the expected outcome for bad input
  }
  if (!small_enough(scenario)) return 0;
  try {
    const auto result = gpusched::simulate(scenario);
    static_cast<void>(result);
  } catch (const gpusched::InputError&) {
    // an impossible timeline (e.g. deleting an object that does not exist then)
  }
  return 0;
}
