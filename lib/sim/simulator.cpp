#include "gpusched/sim/simulator.hpp"

#include <string>

#include "gpusched/error.hpp"
#include "gpusched/framework/framework.hpp"
#include "sim/simulation.hpp"

namespace gpusched {
namespace {

std::unique_ptr<sim::Simulation> make_simulation(const Scenario& scenario,
                                                 const SimulationOptions& options) {
  try {
    return std::make_unique<sim::Simulation>(scenario, options);
  } catch (const ProfileError& e) {
    // A profile the scheduler cannot run (the loader refuses most, but a Scenario made in code
    // reaches here): placed in the scenario rather than in the SchedulerConfig.
    throw InputError(scenario.source, "/scheduler/profiles/" + std::to_string(e.index()),
                     e.reason());
  }
}

}  // namespace

SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options) {
  return make_simulation(scenario, options)->run();
}

Simulator::Simulator(Scenario scenario, const SimulationOptions& options)
    : scenario_(std::make_unique<Scenario>(std::move(scenario))),
      simulation_(make_simulation(*scenario_, options)) {
  simulation_->start();
}

Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

sim::Simulation& Simulator::live() const {
  // Misuse by the library's caller: a bad call, not a bug of gpusched's.
  if (!simulation_) {
    throw InputError("gpusched::Simulator", "",
                     "used after finish() or after an impossible action ended the replay");
  }
  return *simulation_;
}

std::optional<TimeMs> Simulator::next_time() const {
  return live().next_time();
}

template <typename Run>
auto Simulator::stepping(Run run) {
  sim::Simulation& simulation = live();
  try {
    return run(simulation);
  } catch (...) {
    // An impossible action leaves the replay half way through an instant: it cannot go on.
    simulation_.reset();
    throw;
  }
}

bool Simulator::step() {
  return stepping([](sim::Simulation& simulation) { return simulation.step(); });
}

void Simulator::run_until(TimeMs time) {
  stepping([time](sim::Simulation& simulation) {
    for (auto next = simulation.next_time(); next && *next <= time; next = simulation.next_time())
      simulation.step();
  });
}

TimeMs Simulator::now() const {
  return live().now();
}

std::vector<PodRecord> Simulator::pods() const {
  return live().pod_records();
}

std::vector<NodeRecord> Simulator::nodes() const {
  return live().node_records();
}

std::vector<WorkloadRecord> Simulator::workloads() const {
  return live().workload_records();
}

KueueState Simulator::kueue_state() const {
  return live().kueue_state();
}

Placement Simulator::schedule_one(const Pod& pod) {
  return live().schedule_one(pod);
}

FitCount Simulator::count_fits(const Pod& pod, std::int64_t limit) {
  return live().count_fits(pod, limit);
}

bool Simulator::last_attempt_current(std::string_view pod) const {
  return live().last_attempt_current(pod);
}

std::optional<GangStatus> Simulator::gang_status(std::string_view pod) const {
  return live().gang_status(pod);
}

CycleReport Simulator::report_cycle(std::string_view pod, std::optional<std::int32_t> priority) {
  return live().report_cycle(pod, priority);
}

SimulationResult Simulator::finish() {
  SimulationResult result =
      stepping([](sim::Simulation& simulation) { return simulation.finish(); });
  simulation_.reset();
  return result;
}

}  // namespace gpusched
