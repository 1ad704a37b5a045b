#pragma once
// DynamicResources (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go, 1.34,
// 1.35 and 1.36): a pod's ResourceClaims must exist (PreEnqueue); the unallocated ones are
// allocated by the structured allocator on each node (Filter), the devices reserved for the pod
// (Reserve: an in-flight allocation) and written to the claims with the pod in reservedFor
// (PreBind). An allocated claim whose node selector leaves a node out makes that node
// unavailable; PostFilter deallocates such a claim when no other pod uses it. From 1.35 the plugin
// also scores nodes by the firstAvailable alternatives their allocation took
// (DynamicResourcesScoring). Every rejection is UnschedulableAndUnresolvable, so preemption
// never helps a pod waiting for devices. Texts are upstream's, verbatim.
//
// With DRAExtendedResource (beta and on in 1.36; extendeddynamicresources.go) a pod's extended
// resources that a DeviceClass serves (spec.extendedResourceName, or the class's implicit
// `deviceclass.resource.kubernetes.io/<class>`) are allocated on a node that does not advertise
// them through one more claim, made in memory at PreFilter, given per node one ExactCount request
// per container and resource, and created at PreBind as `<pod>-extended-resources-<5 chars>`,
// owned by the pod and named in its status.extendedResourceClaimStatus.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "dra/allocator.hpp"
#include "dra/cel.hpp"
#include "gpusched/config/plugin_names.hpp"
#include "gpusched/framework/framework.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched::plugins {

