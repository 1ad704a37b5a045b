#pragma once
// Large input files for the Inputs benchmark: the memory a file costs per MB of its text, in
// JSON and in YAML (docs/cli.md, "Limits").

#include <string>

namespace bench {

enum class Syntax { Json, BlockYaml, FlowYaml };

/// A scenario of `pods` pods (500m, 1Gi, a label) and one node per 50 pods, as kubectl writes
/// them: ~310 bytes a pod. FlowYaml is not offered (Json is flow YAML).
std::string pods_scenario(int pods, Syntax syntax);

/// One pod whose node affinity lists `values` one-digit values: the smallest values per byte a
/// scenario can hold, the worst case per MB.
std::string wide_list_scenario(int values, Syntax syntax);

}  // namespace bench
