// The resource rules of pkg/apis/core/validation/validation.go (ValidateResourceRequirements,
// validateContainerResourceName, validateResourceName, ValidateResourceQuantityValue,
// validateResourceQuantityHugePageValue, validateOverhead, and ValidateNode's capacity and
// allocatable checks), rendered like field.Error.Error() in
// k8s.io/apimachinery/pkg/util/validation/field/errors.go.
#include "gpusched/model/validation.hpp"

#include "gpusched/model/pod.hpp"
#include "gpusched/model/selector.hpp"
#include "model/go_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gpusched {
namespace {

constexpr std::string_view kNegative = "must be greater than or equal to 0";
constexpr std::string_view kNotInteger = "must be an integer";

FieldPath child(FieldPath path, std::string_view name) {
  path.push_back({PathStep::Kind::Field, std::string(name), 0});
  return path;
}

FieldPath index(FieldPath path, std::size_t i) {
  path.push_back({PathStep::Kind::Index, {}, i});
  return path;
}

FieldPath key(FieldPath path, std::string_view name) {
  path.push_back({PathStep::Kind::Key, std::string(name), 0});
  return path;
}

// field.Invalid with a string value: %q.
FieldError invalid(FieldPath path, std::string_view value, std::string_view detail) {
  return {std::move(path), "Invalid value: " + go_quote(value) + ": " + std::string(detail)};
}

// field.Invalid with a resource.Quantity value: ErrorBody prints it through its String()
// method, without quotes.
FieldError invalid_quantity(FieldPath path, const Quantity& q, std::string_view detail) {
  return {std::move(path), "Invalid value: " + q.to_string() + ": " + std::string(detail)};
}

FieldError required(FieldPath path, std::string_view detail) {
  return {std::move(path), "Required value: " + std::string(detail)};
}

FieldError forbidden(FieldPath path, std::string_view detail) {
  return {std::move(path), "Forbidden: " + std::string(detail)};
}

// helper.IsStandardResourceName: the quota resource names plus hugepages.
bool is_standard_resource_name(std::string_view name) {
  static constexpr std::array<std::string_view, 20> kStandard = {"cpu",
                                                                 "memory",
                                                                 "ephemeral-storage",
                                                                 "requests.cpu",
                                                                 "requests.memory",
                                                                 "requests.ephemeral-storage",
                                                                 "limits.cpu",
                                                                 "limits.memory",
                                                                 "limits.ephemeral-storage",
                                                                 "pods",
                                                                 "resourcequotas",
                                                                 "services",
                                                                 "replicationcontrollers",
                                                                 "secrets",
                                                                 "persistentvolumeclaims",
                                                                 "configmaps",
                                                                 "requests.storage",
                                                                 "storage",
                                                                 "services.nodeports",
                                                                 "services.loadbalancers"};
  return std::find(kStandard.begin(), kStandard.end(), name) != kStandard.end() ||
         name.starts_with("hugepages-") || name.starts_with("requests.hugepages-");
}

// helper.IsStandardContainerResourceName.
bool is_standard_container_resource_name(std::string_view name) {
  return name == resource::kCpu || name == resource::kMemory ||
         name == resource::kEphemeralStorage || resource::is_hugepages(name);
}

// validateContainerResourceName (which starts with validateResourceName).
// `path()` builds the field path an error names: a valid object, nearly every one, builds none.
template <class PathOf>
void validate_container_resource_name(std::string_view name, const PathOf& path,
                                      std::vector<FieldError>& errs) {
  const std::vector<std::string> qualified = resource::qualified_name_errors(name);
  for (const std::string& msg : qualified) errs.push_back(invalid(path(), name, msg));
  const bool unprefixed = name.find('/') == std::string_view::npos;
  if (qualified.empty() && unprefixed && !is_standard_resource_name(name)) {
    errs.push_back(invalid(path(), name, "must be a standard resource type or fully qualified"));
  }
  if (unprefixed) {
    if (!is_standard_container_resource_name(name)) {
      errs.push_back(invalid(path(), name, "must be a standard resource for containers"));
    }
  } else if (!resource::is_native(name) && !resource::is_extended(name)) {
    errs.push_back(invalid(path(), name, "doesn't follow extended resource name standard"));
  }
}

// ValidateResourceQuantityValue: non-negative, and whole for integer resources.
template <class PathOf>
void validate_quantity_value(std::string_view name, const Quantity& q, const PathOf& path,
                             std::vector<FieldError>& errs) {
  if (q.milli() < 0) errs.push_back(invalid(path(), q.to_string(), kNegative));
  if (resource::is_integer_resource(name) && !q.is_integer()) {
    errs.push_back(invalid_quantity(path(), q, kNotInteger));
  }
}

// validateResourceQuantityHugePageValue for a new object (AllowIndivisibleHugePagesValues is
// only set on updates of pods that already had such values).
template <class PathOf>
void validate_hugepages_value(std::string_view name, const Quantity& q, const PathOf& path,
                              std::vector<FieldError>& errs) {
  // helper.IsHugePageResourceValueDivisible.
  const std::optional<Quantity> page =
      Quantity::parse(name.substr(std::string_view("hugepages-").size()), nullptr);
  const bool divisible =
      page && page->milli() > 0 && page->is_integer() && q.value() % page->value() == 0;
  if (!divisible) {
    errs.push_back(
        invalid(path(), q.to_string(),
                q.to_string() + " is not positive integer multiple of " + std::string(name)));
  }
}

bool is_cpu_or_memory(std::string_view name) {
  return name == resource::kCpu || name == resource::kMemory;
}

// ValidateResourceRequirements. Upstream ranges over Go maps (random order); here resources
// come in name order.
template <class PathOf>
void validate_requirements(const ResourceList& requests, const ResourceList& limits,
                           const PathOf& path, std::vector<FieldError>& errs) {
  const auto lim_path = [&] { return child(path(), "limits"); };
  const auto req_path = [&] { return child(path(), "requests"); };
  bool cpu_or_memory = false;
  bool hugepages = false;
  for (const auto& entry : limits) {
    // Named, not bound: a lambda below captures the name (Clang 14 cannot capture a binding).
    const std::string& name = entry.first;
    const Quantity& q = entry.second;
    const auto fld = [&] { return key(lim_path(), name); };
    validate_container_resource_name(name, fld, errs);
    validate_quantity_value(name, q, fld, errs);
    if (resource::is_hugepages(name)) {
      hugepages = true;
      validate_hugepages_value(name, q, fld, errs);
    }
    cpu_or_memory = cpu_or_memory || is_cpu_or_memory(name);
  }
  for (const auto& entry : requests) {
    const std::string& name = entry.first;
    const Quantity& q = entry.second;
    const auto fld = [&] { return key(req_path(), name); };
    validate_container_resource_name(name, fld, errs);
    validate_quantity_value(name, q, fld, errs);
    const auto limit = limits.find(name);
    if (limit != limits.end()) {
      // Non-overcommitable resources must request exactly their limit.
      if (q != limit->second && !resource::is_overcommit_allowed(name)) {
        errs.push_back(
            invalid(req_path(), q.to_string(),
                    "must be equal to " + name + " limit of " + limit->second.to_string()));
      } else if (q > limit->second) {
        errs.push_back(invalid(
            req_path(), q.to_string(),
            "must be less than or equal to " + name + " limit of " + limit->second.to_string()));
      }
    } else if (!resource::is_overcommit_allowed(name)) {
      errs.push_back(required(lim_path(), "Limit must be set for non overcommitable resources"));
    }
    if (resource::is_hugepages(name)) {
      hugepages = true;
      validate_hugepages_value(name, q, fld, errs);
    }
    cpu_or_memory = cpu_or_memory || is_cpu_or_memory(name);
  }
  if (hugepages && !cpu_or_memory)
    errs.push_back(forbidden(path(), "HugePages require cpu or memory"));
}

// ErrorList.ToAggregate drops repeated messages from what the client is shown.
void drop_duplicates(std::vector<FieldError>& errs) {
  std::vector<FieldError> unique;
  for (FieldError& e : errs) {
    const bool seen = std::any_of(unique.begin(), unique.end(), [&](const FieldError& u) {
      return u.path == e.path && u.detail == e.detail;
    });
    if (!seen) unique.push_back(std::move(e));
  }
  errs = std::move(unique);
}

}  // namespace

