#pragma once
// Kueue's quota hierarchy: ClusterQueues and Cohorts as nodes holding quotas and usage per
// (flavor, resource), and the arithmetic of borrowing and lending through the cohort tree
// (Kueue v0.19.2 pkg/cache/scheduler/resource_node.go, clusterqueue_snapshot.go,
// cohort_snapshot.go, and classical.FindHeightOfLowestSubtreeThatFits).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpusched/model/kueue.hpp"
#include "kueue/amount.hpp"

namespace gpusched::kueue {

/// resources.FlavorResource.
struct FlavorResource {
  std::string flavor;
  std::string resource;
  friend auto operator<=>(const FlavorResource&, const FlavorResource&) = default;
};

using FlavorResourceAmounts = std::map<FlavorResource, Amount>;

/// A node's own quota for one flavor and resource (ResourceQuota of the cache).
struct NodeQuota {
  Amount nominal;
  std::optional<Amount> borrowing_limit;
  std::optional<Amount> lending_limit;
};

/// resourceNode: quotas given on this node, its subtree's quota (own plus what children lend),
/// and the usage counted against that subtree quota.
struct ResourceNode {
  std::map<FlavorResource, NodeQuota> quotas;
  FlavorResourceAmounts subtree_quota;
  FlavorResourceAmounts usage;

  [[nodiscard]] Amount quota_nominal(const FlavorResource& fr) const;
  [[nodiscard]] const NodeQuota* quota(const FlavorResource& fr) const;
  [[nodiscard]] Amount subtree(const FlavorResource& fr) const;
  [[nodiscard]] Amount used(const FlavorResource& fr) const;
  /// localQuota: the part of the subtree quota kept back from the parent by a lending limit.
  [[nodiscard]] Amount local_quota(const FlavorResource& fr) const;
};

class CohortNode;

/// What ClusterQueues and Cohorts share: a resource node and a parent cohort.
class QuotaNode {
 public:
  virtual ~QuotaNode() = default;
  ResourceNode resources;
  CohortNode* parent = nullptr;
  /// spec.fairSharing.weight (parseFairWeight: 1 when not given).
  double fair_weight = 1.0;
  [[nodiscard]] bool has_parent() const { return parent != nullptr; }
  /// BorrowingWith: whether usage plus `val` exceeds the subtree quota.
  [[nodiscard]] bool borrowing_with(const FlavorResource& fr, Amount val) const;
};

/// ResourceGroup of a ClusterQueue snapshot.
struct ResourceGroupInfo {
  std::set<std::string> covered_resources;
  std::vector<std::string> flavors;
};

/// The keys ("ns/name") of the workloads holding quota in a ClusterQueue. Copies share one set
/// until one of them changes: each admission cycle copies the cache into its snapshot, which
/// would otherwise copy every admitted workload's key.
class WorkloadKeys {
 public:
  [[nodiscard]] bool contains(const std::string& key) const {
    return keys_ != nullptr && keys_->contains(key);
  }
  void insert(const std::string& key) { own().insert(key); }
  void erase(const std::string& key) {
    if (contains(key)) own().erase(key);
  }
  /// In key order (the preemptor's candidates are read in it).
  [[nodiscard]] std::set<std::string>::const_iterator begin() const { return keys().begin(); }
  [[nodiscard]] std::set<std::string>::const_iterator end() const { return keys().end(); }
  friend bool operator==(const WorkloadKeys& a, const WorkloadKeys& b) {
    return a.keys() == b.keys();
  }

