#pragma once
// File names that a file names (`include`, a sweep's scenario and configs, a device-plugin
// ConfigMap): refused when the system would read another name than the text says.

#include <string>

#include "io/json_node.hpp"

namespace gpusched::io {

/// The string at `node`, to be used as a file path: InputError at `node` when it holds a control
/// character (C0 or DEL): the system reads a path up to a NUL byte, so the rest would be dropped
/// silently, and no real file name needs the others.
[[nodiscard]] std::string file_path_text(const JsonNode& node);

}  // namespace gpusched::io