std::string to_field_string(const FieldPath& path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const PathStep& step = path[i];
    switch (step.kind) {
      case PathStep::Kind::Field:
        if (i > 0) out += '.';
        out += step.name;
        break;
      case PathStep::Kind::Index:
        out += '[' + std::to_string(step.index) + ']';
        break;
      case PathStep::Kind::Key:
        out += '[' + step.name + ']';
        break;
    }
  }
  return out;
}

std::string to_json_pointer(const FieldPath& path) {
  std::string out;
  for (const PathStep& step : path) {
    out += '/';
    out += step.kind == PathStep::Kind::Index ? std::to_string(step.index)
                                              : escape_pointer_token(step.name);
  }
  return out;
}

std::vector<FieldError> validate_pod_spec(const PodSpec& spec, const FieldPath& base) {
  // ValidatePodSpec order: containers, then init containers, then overhead.
  std::vector<FieldError> errs;
  const FieldPath containers = child(base, "containers");
  for (std::size_t i = 0; i < spec.containers.size(); ++i) {
    const Container& c = spec.containers[i];
    validate_requirements(
        c.requests, c.limits, [&] { return child(index(containers, i), "resources"); }, errs);
  }
  const FieldPath init_containers = child(base, "initContainers");
  for (std::size_t i = 0; i < spec.init_containers.size(); ++i) {
    const Container& c = spec.init_containers[i];
    validate_requirements(
        c.requests, c.limits, [&] { return child(index(init_containers, i), "resources"); }, errs);
  }
  // validateAffinity: a Gt or Lt node selector requirement has one value, an integer
  // (ValidateNodeSelectorRequirement, labels.NewRequirement). The loader checks these as it
  // reads a file; this catches pods made in code before the scheduler compiles them.
  if (spec.affinity->node_affinity) {
    const NodeAffinity& na = *spec.affinity->node_affinity;
    const FieldPath affinity = child(child(base, "affinity"), "nodeAffinity");
    auto check_term = [&](const NodeSelectorTerm& term, const FieldPath& at) {
      const FieldPath expressions = child(at, "matchExpressions");
      for (std::size_t i = 0; i < term.match_expressions.size(); ++i) {
        const SelectorRequirement& r = term.match_expressions[i];
        if (r.op != SelectorOperator::Gt && r.op != SelectorOperator::Lt) continue;
        const FieldPath values = child(index(expressions, i), "values");
        if (r.values.size() != 1) {
          errs.push_back(
              required(values, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        } else if (!parse_selector_integer(r.values[0])) {
          errs.push_back(invalid(index(values, 0), r.values[0],
                                 "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      }
    };
    if (na.required) {
      const FieldPath terms = child(
          child(affinity, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms");
      for (std::size_t i = 0; i < na.required->size(); ++i)
        check_term((*na.required)[i], index(terms, i));
    }
    const FieldPath preferred = child(affinity, "preferredDuringSchedulingIgnoredDuringExecution");
    for (std::size_t i = 0; i < na.preferred.size(); ++i)
      check_term(na.preferred[i].preference, child(index(preferred, i), "preference"));
  }
  // validateOverhead reuses ValidateResourceRequirements with the overhead as limits, so its
  // errors read `spec.overhead.limits[cpu]`.
  if (!spec.overhead.empty()) {
    validate_requirements(
        {}, spec.overhead, [&] { return child(base, "overhead"); }, errs);
  }
  drop_duplicates(errs);
  return errs;
}

std::vector<FieldError> validate_node(const Node& node) {
  // ValidateNode builds these paths with field.NewPath("status", "capacity", name): the
  // resource name is a path element, not a key, so it prints `status.capacity.nvidia.com/gpu`.
  std::vector<FieldError> errs;
  const std::pair<const char*, const ResourceList*> lists[] = {{"capacity", &node.capacity},
                                                               {"allocatable", &node.allocatable}};
  for (const auto& [field, list] : lists) {
    for (const auto& entry : *list) {
      // Named, not bound: the lambda captures them (Clang 14 cannot capture a binding).
      const char* status_field = field;
      const std::string& name = entry.first;
      validate_quantity_value(
          name, entry.second,
          [&] {
            return FieldPath{{PathStep::Kind::Field, "status", 0},
                             {PathStep::Kind::Field, status_field, 0},
                             {PathStep::Kind::Field, name, 0}};
          },
          errs);
    }
  }
  drop_duplicates(errs);
  return errs;
}

bool matches_label_value(std::string_view value) {
  auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (value.empty() || !alnum(value.front()) || !alnum(value.back())) return false;
  return std::all_of(value.begin(), value.end(),
                     [&](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

}  // namespace gpusched
