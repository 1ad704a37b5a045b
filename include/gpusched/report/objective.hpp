#pragma once
/// Objectives a capacity plan must meet, written as `pending==0`, `wait.p95<10m`,
/// `allocation.nvidia.com/gpu>=80%` or, for a Kueue queue, `cq/research:wait.p95<30m` and
/// `lq/team-a/train:wait.p99<1h`, checked against a replay's summary metrics.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/report/metrics.hpp"

namespace gpusched::report {

struct Objective {
  enum class Op { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };
  /// How the bound was written: a plain number, a duration ("10m", in milliseconds) or a
  /// percentage ("80%", as a fraction).
  enum class Kind { Number, Duration, Percent };
  std::string text;    ///< as written
  std::string metric;  ///< a summary_metrics name
  /// A Kueue queue's objective: `cq/<name>:<m>` reads `kueue.<m>{clusterQueue=<name>}` and
  /// `lq/<ns>/<name>:<m>` reads `kueue.<m>{localQueue=<ns>/<name>}`.
  enum class Scope { None, ClusterQueue, LocalQueue };
  Scope scope = Scope::None;
  std::string queue;  ///< the ClusterQueue's name, or the LocalQueue's "ns/name"
  Op op = Op::Equal;
  Kind kind = Kind::Number;
  double bound = 0;
};

/// Parses `<metric><op><value>` (spaces allowed around the operator); nullopt and `error` set
/// when it is not one.
[[nodiscard]] std::optional<Objective> parse_objective(std::string_view text, std::string* error);

/// For an objective on a Kueue queue (Objective::scope) that `result` does not have, the error
/// naming the queues it has; empty otherwise.
[[nodiscard]] std::string unknown_queue(const Objective& objective, const SimulationResult& result);

/// Whether `metrics` meet the objective. A metric absent from them reads as 0 (no pod of that
/// priority class, no node of that pool). Returns nullopt and sets `error` when the bound's kind
/// does not suit the metric's unit (a duration against a count).
[[nodiscard]] std::optional<bool> objective_met(const Objective& objective,
                                                const std::vector<Metric>& metrics,
                                                std::string* error);

}  // namespace gpusched::report
