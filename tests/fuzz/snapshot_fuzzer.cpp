// libFuzzer target: io::parse_snapshot (a `kubectl get ... -o json|yaml` dump) on arbitrary
// bytes. What parses must be written as a scenario (`snapshot --to-scenario`) that loads back
// without error, and, when small, replays with its invariants checked at every instant.
// Built twice, as JSON ("snap.json") and YAML ("snap.yaml"; GPUSCHED_FUZZ_FILE).
//
// An InputError is the expected outcome for bad input; any other exception, and an InputError
// from the written scenario, escapes and is a crash (docs/fuzzing.md).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/io/scenario_writer.hpp"
#include "gpusched/io/snapshot.hpp"
#include "gpusched/sim/simulator.hpp"
#include "small_scenario.hpp"

#ifndef GPUSCHED_FUZZ_FILE
#define GPUSCHED_FUZZ_FILE "snap.json"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpusched::io::Snapshot snapshot;
  try {
    snapshot = gpusched::io::parse_snapshot(text, GPUSCHED_FUZZ_FILE);
  } catch (const gpusched::InputError&) {
    return 0;
  }
  const std::string written = gpusched::io::scenario_json_text(snapshot.scenario);
  gpusched::Scenario scenario = gpusched::io::parse_scenario(written, "written.json");
  if (!gpusched::fuzz::small_enough(scenario)) return 0;
  gpusched::fuzz::bound(scenario);
  gpusched::SimulationOptions options;
  options.check_invariants = true;
  try {
    static_cast<void>(gpusched::simulate(scenario, options));
  } catch (const gpusched::InputError&) {
    // a timeline the snapshot's scenario cannot run is its own input's fault
  }
  return 0;
}
