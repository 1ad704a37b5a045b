// resource.k8s.io objects as resource.k8s.io/v1 JSON (k8s.io/api/resource/v1 types.go field
// names), leaving out what is unset as the API server's `omitempty` does, and writing the
// defaulted values (allocationMode, count, a toleration's operator) as it stores them. Read
// again (resource_json.cpp), the JSON gives back an equal object.
#include <string>

#include "io/object_json.hpp"
#include "io/resource_json.hpp"

namespace gpusched::io {
namespace {

using nlohmann::json;

json selectors_json(const std::vector<dra::DeviceSelector>& selectors) {
  json out = json::array();
  for (const dra::DeviceSelector& selector : selectors) {
    json item = json::object();
    if (selector.cel) item["cel"] = {{"expression", *selector.cel}};
    out.push_back(std::move(item));
  }
  return out;
}

/// A DeviceConfiguration's `opaque`, its parameters as the JSON they were read from.
json opaque_json(const dra::DeviceConfiguration& config) {
  return {{"driver", config.driver}, {"parameters", json::parse(config.parameters)}};
}

json device_toleration_json(const dra::DeviceToleration& t) {
  json out = json::object();
  if (!t.key.empty()) out["key"] = t.key;
  out["operator"] = t.exists ? "Exists" : "Equal";
  if (!t.value.empty()) out["value"] = t.value;
  if (t.effect) out["effect"] = to_string(*t.effect);
  if (t.toleration_seconds) out["tolerationSeconds"] = *t.toleration_seconds;
  return out;
}

json tolerations_json(const std::vector<dra::DeviceToleration>& tolerations) {
  json out = json::array();
  for (const dra::DeviceToleration& t : tolerations) out.push_back(device_toleration_json(t));
  return out;
}

/// core/v1 NodeSelector.
json node_selector_json(const dra::NodeSelector& selector) {
  auto requirements = [](const std::vector<SelectorRequirement>& list) {
    json out = json::array();
    for (const SelectorRequirement& r : list) {
      json item = {{"key", r.key}, {"operator", to_string(r.op)}};
      if (!r.values.empty()) item["values"] = r.values;
      out.push_back(std::move(item));
    }
    return out;
  };
  json terms = json::array();
  for (const NodeSelectorTerm& term : selector.terms) {
    json item = json::object();
    if (!term.match_expressions.empty()) {
      item["matchExpressions"] = requirements(term.match_expressions);
    }
    if (!term.match_fields.empty()) item["matchFields"] = requirements(term.match_fields);
    terms.push_back(std::move(item));
  }
  return {{"nodeSelectorTerms", std::move(terms)}};
}

json attribute_json(const dra::DeviceAttribute& attribute) {
  switch (attribute.kind) {
    case dra::DeviceAttribute::Kind::Int:
      return {{"int", attribute.int_value}};
    case dra::DeviceAttribute::Kind::Bool:
      return {{"bool", attribute.bool_value}};
    case dra::DeviceAttribute::Kind::String:
      return {{"string", attribute.string_value}};
    case dra::DeviceAttribute::Kind::Version:
      return {{"version", attribute.string_value}};
  }
  return json::object();
}

json request_policy_json(const dra::CapacityRequestPolicy& policy) {
  json out = json::object();
  if (policy.default_value) out["default"] = policy.default_value->to_string();
  for (const Quantity& value : policy.valid_values) out["validValues"].push_back(value.to_string());
  if (const auto& range = policy.valid_range) {
    json r = json::object();
    if (range->min) r["min"] = range->min->to_string();
    if (range->max) r["max"] = range->max->to_string();
    if (range->step) r["step"] = range->step->to_string();
    out["validRange"] = std::move(r);
  }
  return out;
}

json counters_json(const dra::CounterMap& counters) {
  json out = json::object();
  for (const auto& [name, value] : counters) out[name] = {{"value", value.to_string()}};
  return out;
}

json device_json(const dra::Device& device) {
  json out = {{"name", device.name}};
  for (const auto& [name, attribute] : device.attributes) {
    out["attributes"][name] = attribute_json(attribute);
  }
  for (const auto& [name, capacity] : device.capacity) {
    json item = {{"value", capacity.value.to_string()}};
    if (capacity.request_policy)
      item["requestPolicy"] = request_policy_json(*capacity.request_policy);
    out["capacity"][name] = std::move(item);
  }
  for (const dra::DeviceCounterConsumption& c : device.consumes_counters) {
    out["consumesCounters"].push_back(
        {{"counterSet", c.counter_set}, {"counters", counters_json(c.counters)}});
  }
  if (device.node_name) out["nodeName"] = *device.node_name;
  if (device.node_selector) out["nodeSelector"] = node_selector_json(*device.node_selector);
  if (device.all_nodes) out["allNodes"] = true;
  for (const dra::DeviceTaint& taint : device.taints) {
    json item = {{"key", taint.key}, {"effect", to_string(taint.effect)}};
    if (!taint.value.empty()) item["value"] = taint.value;
    out["taints"].push_back(std::move(item));
  }
  if (device.binds_to_node) out["bindsToNode"] = true;
  if (!device.binding_conditions.empty()) out["bindingConditions"] = device.binding_conditions;
  if (!device.binding_failure_conditions.empty()) {
    out["bindingFailureConditions"] = device.binding_failure_conditions;
  }
  if (device.allow_multiple_allocations) {
    out["allowMultipleAllocations"] = *device.allow_multiple_allocations;
  }
  return out;
}

/// The fields ExactDeviceRequest and DeviceSubRequest share, added to `out`.
template <typename Request>
void request_fields_json(const Request& request, json& out) {
  out["deviceClassName"] = request.device_class_name;
  if (!request.selectors.empty()) out["selectors"] = selectors_json(request.selectors);
  const bool all = request.allocation_mode == dra::AllocationMode::All;
  out["allocationMode"] = all ? "All" : "ExactCount";
  if (!all) out["count"] = request.count;
  if (!request.tolerations.empty()) out["tolerations"] = tolerations_json(request.tolerations);
  if (request.capacity) out["capacity"] = {{"requests", resources_json(*request.capacity)}};
}

json request_json(const dra::DeviceRequest& request) {
  json out = {{"name", request.name}};
  if (const auto& exactly = request.exactly) {
    json exact = json::object();
    request_fields_json(*exactly, exact);
    if (exactly->admin_access) exact["adminAccess"] = *exactly->admin_access;
    out["exactly"] = std::move(exact);
  }
  for (const dra::DeviceSubRequest& sub : request.first_available) {
    json item = {{"name", sub.name}};
    request_fields_json(sub, item);
    out["firstAvailable"].push_back(std::move(item));
  }
  return out;
}

json claim_spec_json(const dra::ResourceClaimSpec& spec) {
  json devices = json::object();
  for (const dra::DeviceRequest& request : spec.requests) {
    devices["requests"].push_back(request_json(request));
  }
  for (const dra::DeviceConstraint& c : spec.constraints) {
    json item = json::object();
    if (!c.requests.empty()) item["requests"] = c.requests;
    if (c.match_attribute) item["matchAttribute"] = *c.match_attribute;
    if (c.distinct_attribute) item["distinctAttribute"] = *c.distinct_attribute;
    devices["constraints"].push_back(std::move(item));
  }
  for (const dra::DeviceClaimConfiguration& c : spec.config) {
    json item = {{"opaque", opaque_json(c.config)}};
    if (!c.requests.empty()) item["requests"] = c.requests;
    devices["config"].push_back(std::move(item));
  }
  return {{"devices", std::move(devices)}};
}

json result_json(const dra::DeviceRequestAllocationResult& r) {
  json out = {{"request", r.request}, {"driver", r.driver}, {"pool", r.pool}, {"device", r.device}};
  if (r.admin_access) out["adminAccess"] = *r.admin_access;
  if (!r.tolerations.empty()) out["tolerations"] = tolerations_json(r.tolerations);
  if (!r.binding_conditions.empty()) out["bindingConditions"] = r.binding_conditions;
  if (!r.binding_failure_conditions.empty()) {
    out["bindingFailureConditions"] = r.binding_failure_conditions;
  }
  if (r.share_id) out["shareID"] = *r.share_id;
  if (!r.consumed_capacity.empty()) out["consumedCapacity"] = resources_json(r.consumed_capacity);
  return out;
}

json allocation_json(const dra::AllocationResult& allocation) {
  json devices = json::object();
  for (const dra::DeviceRequestAllocationResult& r : allocation.devices) {
    devices["results"].push_back(result_json(r));
  }
  for (const dra::DeviceAllocationConfiguration& c : allocation.config) {
    json item = {{"source", c.source == dra::ConfigSource::FromClaim ? "FromClaim" : "FromClass"},
                 {"opaque", opaque_json(c.config)}};
    if (!c.requests.empty()) item["requests"] = c.requests;
    devices["config"].push_back(std::move(item));
  }
  json out = {{"devices", std::move(devices)}};
  if (allocation.node_selector) out["nodeSelector"] = node_selector_json(*allocation.node_selector);
  return out;
}

}  // namespace

json object_json(const dra::DeviceClass& device_class) {
  json spec = json::object();
  if (!device_class.selectors.empty()) spec["selectors"] = selectors_json(device_class.selectors);
  for (const dra::DeviceConfiguration& config : device_class.config) {
    spec["config"].push_back({{"opaque", opaque_json(config)}});
  }
  if (device_class.extended_resource_name) {
    spec["extendedResourceName"] = *device_class.extended_resource_name;
  }
  return {{"spec", std::move(spec)}};
}

json object_json(const dra::ResourceSlice& slice) {
  json spec = {{"driver", slice.driver},
               {"pool",
                {{"name", slice.pool.name},
                 {"generation", slice.pool.generation},
                 {"resourceSliceCount", slice.pool.resource_slice_count}}}};
  if (slice.node_name) spec["nodeName"] = *slice.node_name;
  if (slice.node_selector) spec["nodeSelector"] = node_selector_json(*slice.node_selector);
  if (slice.all_nodes) spec["allNodes"] = true;
  if (slice.per_device_node_selection) spec["perDeviceNodeSelection"] = true;
  for (const dra::Device& device : slice.devices) spec["devices"].push_back(device_json(device));
  for (const dra::CounterSet& set : slice.shared_counters) {
    spec["sharedCounters"].push_back(
        {{"name", set.name}, {"counters", counters_json(set.counters)}});
  }
  return {{"spec", std::move(spec)}};
}

json object_json(const dra::ResourceClaim& claim) {
  json out = {{"spec", claim_spec_json(claim.spec)}};
  const dra::ResourceClaimStatus& status = claim.status;
  if (status.allocation) out["status"]["allocation"] = allocation_json(*status.allocation);
  for (const dra::ConsumerReference& ref : status.reserved_for) {
    out["status"]["reservedFor"].push_back(
        {{"resource", ref.resource}, {"name", ref.name}, {"uid", ref.uid}});
  }
  return out;
}

json object_json(const dra::ResourceClaimTemplate& claim_template) {
  json meta = json::object();
  if (!claim_template.claim_labels.empty()) meta["labels"] = claim_template.claim_labels;
  if (!claim_template.claim_annotations.empty()) {
    meta["annotations"] = claim_template.claim_annotations;
  }
  json spec = {{"spec", claim_spec_json(claim_template.spec)}};
  if (!meta.empty()) spec["metadata"] = std::move(meta);
  return {{"spec", std::move(spec)}};
}

}  // namespace gpusched::io
