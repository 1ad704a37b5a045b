#pragma once
// Names the controllers give to the objects they create.

#include <cstdint>
#include <string>
#include <string_view>

#include "gpusched/model/workload.hpp"

namespace gpusched {

/// The pod-template-hash of a Deployment's template: controller.ComputeHash is an FNV-32a of
/// the template encoded with rand.SafeEncodeString. Upstream hashes Go's dump of the struct;
/// gpusched hashes its own canonical text of the template, so the value differs but has the
/// real form and changes exactly when the template does.
[[nodiscard]] std::string pod_template_hash(const PodTemplateSpec& spec);

/// A generateName suffix: 5 characters of rand.String's alphabet, derived from the owner's name
/// and a counter so that names are stable across runs and seeds.
[[nodiscard]] std::string generated_suffix(std::string_view owner, std::uint64_t counter);

}  // namespace gpusched
