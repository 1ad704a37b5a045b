#pragma once
// JSON of result records that more than one writer prints.

#include <string>

#include <nlohmann/json.hpp>

#include "gpusched/explain/explain.hpp"
#include "gpusched/report/metrics.hpp"
#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// The string, or null when it is empty (an unset field).
[[nodiscard]] nlohmann::ordered_json string_or_null(const std::string& value);

/// A verified remedy: {"change", "verified", "scheduledAt", "node"}.
[[nodiscard]] nlohmann::ordered_json remedy_json(const Remedy& remedy);

/// {"time", "preemptor", "node", "victims": [{"pod", "priority", "gpus", "ran", "lostGpuTime"}]}.
[[nodiscard]] nlohmann::ordered_json preemption_json(const PreemptionRecord& preemption);

/// A Kueue Workload as scenario-format.md §6 writes it ("apiVersion", "namespace", "name",
/// "owner", "queueName", "clusterQueue", "priority", "admitted", "admittedAt", "flavors",
/// "conditions").
[[nodiscard]] nlohmann::ordered_json workload_json(const WorkloadRecord& wl);

/// A ClusterQueue: {"name", "cohort", "usage": {flavor: {resource: qty}}, "pendingWorkloads",
/// "reservingWorkloads", "admittedWorkloads"}, and "weightedShare" with fair sharing.
[[nodiscard]] nlohmann::ordered_json cluster_queue_json(const ClusterQueueRecord& cq);

/// A ResourceClaim as scenario-format.md §1 writes it: {"namespace", "name", "owner",
/// "allocated", "node", "devices": [{"request", "driver", "pool", "device"}], "reservedFor"}.
[[nodiscard]] nlohmann::ordered_json resource_claim_json(const ResourceClaimRecord& claim);

/// {"<metric>": value, ...} in the metrics' order; values as plain_metric gives them (durations
/// in milliseconds, ratios as fractions), as JSON numbers.
[[nodiscard]] nlohmann::ordered_json metrics_json(const std::vector<Metric>& metrics);

}  // namespace gpusched::report
