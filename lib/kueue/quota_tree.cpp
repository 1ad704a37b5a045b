#include "kueue/quota_tree.hpp"

#include <algorithm>
#include <functional>

namespace gpusched::kueue {

Amount ResourceNode::quota_nominal(const FlavorResource& fr) const {
  const NodeQuota* q = quota(fr);
  return q ? q->nominal : Amount();
}

const NodeQuota* ResourceNode::quota(const FlavorResource& fr) const {
  auto it = quotas.find(fr);
  return it == quotas.end() ? nullptr : &it->second;
}

Amount ResourceNode::subtree(const FlavorResource& fr) const {
  auto it = subtree_quota.find(fr);
  return it == subtree_quota.end() ? Amount() : it->second;
}

Amount ResourceNode::used(const FlavorResource& fr) const {
  auto it = usage.find(fr);
  return it == usage.end() ? Amount() : it->second;
}

Amount ResourceNode::local_quota(const FlavorResource& fr) const {
  const NodeQuota* q = quota(fr);
  if (q && q->lending_limit) return max(Amount(), subtree(fr) - *q->lending_limit);
  return Amount();
}

bool QuotaNode::borrowing_with(const FlavorResource& fr, Amount val) const {
  return resources.subtree(fr) < resources.used(fr) + val;
}

Amount local_available(const QuotaNode& node, const FlavorResource& fr) {
  return max(Amount(), node.resources.local_quota(fr) - node.resources.used(fr));
}

// resource_node.go: potentialAvailable.
Amount potential_available(const QuotaNode& node, const FlavorResource& fr) {
  const ResourceNode& r = node.resources;
  if (!node.has_parent()) return r.subtree(fr);
  Amount avail = r.local_quota(fr) + potential_available(*node.parent, fr);
  if (const NodeQuota* q = r.quota(fr); q && q->borrowing_limit) {
    avail = min(r.subtree(fr) + *q->borrowing_limit, avail);
  }
  return avail;
}

namespace {

// resource_node.go: available.
Amount available_in(const QuotaNode& node, const FlavorResource& fr) {
  const ResourceNode& r = node.resources;
  if (!node.has_parent()) return r.subtree(fr) - r.used(fr);
  Amount parent_available = available_in(*node.parent, fr);
  if (const NodeQuota* q = r.quota(fr); q && q->borrowing_limit) {
    const Amount lq = r.local_quota(fr);
    const Amount stored_in_parent = r.subtree(fr) - lq;
    const Amount used_in_parent = max(Amount(), r.used(fr) - lq);
    const Amount with_max_from_parent = stored_in_parent - used_in_parent + *q->borrowing_limit;
    parent_available = min(with_max_from_parent, parent_available);
  }
  return local_available(node, fr) + parent_available;
}

// resource_node.go: addUsage.
void add_usage_to(QuotaNode& node, const FlavorResource& fr, Amount val) {
  const Amount local = local_available(node, fr);
  node.resources.usage[fr] = node.resources.used(fr) + val;
  if (node.has_parent() && val > local) add_usage_to(*node.parent, fr, val - local);
}

// resource_node.go: removeUsage.
void remove_usage_from(QuotaNode& node, const FlavorResource& fr, Amount val) {
  const Amount stored_in_parent = node.resources.used(fr) - node.resources.local_quota(fr);
  node.resources.usage[fr] = node.resources.used(fr) - val;
  if (stored_in_parent <= Amount() || !node.has_parent()) return;
  remove_usage_from(*node.parent, fr, min(val, stored_in_parent));
}

// classical.getNodeHeight.
int node_height(const CohortNode& node) {
  int height = std::min<int>(static_cast<int>(node.child_count()), 1);
  for (const CohortNode* child : node.child_cohorts)
    height = std::max(height, node_height(*child) + 1);
  return height;
}

}  // namespace

const ResourceGroupInfo* ClusterQueueNode::group_of(const std::string& resource) const {
  for (const ResourceGroupInfo& group : resource_groups) {
    if (group.covered_resources.contains(resource)) return &group;
  }
  return nullptr;
}

NodeQuota ClusterQueueNode::quota_for(const FlavorResource& fr) const {
  const NodeQuota* q = resources.quota(fr);
  return q ? *q : NodeQuota{};
}

Amount ClusterQueueNode::available(const FlavorResource& fr) const {
  return max(Amount(), available_in(*this, fr));
}

bool ClusterQueueNode::fits(const FlavorResourceAmounts& usage) const {
  return std::all_of(usage.begin(), usage.end(),
                     [&](const auto& entry) { return available(entry.first) >= entry.second; });
}

void ClusterQueueNode::add_usage(const FlavorResourceAmounts& usage) {
  for (const auto& [fr, q] : usage) add_usage_to(*this, fr, q);
}

void ClusterQueueNode::remove_usage(const FlavorResourceAmounts& usage) {
  for (const auto& [fr, q] : usage) remove_usage_from(*this, fr, q);
}

std::pair<int, bool> height_of_lowest_subtree_that_fits(const ClusterQueueNode& cq,
                                                        const FlavorResource& fr, Amount val) {
  if (!cq.borrowing_with(fr, val) || !cq.has_parent()) return {0, cq.has_parent()};
  Amount remaining = val - local_available(cq, fr);
  for (const CohortNode* node = cq.parent; node != nullptr; node = node->parent) {
    if (!node->borrowing_with(fr, remaining)) return {node_height(*node), node->has_parent()};
    remaining = remaining - local_available(*node, fr);
  }
  return {node_height(cq.parent->root()), false};
}

namespace {

std::map<FlavorResource, NodeQuota> quotas_of(const std::vector<ResourceGroup>& groups) {
  std::map<FlavorResource, NodeQuota> quotas;
  for (const ResourceGroup& group : groups) {
    for (const FlavorQuotas& flavor : group.flavors) {
      for (const ResourceQuota& rq : flavor.resources) {
        NodeQuota q;
        q.nominal = Amount::from_quantity(rq.name, rq.nominal_quota);
        if (rq.borrowing_limit)
          q.borrowing_limit = Amount::from_quantity(rq.name, *rq.borrowing_limit);
        if (rq.lending_limit) q.lending_limit = Amount::from_quantity(rq.name, *rq.lending_limit);
        quotas[{flavor.name, rq.name}] = q;
      }
    }
  }
  return quotas;
}

double weight_of(const std::optional<FairSharing>& fs) {
  if (!fs || !fs->weight) return 1.0;
  return static_cast<double>(fs->weight->milli()) / 1000.0;
}

}  // namespace

QuotaTree QuotaTree::build(const std::map<std::string, ClusterQueue>& cluster_queues,
                           const std::map<std::string, Cohort>& cohorts) {
  QuotaTree tree;
  auto cohort_named = [&](const std::string& name) -> CohortNode* {
    auto& slot = tree.cohorts_[name];
    if (!slot) {
      slot = std::make_unique<CohortNode>();
      slot->name = name;
    }
    return slot.get();
  };
  for (const auto& [name, object] : cohorts) {
    CohortNode* node = cohort_named(name);
    node->resources.quotas = quotas_of(object.resource_groups);
    node->fair_weight = weight_of(object.fair_sharing);
  }
  for (const auto& [name, object] : cohorts) {
    if (object.parent_name.empty()) continue;
    CohortNode* node = cohort_named(name);
    node->parent = cohort_named(object.parent_name);
  }
  // hierarchy.HasCycle: a cohort whose ancestors loop is cut from its parent, so that the tree
  // stays a tree; Kueue marks the queues below it inactive.
  for (auto& [name, node] : tree.cohorts_) {
    std::set<const CohortNode*> seen;
    for (const CohortNode* n = node.get(); n != nullptr; n = n->parent) {
      if (!seen.insert(n).second) {
        node->parent = nullptr;
        break;
      }
    }
  }
  for (auto& [name, node] : tree.cohorts_) {
    if (node->parent) node->parent->child_cohorts.push_back(node.get());
  }
  for (const auto& [name, object] : cluster_queues) {
    auto node = std::make_unique<ClusterQueueNode>();
    node->name = name;
    for (const ResourceGroup& group : object.resource_groups) {
      ResourceGroupInfo info;
      info.covered_resources.insert(group.covered_resources.begin(), group.covered_resources.end());
      for (const FlavorQuotas& flavor : group.flavors) info.flavors.push_back(flavor.name);
      node->resource_groups.push_back(std::move(info));
    }
    node->resources.quotas = quotas_of(object.resource_groups);
    node->preemption = object.preemption;
    node->flavor_fungibility = object.flavor_fungibility;
    node->queueing_strategy = object.queueing_strategy;
    node->namespace_selector = object.namespace_selector;
    node->fair_weight = weight_of(object.fair_sharing);
    if (!object.cohort_name.empty()) {
      node->parent = cohort_named(object.cohort_name);
      node->parent->child_cqs.push_back(node.get());
    }
    tree.cqs_[name] = std::move(node);
  }
  tree.recompute_subtree_quotas();
  return tree;
}

void QuotaTree::recompute_subtree_quotas() {
  // updateCohortResourceNode from each root: own nominal quota plus what each child lends
  // (its subtree quota past its local quota).
  std::function<void(CohortNode&)> update = [&](CohortNode& cohort) {
    cohort.resources.subtree_quota.clear();
    for (const auto& [fr, q] : cohort.resources.quotas)
      cohort.resources.subtree_quota[fr] = q.nominal;
    auto accumulate = [&](const QuotaNode& child) {
      for (const auto& [fr, quota] : child.resources.subtree_quota) {
        cohort.resources.subtree_quota[fr] =
            cohort.resources.subtree(fr) + (quota - child.resources.local_quota(fr));
      }
    };
    for (CohortNode* child : cohort.child_cohorts) {
      update(*child);
      accumulate(*child);
    }
    for (ClusterQueueNode* child : cohort.child_cqs) {
      child->resources.subtree_quota.clear();
      for (const auto& [fr, q] : child->resources.quotas)
        child->resources.subtree_quota[fr] = q.nominal;
      accumulate(*child);
    }
  };
  for (auto& [name, cq] : cqs_) {
    cq->resources.subtree_quota.clear();
    for (const auto& [fr, q] : cq->resources.quotas) cq->resources.subtree_quota[fr] = q.nominal;
  }
  for (auto& [name, cohort] : cohorts_) {
    if (!cohort->parent) update(*cohort);
  }
}

ClusterQueueNode* QuotaTree::cluster_queue(const std::string& name) const {
  auto it = cqs_.find(name);
  return it == cqs_.end() ? nullptr : it->second.get();
}

CohortNode* QuotaTree::cohort(const std::string& name) const {
  auto it = cohorts_.find(name);
  return it == cohorts_.end() ? nullptr : it->second.get();
}

QuotaTree::QuotaTree(const QuotaTree& other) {
  *this = other;
}

namespace {

template <typename Node>
bool same_names(const std::map<std::string, std::unique_ptr<Node>>& a,
                const std::map<std::string, std::unique_ptr<Node>>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const auto& x, const auto& y) { return x.first == y.first; });
}

}  // namespace

