#pragma once
// The Job controller (pkg/controller/job).

#include <set>
#include <string>
#include <vector>

#include "sim/controller.hpp"

namespace gpusched::sim {

class JobController final : public Controller {
 public:
  using Controller::Controller;
  [[nodiscard]] std::string_view kind() const override { return "Job"; }
  void sync(const std::string& key) override;
  /// Syncs, in key order, the Jobs whose pods changed since the last sync_all and those whose
  /// last sync waited out a failure backoff (its outcome depends on the time): any other Job's
  /// sync would change nothing, since what it reads (the Job, its pods, their end times) is as
  /// its last sync left it. A Job's own changes sync it at once (ControllerManager::sync).
  void sync_all() override;

 private:
  /// manageJob's creations: up to parallelism active pods, after the failure backoff. False
  /// when the backoff holds them back.
  bool create_pods(JobState& state, const std::string& key, const std::vector<PodInfo*>& pods,
                   std::int64_t running, TimeMs last_success);

  std::set<std::string> backing_off_;  // Jobs whose last sync waited out a failure backoff
};

}  // namespace gpusched::sim
