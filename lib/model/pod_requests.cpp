// PodRequests / PodLimits of k8s.io/component-helpers/resource/helpers.go (with pod-level
// resources; without in-place resize, which gpusched does not model) and the resource rules of
// SetDefaults_Pod (pkg/apis/core/v1/defaults.go).
#include "gpusched/model/pod_requests.hpp"

#include <algorithm>
#include <vector>

namespace gpusched {
namespace {

// addResourceList.
void add_list(ResourceList& list, const ResourceList& other) {
  for (const auto& [name, q] : other) add_to(list, name, q);
}

// maxResourceList: keeps, per resource, the larger quantity (with its format).
void max_list(ResourceList& list, const ResourceList& other) {
  for (const auto& [name, q] : other) {
    const auto it = list.find(name);
    if (it == list.end()) {
      list.emplace(name, q);
    } else if (q > it->second) {
      it->second = q;
    }
  }
}

bool is_restartable(const Container& c) {
  return c.restart_policy == "Always";
}

// AggregateContainerRequests / AggregateContainerLimits: `pick` selects requests or limits.
ResourceList aggregate(const PodSpec& spec, const ResourceList Container::*pick) {
  ResourceList sum;
  for (const Container& c : spec.containers) add_list(sum, c.*pick);

  ResourceList sidecars;  // restartable init containers started so far
  ResourceList init_max;  // the largest requirement while any init container runs
  for (const Container& c : spec.init_containers) {
    if (is_restartable(c)) {
      // A sidecar keeps running next to the regular containers.
      add_list(sum, c.*pick);
      add_list(sidecars, c.*pick);
      max_list(init_max, sidecars);
    } else {
      // A regular init container runs alongside the sidecars started before it.
      ResourceList need = c.*pick;
      add_list(need, sidecars);
      max_list(init_max, need);
    }
  }
  max_list(sum, init_max);
  return sum;
}

void default_container(Container& c) {
  for (const auto& [name, q] : c.limits) c.requests.try_emplace(name, q);
}

}  // namespace

bool is_supported_pod_level_resource(std::string_view name) noexcept {
  return name == resource::kCpu || name == resource::kMemory || resource::is_hugepages(name);
}

ResourceList aggregate_container_requests(const PodSpec& spec) {
  return aggregate(spec, &Container::requests);
}

ResourceList pod_requests(const PodSpec& spec) {
  ResourceList reqs = aggregate_container_requests(spec);
  // applyPodLevelResources: a pod-level request replaces the containers' sum for its resource.
  if (spec.resources) {
    for (const auto& [name, q] : spec.resources->requests) {
      if (is_supported_pod_level_resource(name)) reqs.insert_or_assign(name, q);
    }
  }
  add_list(reqs, spec.overhead);
  return reqs;
}

PodSpec request_parts(const PodSpec& spec) {
  PodSpec parts;
  parts.containers = spec.containers;
  parts.init_containers = spec.init_containers;
  parts.resources = spec.resources;
  parts.overhead = spec.overhead;
  return parts;
}

bool same_requests(const PodSpec& a, const PodSpec& b) noexcept {
  // What pod_requests reads: the containers' requests, the init containers' requests and
  // whether each restarts, the pod-level requests and the overhead; formats included (a
  // request prints in its format, and Quantity's == compares values only).
  const auto identical = [](const ResourceList& x, const ResourceList& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const auto& p, const auto& q) {
      return p.first == q.first && p.second == q.second && p.second.format() == q.second.format();
    });
  };
  const auto same_containers = [&](const Shared<std::vector<Container>>& x,
                                   const Shared<std::vector<Container>>& y) {
    return x.shares(y) ||
           std::equal(x.begin(), x.end(), y.begin(), y.end(), [&](const auto& p, const auto& q) {
             return identical(p.requests, q.requests) && is_restartable(p) == is_restartable(q);
           });
  };
  static const ResourceList kNone;
  const ResourceList& a_pod_level = a.resources ? a.resources->requests : kNone;
  const ResourceList& b_pod_level = b.resources ? b.resources->requests : kNone;
  return same_containers(a.containers, b.containers) &&
         same_containers(a.init_containers, b.init_containers) &&
         identical(a_pod_level, b_pod_level) && identical(a.overhead, b.overhead);
}

const ResourceList& PodRequestsMemo::of(const PodSpec& spec) {
  if (!last_ || !same_requests(*last_, spec)) {
    last_ = request_parts(spec);
    requests_ = pod_requests(*last_);
    ++computed_;
  }
  return requests_;
}

ResourceList pod_limits(const PodSpec& spec) {
  ResourceList limits = aggregate(spec, &Container::limits);
  if (spec.resources) {
    for (const auto& [name, q] : spec.resources->limits) {
      if (is_supported_pod_level_resource(name)) limits.insert_or_assign(name, q);
    }
  }
  // Overhead is added only to resources that have a limit: an unlimited resource stays so.
  for (const auto& [name, q] : spec.overhead) {
    const auto it = limits.find(name);
    if (it != limits.end()) it->second = it->second.plus(q);
  }
  return limits;
}

void default_requests_from_limits(PodSpec& spec) {
  for (Container& c : spec.containers.mut()) default_container(c);
  for (Container& c : spec.init_containers.mut()) default_container(c);
  // defaultPodRequests, once pod-level limits are set: a supported resource without a pod-level
  // request takes the containers' sum when it can be overcommitted (cpu, memory), else the
  // pod-level limit.
  if (!spec.resources || spec.resources->limits.empty()) return;
  ResourceList& requests = spec.resources.mut().requests;
  for (const auto& [name, q] : aggregate_container_requests(spec)) {
    if (is_supported_pod_level_resource(name) && !resource::is_hugepages(name))
      requests.try_emplace(name, q);
  }
  for (const auto& [name, q] : spec.resources->limits) {
    if (is_supported_pod_level_resource(name)) requests.try_emplace(name, q);
  }
}

}  // namespace gpusched
