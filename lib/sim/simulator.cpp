#include "gpusched/sim/simulator.hpp"

#include <stdexcept>

#include "gpusched/error.hpp"
#include "sim/simulation.hpp"

namespace gpusched {

SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options) {
  std::unique_ptr<sim::Simulation> simulation;
  try {
    simulation = std::make_unique<sim::Simulation>(scenario, options);
  } catch (const std::invalid_argument& e) {
    // A profile naming a plugin gpusched does not implement.
    throw InputError(scenario.source, "/scheduler/profiles", e.what());
  }
  return simulation->run();
}

}  // namespace gpusched
