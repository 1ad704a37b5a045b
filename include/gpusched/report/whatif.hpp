#pragma once
/// The answer to "would these pods schedule on my cluster right now, where, and whom would they
/// preempt": the pods a what-if replay added, and those that were already waiting.

#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// One pod's fate in the replay.
struct WhatIfPod {
  std::string pod;     ///< "ns/name"
  bool added = false;  ///< created by the additions; otherwise waiting in the snapshot
  std::string status;  ///< kubectl's STATUS: Running, Pending, Completed, Terminating, ...
  std::string node;    ///< empty: not bound
  std::string nominated_node;
  std::string reason;   ///< the PodScheduled condition's reason and message when not bound
  std::string message;  ///< or, for a pod no profile serves, why nothing tries it
  std::vector<PreemptionRecord> preemptions;  ///< the preemptions it made, in order
};

struct WhatIf {
  std::string cluster;          ///< what the replay started from, e.g. "snapshot.json taken at ..."
  std::vector<WhatIfPod> pods;  ///< added pods by name, then the snapshot's waiting pods
  TimeMs settled_at = 0;        ///< the clock when the replay settled
  /// True when every added pod got a node.
  [[nodiscard]] bool all_added_bound() const noexcept;
};

/// The what-if view of `result`: pods not in `existing` are the added ones; pods in `waiting`
/// were Pending without a node when the snapshot was taken. `schedulers` are the replay's
/// profiles' schedulerNames: an unbound pod naming another one gets a message saying so (upstream
/// leaves it Pending without a condition or event).
[[nodiscard]] WhatIf what_if(const SimulationResult& result, std::string cluster,
                             const std::set<std::string>& existing,
                             const std::set<std::string>& waiting,
                             const std::vector<std::string>& schedulers = {});

/// A table of the pods, why each unbound pod waits, and the victims of each preemption.
void write_whatif_table(std::ostream& out, const WhatIf& whatif);
/// The same as JSON: {"cluster", "settledAt", "pods": [...]}.
void write_whatif_json(std::ostream& out, const WhatIf& whatif);

}  // namespace gpusched::report
