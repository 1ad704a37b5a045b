#pragma once
// What the fuzz targets replay: only small scenarios, so that one input takes milliseconds
// (docs/fuzzing.md). A bigger one is skipped after parsing, never replayed.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <variant>

#include "gpusched/scenario/scenario.hpp"

namespace gpusched::fuzz {

inline constexpr std::size_t kMaxObjects = 50;       // cluster objects + objects applied later
inline constexpr std::size_t kMaxActions = 50;       // timeline entries
inline constexpr std::size_t kMaxExpectations = 50;  // expect entries
inline constexpr std::int64_t kMaxPods = 100;        // pods the controllers may create in total
inline constexpr gpusched::TimeMs kMaxTime = 60LL * 60 * 1000;  // 1h of virtual time

// Pods a controller object may create: replicas, or a Job's parallelism / completions. A
// DaemonSet's, one per node, are counted in small_enough.
inline std::int64_t pods_of(const gpusched::Object& object) {
  if (const auto* d = std::get_if<gpusched::Deployment>(&object)) return std::max(d->replicas, 0);
  if (const auto* r = std::get_if<gpusched::ReplicaSet>(&object)) return std::max(r->replicas, 0);
  if (const auto* s = std::get_if<gpusched::StatefulSet>(&object)) return std::max(s->replicas, 0);
  if (const auto* j = std::get_if<gpusched::Job>(&object)) {
    return std::max<std::int64_t>({j->parallelism, j->completions.value_or(0), 0});
  }
  if (std::holds_alternative<gpusched::DaemonSet>(object)) return 0;
  return 1;
}

// A small scenario's replay ends at kMaxTime at the latest. Without it an object's far-future
// time (a deletionTimestamp years ahead) keeps the run retrying a waiting pod up to gpusched's own
// limit of a million retries: a second in a release build, minutes under the sanitizers.
inline void bound(gpusched::Scenario& scenario) {
  if (!scenario.until) scenario.until = kMaxTime;
}

// Whether the scenario is small enough to replay in milliseconds (once bounded).
inline bool small_enough(const gpusched::Scenario& scenario) {
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

}  // namespace gpusched::fuzz
