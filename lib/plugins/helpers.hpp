#pragma once
// Helpers shared by several plugins (upstream pkg/scheduler/framework/plugins/helper and
// component-helpers' node affinity matching).

#include <cstdint>
#include <span>
#include <string>

#include "gpusched/framework/cluster_state.hpp"
#include "gpusched/framework/node_info.hpp"
#include "gpusched/framework/pod_info.hpp"
#include "model/wide_int.hpp"

namespace gpusched::plugins {

/// MaxNodeScore.
inline constexpr std::int64_t kMaxNodeScore = 100;

/// helper.DefaultNormalizeScore.
void default_normalize_score(std::int64_t max_priority, bool reverse,
                             std::span<std::int64_t> scores);

/// A node selector term against a node (nodeaffinity.nodeSelectorTerm.match): requirements
/// ANDed; a term with neither expressions nor fields matches nothing.
[[nodiscard]] bool term_matches(const TermInfo& term, const NodeInfo& node, const StringPool& pool);

/// Required node affinity: spec.nodeSelector AND (any of the required terms).
[[nodiscard]] bool required_node_affinity_matches(const PodInfo& pod, const NodeInfo& node,
                                                  const StringPool& pool);

/// Keys of FilterPlugin::append_node_static_key: what required_node_affinity_matches reads of
/// the pod (its node selector and required terms), and its tolerations.
void append_node_affinity_key(const PodInfo& pod, std::string& key);
void append_tolerations_key(const PodInfo& pod, std::string& key);

/// ShouldDelegateResourceToDRA (noderesources, 1.36): with DRAExtendedResource on, a request
/// for resource `id` is left to DynamicResources on a node that advertises none of it
/// (allocatable 0 or absent) when a DeviceClass serves it (DraState::extended_resource_class).
[[nodiscard]] bool delegated_to_dra(bool dra_extended_resource, const NodeInfo& node,
                                    const ClusterState& cluster, ResId id);

/// The taints v1helper.FindMatchingUntoleratedTaint looks at (its filter function).
enum class TaintFilter {
  DoNotSchedule,  ///< NoSchedule and NoExecute (DoNotScheduleTaintsFilterFunc)
  NoExecute,      ///< NoExecute only: what a running pod must tolerate to stay
};

/// The first taint passing `filter` that the pod does not tolerate
/// (v1helper.FindMatchingUntoleratedTaint), or nullptr.
[[nodiscard]] const TaintInfo* find_untolerated_taint(
    const PodInfo& pod, const NodeInfo& node, TaintFilter filter = TaintFilter::DoNotSchedule);

/// helper.DefaultSelector (plugins/helper/spread.go): the spec.selector maps of the Services
/// in the pod's namespace that select it, merged, plus the selector of the ReplicaSet or
/// StatefulSet that controls it. Empty when neither gives anything (no default spreading).
[[nodiscard]] LabelSelector default_selector(const Pod& pod, const ClusterState& cluster);

}  // namespace gpusched::plugins
