// A scheduler plugin of your own: GpuPacking (gpu_packing.hpp) is registered under its name and
// enabled in the scenario's profile exactly like an in-tree plugin; the scenario is replayed
// with the default profile and with the plugin, and where each pod went is printed.
//
//   custom_plugin SCENARIO [WEIGHT]      (WEIGHT: GpuPacking's score weight, 10 by default)

#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include <gpusched/gpusched.hpp>

#include "gpu_packing.hpp"

namespace {

void print_pods(const std::string& title, const gpusched::SimulationResult& result) {
  std::cout << title << ":\n";
  for (const gpusched::PodRecord& record : result.pods) {
    const std::string& node = record.pod.spec.node_name;
    std::cout << "  " << record.pod.metadata.name << ' '
              << gpusched::to_string(record.pod.status.phase) << ' '
              << (node.empty() ? "<none>" : node) << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: custom_plugin SCENARIO [WEIGHT]\n";
    return 2;
  }
  try {
    const int weight = argc == 3 ? std::stoi(argv[2]) : 10;

    // 1. Register the plugin: its name and a factory, as kube-scheduler's app.WithPlugin.
    gpusched::SimulationOptions options;
    options.plugins.add(std::string(GpuPacking::kName),
                        [](gpusched::Handle& handle, const gpusched::Profile&) {
                          return std::make_unique<GpuPacking>(handle);
                        });

    // 2. Load the scenario; a profile in the file may name the plugin too.
    const gpusched::Scenario scenario =
        gpusched::io::load_scenario(argv[1], {options.plugins.names()});
    print_pods("default profile", gpusched::simulate(scenario, options));

    // 3. Enable it in the profile, as multiPoint.enabled would in a KubeSchedulerConfiguration.
    gpusched::Scenario packed = scenario;
    packed.scheduler.profiles.at(0).plugins.multi_point.enabled.push_back(
        {std::string(GpuPacking::kName), weight});
    print_pods("with GpuPacking (weight " + std::to_string(weight) + ")",
               gpusched::simulate(packed, options));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "custom_plugin: " << e.what() << '\n';
    return 2;
  }
}
