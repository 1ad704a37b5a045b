#pragma once
// Typed timeline patches of a Node, which explain's remedies put at the attempt's instant: each
// the edit a merge patch of the same text would make.

#include <map>
#include <memory>
#include <string>

#include "gpusched/scenario/object_patch.hpp"

namespace gpusched::explain_detail {

/// Sets `labels` on the node (others kept): {"metadata": {"labels": {...}}}.
[[nodiscard]] std::shared_ptr<const ObjectPatch> set_node_labels(
    std::map<std::string, std::string> labels);

/// Replaces the node's conditions by Ready=True, as a kubelet that recovered reports:
/// {"status": {"conditions": [{"type": "Ready", "status": "True"}]}}.
[[nodiscard]] std::shared_ptr<const ObjectPatch> make_node_ready();

}  // namespace gpusched::explain_detail
