#include "kueue/fair_sharing.hpp"

#include <cmath>
#include <limits>

namespace gpusched::kueue {

Drs Drs::negative() {
  Drs d;
  d.unweighted_ratio = -1;
  return d;
}

bool Drs::borrowing_on(const FlavorResourceAmounts& requested) const {
  for (const FlavorResource& fr : borrowed) {
    auto it = requested.find(fr);
    if (it != requested.end() && it->second > Amount()) return true;
  }
  return false;
}

double Drs::precise_weighted_share() const {
  if (is_zero()) return 0.0;
  if (fair_weight == 0) return std::numeric_limits<double>::infinity();
  return unweighted_ratio / fair_weight;
}

namespace {

// cmp.Compare of two float64 (no NaN arises here).
int compare(double a, double b) {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

}  // namespace

std::map<std::string, Amount> calculate_lendable(const CohortNode& node) {
  std::map<std::string, Amount> out;
  for (const auto& [fr, quota] : node.root().resources.subtree_quota)
    out[fr.resource] += potential_available(node, fr);
  return out;
}

int compare_drs(const Drs& a, const Drs& b) {
  if (a.zero_weight_borrows() && b.zero_weight_borrows())
    return compare(a.unweighted_ratio, b.unweighted_ratio);
  if (a.zero_weight_borrows()) return 1;
  if (b.zero_weight_borrows()) return -1;
  return compare(a.precise_weighted_share(), b.precise_weighted_share());
}

Drs dominant_resource_share(const QuotaNode& node) {
  Drs drs;
  drs.fair_weight = node.fair_weight;
  if (!node.has_parent()) return drs;
  std::map<std::string, Amount> borrowing;
  for (const auto& [fr, quota] : node.resources.subtree_quota) {
    const Amount borrowed = node.resources.used(fr) - quota;
    if (borrowed > Amount()) {
      borrowing[fr.resource] += borrowed;
      drs.borrowed.push_back(fr);
    }
  }
  if (borrowing.empty()) return drs;
  drs.borrowing = true;
  const std::map<std::string, Amount> lr = calculate_lendable(*node.parent);
  // In resource-name order, so that the first of equal ratios is the alphabetically lowest.
  for (const auto& [resource, b] : borrowing) {
    auto it = lr.find(resource);
    if (it == lr.end() || it->second <= Amount()) continue;
    const double ratio =
        static_cast<double>(b.value()) * 1000.0 / static_cast<double>(it->second.value());
    if (ratio > drs.unweighted_ratio) {
      drs.unweighted_ratio = ratio;
      drs.dominant_resource = resource;
    }
  }
  return drs;
}

std::int64_t weighted_share_status(const Drs& drs) {
  const double share = drs.precise_weighted_share();
  if (std::isinf(share)) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(std::ceil(share));
}

}  // namespace gpusched::kueue
