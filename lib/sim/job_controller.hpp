#pragma once
// The Job controller (pkg/controller/job).

#include "sim/controller.hpp"

namespace gpusched::sim {

class JobController final : public Controller {
 public:
  using Controller::Controller;
  [[nodiscard]] std::string_view kind() const override { return "Job"; }
  void sync(const std::string& key) override;
  void sync_all() override;

 private:
  /// manageJob's creations: up to parallelism active pods, after the failure backoff.
  void create_pods(JobState& state, const std::string& key, const std::vector<PodInfo*>& pods,
                   std::int64_t running, TimeMs last_success);
};

}  // namespace gpusched::sim