 private:
  std::set<std::string>& own() {
    if (keys_ == nullptr) {
      keys_ = std::make_shared<std::set<std::string>>();
    } else if (keys_.use_count() > 1) {
      keys_ = std::make_shared<std::set<std::string>>(*keys_);
    }
    return *keys_;
  }
  [[nodiscard]] const std::set<std::string>& keys() const {
    static const std::set<std::string> kNone;
    return keys_ != nullptr ? *keys_ : kNone;
  }
  std::shared_ptr<std::set<std::string>> keys_;
};

/// ClusterQueueSnapshot: one ClusterQueue's configuration, admitted workloads and usage.
class ClusterQueueNode final : public QuotaNode {
 public:
  std::string name;
  std::vector<ResourceGroupInfo> resource_groups;
  ClusterQueuePreemption preemption;
  FlavorFungibility flavor_fungibility;
  QueueingStrategy queueing_strategy = QueueingStrategy::BestEffortFIFO;
  std::optional<LabelSelector> namespace_selector;
  /// Bumped whenever the quotas change (AllocatableResourceGeneration).
  std::int64_t allocatable_generation = 1;
  /// The keys ("ns/name") of the workloads holding quota here.
  WorkloadKeys workloads;

  /// RGByResource: the group covering `resource`, or nullptr.
  [[nodiscard]] const ResourceGroupInfo* group_of(const std::string& resource) const;
  [[nodiscard]] NodeQuota quota_for(const FlavorResource& fr) const;
  /// Available: what is left to use here, counting what may be borrowed (never negative).
  [[nodiscard]] Amount available(const FlavorResource& fr) const;
  /// Fits: every amount is available.
  [[nodiscard]] bool fits(const FlavorResourceAmounts& usage) const;
  void add_usage(const FlavorResourceAmounts& usage);
  void remove_usage(const FlavorResourceAmounts& usage);
};

/// CohortSnapshot.
class CohortNode final : public QuotaNode {
 public:
  std::string name;
  std::vector<ClusterQueueNode*> child_cqs;  ///< by name
  std::vector<CohortNode*> child_cohorts;    ///< by name
  [[nodiscard]] const CohortNode& root() const { return parent ? parent->root() : *this; }
  [[nodiscard]] std::size_t child_count() const { return child_cqs.size() + child_cohorts.size(); }
};

/// potentialAvailable: the most `node` could ever use of `fr`, with no usage anywhere.
[[nodiscard]] Amount potential_available(const QuotaNode& node, const FlavorResource& fr);

/// LocalAvailable: guaranteed quota of this node, not visible to its parent, still unused.
[[nodiscard]] Amount local_available(const QuotaNode& node, const FlavorResource& fr);

/// FindHeightOfLowestSubtreeThatFits: the height of the smallest cohort subtree (0: the queue
/// itself) whose quota holds usage plus `val`, and whether that subtree is smaller than the
/// whole tree.
[[nodiscard]] std::pair<int, bool> height_of_lowest_subtree_that_fits(const ClusterQueueNode& cq,
                                                                      const FlavorResource& fr,
                                                                      Amount val);

/// The quota hierarchy of every ClusterQueue and Cohort, with their usage.
class QuotaTree {
 public:
  QuotaTree() = default;
  QuotaTree(const QuotaTree& other);
  QuotaTree& operator=(const QuotaTree& other);
  QuotaTree(QuotaTree&&) = default;
  QuotaTree& operator=(QuotaTree&&) = default;

  /// Builds the tree from the objects (cohorts named only by a ClusterQueue exist implicitly).
  /// Usage starts empty. A cohort on a cycle leaves its queues out of the tree (inactive).
  static QuotaTree build(const std::map<std::string, ClusterQueue>& cluster_queues,
                         const std::map<std::string, Cohort>& cohorts);

  [[nodiscard]] ClusterQueueNode* cluster_queue(const std::string& name) const;
  [[nodiscard]] CohortNode* cohort(const std::string& name) const;
  [[nodiscard]] const std::map<std::string, std::unique_ptr<ClusterQueueNode>>& cluster_queues()
      const {
    return cqs_;
  }
  [[nodiscard]] const std::map<std::string, std::unique_ptr<CohortNode>>& cohorts() const {
    return cohorts_;
  }
  /// Drops this copy's share of each ClusterQueue's workload keys, so that the tree it was
  /// copied from changes them without copying them.
  void release_workload_keys();

 private:
  void recompute_subtree_quotas();
  std::map<std::string, std::unique_ptr<ClusterQueueNode>> cqs_;
  std::map<std::string, std::unique_ptr<CohortNode>> cohorts_;
};

}  // namespace gpusched::kueue