QuotaTree& QuotaTree::operator=(const QuotaTree& other) {
  if (this == &other) return *this;
  // Each admission cycle copies the cache into its snapshot. Where both have the same queues and
  // cohorts, the nodes are assigned in place and their maps reuse their storage.
  if (!same_names(cqs_, other.cqs_)) cqs_.clear();
  if (!same_names(cohorts_, other.cohorts_)) cohorts_.clear();
  // Copy the nodes, then re-link parents and children by name.
  for (const auto& [name, node] : other.cohorts_) {
    std::unique_ptr<CohortNode>& copy = cohorts_[name];
    if (copy == nullptr) copy = std::make_unique<CohortNode>();
    copy->name = node->name;
    copy->fair_weight = node->fair_weight;
    copy->resources = node->resources;
    copy->child_cohorts.clear();
    copy->child_cqs.clear();
  }
  for (const auto& [name, node] : other.cqs_) {
    std::unique_ptr<ClusterQueueNode>& copy = cqs_[name];
    if (copy == nullptr) {
      copy = std::make_unique<ClusterQueueNode>(*node);
    } else {
      *copy = *node;
    }
  }
  for (const auto& [name, node] : other.cohorts_) {
    CohortNode& copy = *cohorts_[name];
    copy.parent = node->parent ? cohorts_[node->parent->name].get() : nullptr;
    for (const CohortNode* child : node->child_cohorts)
      copy.child_cohorts.push_back(cohorts_[child->name].get());
    for (const ClusterQueueNode* child : node->child_cqs)
      copy.child_cqs.push_back(cqs_[child->name].get());
  }
  for (auto& [name, node] : cqs_) {
    if (node->parent) node->parent = cohorts_[node->parent->name].get();
  }
  return *this;
}

void QuotaTree::release_workload_keys() {
  for (auto& [name, node] : cqs_) node->workloads = WorkloadKeys();
}

}  // namespace gpusched::kueue