class DynamicResources : public PreEnqueuePlugin,
                         public PreFilterPlugin,
                         public FilterPlugin,
                         public PostFilterPlugin,
                         public ReservePlugin,
                         public PreBindPlugin,
                         public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = names::kDynamicResources;
  explicit DynamicResources(Handle& handle);
  ~DynamicResources() override;
  [[nodiscard]] std::string_view name() const noexcept override { return kName; }

  /// Each claim exists and is not being deleted (foreachPodResourceClaim).
  [[nodiscard]] Status pre_enqueue(const PodInfo& pod) const override;
  /// Skip for a pod without claims; otherwise checks the claims and builds the allocator.
  [[nodiscard]] Status pre_filter(CycleState& state, const PodInfo& pod,
                                  PreFilterResult& result) override;
  [[nodiscard]] Code filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                            Reasons& reasons) const override;
  /// Each device the node can reach and why it does not serve the pod's unallocated claims: the
  /// claim that holds it, the class or request selector it fails, the taint no request
  /// tolerates; or the request it would match.
  [[nodiscard]] std::string explain_rejection(const CycleState& state, const PodInfo& pod,
                                              const NodeInfo& node) const override;
  /// Deallocates one unavailable claim no other pod uses, or says why not.
  [[nodiscard]] PostFilterResult post_filter(CycleState& state, const PodInfo& pod,
                                             const Diagnosis& diagnosis) override;
  [[nodiscard]] Code reserve(CycleState& state, const PodInfo& pod, NodeInfo& node) override;
  void unreserve(CycleState& state, const PodInfo& pod, NodeInfo& node) override;
  [[nodiscard]] Status pre_bind(CycleState& state, const PodInfo& pod,
                                const NodeInfo& node) override;

  [[nodiscard]] std::vector<ClusterEventWithHint> events_to_register() const override;
  [[nodiscard]] QueueingHint queueing_hint(const ClusterEvent& event, const PodInfo& pod,
                                           const EventObjects& objects) const override;

 protected:
  struct CycleData;
  struct ExtendedVariant;
  /// The plugin's data in `state`, or nullptr when PreFilter did not run or skipped.
  [[nodiscard]] const CycleData* data(const CycleState& state) const;

  Handle& handle_;

 private:
  /// foreachPodResourceClaim: calls `each(claim)` for each claim of the pod in spec order; the
  /// first problem's text, or "".
  template <class Each>
  [[nodiscard]] std::string for_each_pod_claim(const Pod& pod, Each&& each) const;
  /// The UnschedulableAndUnresolvable status with `message` (statusUnschedulable).
  [[nodiscard]] Status unschedulable(const std::string& message) const;
  /// A claim written through the API server comes back as a ResourceClaim/Update event.
  void claim_updated(const dra::ResourceClaim& old_claim, const dra::ResourceClaim& claim) const;
  /// A random UUID (uuid.NewUUID), drawn from the run's seeded source.
  [[nodiscard]] std::string random_uuid() const;

  /// preFilterExtendedResources: the pod's claim for its extended resources a DeviceClass
  /// serves, the one an earlier cycle created or a new one in memory; nullopt when it needs none.
  /// `requests` gets the pod's requests of names a DeviceClass may serve (podScalarResources).
  [[nodiscard]] std::optional<dra::ResourceClaim> extended_claim(
      const PodInfo& pod, std::vector<ResAmount>& requests) const;
  /// PreBind for the extended-resource claim in memory at `index`: created, allocated and
  /// reserved for the pod, and named in the pod's status.
  [[nodiscard]] Status create_extended_claim(const CycleData& data, std::size_t index,
                                             const PodInfo& pod, const NodeInfo& node);
  /// filterExtendedResources: the node's variant of that claim in `variant` (null when the node
  /// serves them all itself), or the rejection.
  [[nodiscard]] Code filter_extended(const CycleData& data, const PodInfo& pod,
                                     const NodeInfo& node, Reasons& reasons,
                                     std::shared_ptr<const ExtendedVariant>& variant) const;

  /// The allocator's DRA feature gates (AllocatorFeatures), fixed per release and gates.
  dra::AllocatorFeatures features_;
  bool prioritized_list_ = false;
  bool extended_resource_ = false;  ///< DRAExtendedResource
  /// The allocated state (ListAllAllocatedDevices / GatherAllocatedState): the devices of every
  /// allocated claim and in-flight allocation, kept up to date from the claims' change journal
  /// instead of gathered for every pod; its in-use bits numbered by `slices`.
  [[nodiscard]] std::shared_ptr<const dra::AllocatedState> allocated_state(
      const std::shared_ptr<const dra::SliceIndex>& slices);

  /// cel.NewCache(10, ...): the compiled selectors, shared by every cycle.
  std::unique_ptr<dra::cel::Cache> cel_cache_;
  struct AllocatedIndex;
  std::unique_ptr<AllocatedIndex> allocated_index_;
  /// The slices grouped for the allocator, and the slices' generation they were grouped at.
  std::shared_ptr<const dra::SliceIndex> slice_index_;
  std::uint64_t slice_index_generation_ = 0;

  /// The specs of the claims one Allocate call is for, kept once so that pods asking alike
  /// (from one template) share it: its address names the shape (shape_of).
  using Shape = std::vector<dra::ResourceClaimSpec>;
  [[nodiscard]] std::shared_ptr<const Shape> shape_of(
      std::span<const dra::ResourceClaim* const> claims) const;
  mutable std::vector<std::shared_ptr<const Shape>> shapes_;  ///< the latest first
  /// A node's last allocation outcome (all claims allocated, or none fits), by NodeInfo::slot:
  /// Allocate is a function of the claims' specs, the classes, the node's pools and what is
  /// allocated in them, so the outcome stands for the next pod of the same shape while the
  /// slices, the classes and its pools' allocations (AllocatedIndex::pool_versions) do. Kept
  /// only where every slice names its node (SliceIndex::pools_of) and no share id was drawn,
  /// and never by the reference engine.
  struct CachedOutcome {
    std::shared_ptr<const Shape> shape;
    std::uint64_t slices_generation = 0;
    std::uint64_t classes_generation = 0;
    std::vector<std::uint64_t> pool_versions;  ///< of pools_of(node), in order
    std::shared_ptr<const std::vector<dra::AllocationResult>> results;  ///< null: none fits
  };
  mutable std::unordered_map<std::uint32_t, CachedOutcome> outcomes_;
  mutable std::uint64_t share_ids_drawn_ = 0;
};

/// 1.35 and later: DynamicResources with Score and NormalizeScore (weight 1, no PreScore).
class DynamicResourcesScoring final : public DynamicResources, public ScorePlugin {
 public:
  explicit DynamicResourcesScoring(Handle& handle) : DynamicResources(handle) {}
  /// computeScore: for each firstAvailable request, 8 minus the index of the alternative the
  /// node's allocation took; 0 on a node where nothing was allocated.
  [[nodiscard]] std::int64_t score(const CycleState& state, const PodInfo& pod,
                                   const NodeInfo& node) const override;
  /// score() for each node; all 0 at once for a pod with nothing to allocate.
  void score_nodes(const CycleState& state, const PodInfo& pod,
                   std::span<const NodeInfo* const> nodes,
                   std::span<std::int64_t> scores) const override;
  /// helper.DefaultNormalizeScore(MaxNodeScore, false).
  void normalize(const CycleState& state, const PodInfo& pod,
                 std::span<std::int64_t> scores) const override;
  /// Nothing to allocate: every node scores 0.
  [[nodiscard]] bool scores_alike(const CycleState& state, const PodInfo& pod,
                                  std::span<const NodeInfo* const> nodes) const override;
};

}  // namespace gpusched::plugins
