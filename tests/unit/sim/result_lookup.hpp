#pragma once
// Finding what a replay left: a pod by name, an event by reason and message. Shared by the
// replay tests of DRA.

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "gpusched/sim/result.hpp"

namespace gpusched::testing {

inline const PodRecord& pod_named(const SimulationResult& result, const std::string& name) {
  const auto it = std::find_if(result.pods.begin(), result.pods.end(),
                               [&](const PodRecord& r) { return r.pod.metadata.name == name; });
  REQUIRE(it != result.pods.end());
  return *it;
}

inline bool has_event(const SimulationResult& result, const std::string& reason,
                      const std::string& message) {
  return std::any_of(result.events.begin(), result.events.end(), [&](const EventRecord& e) {
    return e.reason == reason && e.message == message;
  });
}

}  // namespace gpusched::testing
