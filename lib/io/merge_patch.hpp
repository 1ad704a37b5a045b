#pragma once
/// A timeline patch as the scenario file writes it: a JSON merge patch (RFC 7386).

#include <memory>
#include <string>

#include "gpusched/scenario/object_patch.hpp"

namespace gpusched::io {

/// The patch `merge_patch_json` (a JSON object's text), applied by apply_merge_patch.
[[nodiscard]] std::shared_ptr<const ObjectPatch> merge_patch(std::string merge_patch_json);

}  // namespace gpusched::io
