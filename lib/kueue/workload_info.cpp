#include "kueue/workload_info.hpp"

#include <algorithm>
#include <limits>

#include "gpusched/model/pod_requests.hpp"

namespace gpusched::kueue {

int AssignmentState::next_flavor_to_try(std::size_t pod_set, const std::string& resource) const {
  if (pod_set >= last_tried_flavor_idx.size()) return 0;
  auto it = last_tried_flavor_idx[pod_set].find(resource);
  return it == last_tried_flavor_idx[pod_set].end() ? 0 : it->second + 1;
}

bool AssignmentState::pending_flavors() const {
  return std::any_of(last_tried_flavor_idx.begin(), last_tried_flavor_idx.end(), [](const auto& m) {
    return std::any_of(m.begin(), m.end(), [](const auto& e) { return e.second != -1; });
  });
}

Requests pod_requests_of(const PodSpec& spec) {
  PodSpec copy = spec;
  default_requests_from_limits(copy);
  Requests out;
  for (const auto& [name, q] : pod_requests(copy))
    out[name] = Amount::from_quantity(name, q).value();
  return out;
}

WorkloadInfo make_info(const Workload& wl, std::string key) {
  WorkloadInfo info;
  info.obj = &wl;
  info.key = std::move(key);
  if (wl.admission) {
    // workload.go totalRequestsFromAdmission: an admitted workload holds what its admission
    // recorded (each PodSetAssignment's resourceUsage, count and flavors), not what its pod
    // templates ask for now. The recorded usage includes `pods` when the ClusterQueue covers
    // it, which the templates never request.
    info.cluster_queue = wl.admission->cluster_queue;
    for (const PodSetAssignment& psa : wl.admission->pod_set_assignments) {
      PodSetResources res;
      res.name = psa.name;
      res.count = psa.count;
      res.flavors = psa.flavors;
      for (const auto& [name, q] : psa.resource_usage)
        res.requests[name] = Amount::from_quantity(name, q).value();
      info.total_requests.push_back(std::move(res));
    }
    return info;
  }
  // workload.go totalRequestsFromPodSets: each pod's requests, negative ones floored to zero
  // (Requests.FloorToZero), times the count.
  for (const PodSet& ps : wl.pod_sets) {
    PodSetResources res;
    res.name = ps.name;
    res.count = ps.count;
    for (const auto& [name, v] : pod_requests_of(ps.template_.spec)) {
      // Requests.Mul saturates like the rest of Kueue's arithmetic.
      std::int64_t total = 0;
      if (__builtin_mul_overflow(std::max<std::int64_t>(v, 0), static_cast<std::int64_t>(ps.count),
                                 &total))
        total = std::numeric_limits<std::int64_t>::max();
      res.requests[name] = total;
    }
    info.total_requests.push_back(std::move(res));
  }
  return info;
}

FlavorResourceAmounts WorkloadInfo::usage() const {
  FlavorResourceAmounts out;
  for (const PodSetResources& ps : total_requests) {
    for (const auto& [resource, v] : ps.requests) {
      auto flavor = ps.flavors.find(resource);
      if (flavor == ps.flavors.end() || v == 0) continue;
      Amount& slot = out[{flavor->second, resource}];
      slot = slot + Amount(v);
    }
  }
  return out;
}

}  // namespace gpusched::kueue
