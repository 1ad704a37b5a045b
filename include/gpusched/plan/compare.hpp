#pragma once
/// The same workload under several variants (scheduler configurations, pool sizes, clusters
/// described twice, such as a pool on the device plugin and the same pool on DRA): each
/// replayed, their figures side by side, and the pods whose outcome differs, with why.

#include <ostream>
#include <string>
#include <vector>

#include "gpusched/report/metrics.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/sim/simulator.hpp"

namespace gpusched::plan {

struct Variant {
  std::string name;  ///< how tables head its column, e.g. the configuration file
  Scenario scenario;
};

/// One pod whose outcome is not the same in every variant.
struct PodOutcomes {
  std::string pod;                    ///< "ns/name"
  std::vector<std::string> outcomes;  ///< per variant: pod_outcome, or "absent"
  std::vector<std::string> details;   ///< per variant: pod_detail, or empty
};

struct Comparison {
  std::vector<std::string> names;                    ///< per variant
  std::vector<std::vector<report::Metric>> metrics;  ///< per variant
  std::vector<PodOutcomes> differing;                ///< by pod key
};

/// A pod's outcome at the end of a replay: its phase, the node when it has one, and when it was
/// first bound ("Running on w1 from 10s", "Succeeded on w2 from 1h", "Pending").
[[nodiscard]] std::string pod_outcome(const PodRecord& record);

/// Why a pod's outcome is what it is, at the end of a replay: who preempted it, the message of a
/// pod that waits or was refused, and the devices it holds (the device plugin's, and those of
/// the resource claims reserved for it), "; " between them; empty when there is nothing to say.
/// E.g. "nvidia.com/gpu: GPU-1f0e…" or "claim train-gpu-x7k2q: gpu.nvidia.com/h1/gpu-0".
[[nodiscard]] std::string pod_detail(const PodRecord& record,
                                     const std::vector<ResourceClaimRecord>& claims);

/// Replays every variant (up to `jobs` at once, 0: one per hardware thread) with `options`;
/// expectations are not checked. Rethrows the first variant's InputError, by variant order.
[[nodiscard]] Comparison compare(const std::vector<Variant>& variants, unsigned jobs,
                                 const SimulationOptions& options);

/// The metrics, one column per variant (a metric a variant lacks reads "-"), then the pods whose
/// outcome differs, then their details per variant.
void write_comparison_table(std::ostream& out, const Comparison& comparison);
/// {"variants": [{"name", "metrics"}],
///  "differing": [{"pod", "outcomes": {name: outcome}, "details": {name: detail}}]}.
void write_comparison_json(std::ostream& out, const Comparison& comparison);
/// A line per variant: its name, then every metric (write_runs_csv).
void write_comparison_csv(std::ostream& out, const Comparison& comparison);

}  // namespace gpusched::plan
