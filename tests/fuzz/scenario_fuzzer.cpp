// libFuzzer target: io::parse_scenario on arbitrary bytes, then a short replay of what parses,
// with the replay's invariants checked at every instant (SimulationOptions::check_invariants).
// Built twice: as JSON ("fuzz.json") and as YAML ("fuzz.yaml"; GPUSCHED_FUZZ_FILE), since the
// file name decides the syntax.
//
// Bad input must end in gpusched::InputError and nothing else: any other exception escapes
// (libFuzzer reports it as a crash; a broken invariant is an InternalError), and ASan/UBSan,
// -timeout and -rss_limit_mb catch the rest. Only small scenarios are replayed, so that one
// input takes milliseconds; see docs/fuzzing.md.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "gpusched/error.hpp"
#include "gpusched/io/scenario_loader.hpp"
#include "gpusched/scenario/scenario.hpp"
#include "gpusched/sim/simulator.hpp"
#include "small_scenario.hpp"

#ifndef GPUSCHED_FUZZ_FILE
#define GPUSCHED_FUZZ_FILE "fuzz.json"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gpusched::Scenario scenario;
  try {
    scenario = gpusched::io::parse_scenario(text, GPUSCHED_FUZZ_FILE);
  } catch (const gpusched::InputError&) {
    return 0;  // the expected outcome for bad input
  }
  if (!gpusched::fuzz::small_enough(scenario)) return 0;
  gpusched::fuzz::bound(scenario);
  gpusched::SimulationOptions options;
  options.check_invariants = true;
  try {
    const auto result = gpusched::simulate(scenario, options);
    static_cast<void>(result);
  } catch (const gpusched::InputError&) {
    // an impossible timeline (e.g. deleting an object that does not exist then)
  }
  return 0;
}
