#include "io/kueue_json.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "gpusched/model/kueue.hpp"
#include "gpusched/model/validation.hpp"
#include "io/api_validation.hpp"
#include "io/object_json.hpp"

namespace gpusched::io {
namespace {

using nlohmann::json;
using Fields = std::span<const std::string_view>;

constexpr std::string_view kKueueKinds[] = {"ResourceFlavor",
                                            "ClusterQueue",
                                            "LocalQueue",
                                            "Cohort",
                                            "WorkloadPriorityClass",
                                            "AdmissionCheck",
                                            "ProvisioningRequestConfig",
                                            "Workload"};

/// The versions Kueue 0.19 serves for every modelled kind (the CRDs' spec.versions).
constexpr std::string_view kV1beta2 = "kueue.x-k8s.io/v1beta2";
constexpr std::string_view kV1beta1 = "kueue.x-k8s.io/v1beta1";

/// The CRDs' patterns (kubebuilder:validation:Pattern), printed as the schema validator quotes
/// them: `<field> in body should match '<pattern>'`.
constexpr std::string_view kDns1123SubdomainPattern =
    "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
constexpr std::string_view kQuantityPattern =
    "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\."
    "[0-9]*)?)|(\\.[0-9]+))))?$";

// The JSON fields of each type (the `json:"..."` tags of apis/kueue/v1beta2 and v1beta1), for
// the unknown-field warnings.
constexpr std::string_view kObjectFields[] = {"apiVersion", "kind", "metadata", "spec", "status"};
constexpr std::string_view kWpcFields[] = {"apiVersion", "description", "kind", "metadata",
                                           "value"};
constexpr std::string_view kResourceFlavorSpec[] = {"nodeLabels", "nodeTaints", "tolerations",
                                                    "topologyName"};
constexpr std::string_view kTaintFields[] = {"effect", "key", "timeAdded", "value"};
constexpr std::string_view kTolerationFields[] = {"effect", "key", "operator", "tolerationSeconds",
                                                  "value"};
constexpr std::string_view kClusterQueueSpec[] = {"admissionChecks",   "admissionChecksStrategy",
                                                  "admissionScope",    "cohort",
                                                  "cohortName",        "concurrentAdmissionPolicy",
                                                  "fairSharing",       "flavorFungibility",
                                                  "namespaceSelector", "preemption",
                                                  "queueingStrategy",  "resourceGroups",
                                                  "stopPolicy"};
constexpr std::string_view kResourceGroupFields[] = {"coveredResources", "flavors"};
constexpr std::string_view kFlavorQuotasFields[] = {"name", "resources"};
constexpr std::string_view kResourceQuotaFields[] = {"borrowingLimit", "lendingLimit", "name",
                                                     "nominalQuota"};
constexpr std::string_view kFairSharingFields[] = {"weight"};
constexpr std::string_view kFungibilityFields[] = {"preference", "whenCanBorrow", "whenCanPreempt"};
constexpr std::string_view kPreemptionFields[] = {"borrowWithinCohort", "reclaimWithinCohort",
                                                  "withinClusterQueue"};
constexpr std::string_view kBorrowWithinCohortFields[] = {"maxPriorityThreshold", "policy"};
constexpr std::string_view kAdmissionChecksStrategyFields[] = {"admissionChecks"};
constexpr std::string_view kAdmissionCheckRuleFields[] = {"name", "onFlavors"};
constexpr std::string_view kLocalQueueSpec[] = {"clusterQueue", "fairSharing", "stopPolicy"};
constexpr std::string_view kCohortSpec[] = {"fairSharing", "parentName", "resourceGroups"};
constexpr std::string_view kAdmissionCheckSpec[] = {"controllerName", "parameters",
                                                    "retryDelayMinutes"};
constexpr std::string_view kParametersFields[] = {"apiGroup", "kind", "name"};
constexpr std::string_view kProvisioningRequestConfigSpec[] = {
    "managedResources",      "parameters",   "podSetMergePolicy", "podSetUpdates",
    "provisioningClassName", "retryStrategy"};
constexpr std::string_view kWorkloadSpec[] = {
    "active",   "maximumExecutionTimeSeconds", "podSets",          "preemptionGates",
    "priority", "priorityClassName",           "priorityClassRef", "priorityClassSource",
    "queueName"};
constexpr std::string_view kPodSetFields[] = {"count", "minCount", "name", "template",
                                              "topologyRequest"};
constexpr std::string_view kPriorityClassRefFields[] = {"group", "kind", "name"};
// v1beta1 spells one status field accumulatedPastExexcutionTimeSeconds.
constexpr std::string_view kWorkloadStatus[] = {"accumulatedPastExecutionTimeSeconds",
                                                "accumulatedPastExexcutionTimeSeconds",
                                                "admission",
                                                "admissionChecks",
                                                "clusterName",
                                                "conditions",
                                                "nominatedClusterNames",
                                                "preemptionGates",
                                                "reclaimablePods",
                                                "requeueState",
                                                "resourceRequests",
                                                "schedulingStats",
                                                "unhealthyNodes"};
constexpr std::string_view kConditionFields[] = {
    "lastTransitionTime", "message", "observedGeneration", "reason", "status", "type"};
constexpr std::string_view kAdmissionFields[] = {"clusterQueue", "podSetAssignments"};
constexpr std::string_view kPodSetAssignmentFields[] = {
    "count", "delayedTopologyRequest", "flavors", "name", "resourceUsage", "topologyAssignment"};
constexpr std::string_view kRequeueStateFields[] = {"count", "requeueAt"};

/// Kueue's webhooks (the kubebuilder:webhook markers of pkg/webhooks).
constexpr std::string_view kClusterQueueWebhook = "vclusterqueue.kb.io";
constexpr std::string_view kCohortWebhook = "vcohort.kb.io";
constexpr std::string_view kResourceFlavorWebhook = "vresourceflavor.kb.io";
constexpr std::string_view kWorkloadWebhook = "vworkload.kb.io";

/// pkg/webhooks/clusterqueue_webhook.go.
constexpr std::string_view kLimitIsEmptyCohort = "must be nil when cohort is empty";
constexpr std::string_view kLimitIsEmptyParent = "must be nil when parent is empty";
constexpr std::string_view kLendingLimitErrorMsg = "must be less than or equal to the nominalQuota";
/// apimachinery validation.IsNegativeErrorMsg.
constexpr std::string_view kIsNegativeErrorMsg = "must be greater than or equal to 0";

bool matches_dns1123_subdomain(std::string_view text) {
  return !text.empty() && dns1123_subdomain_errors(text).empty();
}

class KueueParser {
 public:
  KueueParser(ObjectFields& fields, std::string kind)
      : fields_(fields), root_(fields.root()), kind_(std::move(kind)) {}

  Object parse() {
    if (auto version = root_.get("apiVersion")) {
      version_ = version->string();
      if (version_ != kV1beta2 && version_ != kV1beta1) {
        version->fail("apiVersion \"" + version_ + "\" does not serve kind " + kind_ + "; use \"" +
                      std::string(kV1beta2) + "\"");
      }
    }
    root_.note_unknown_keys(kind_ == "WorkloadPriorityClass" ? Fields(kWpcFields)
                                                             : Fields(kObjectFields));
    if (kind_ == "ResourceFlavor") return parse_resource_flavor();
    if (kind_ == "ClusterQueue") return parse_cluster_queue();
    if (kind_ == "LocalQueue") return parse_local_queue();
    if (kind_ == "Cohort") return parse_cohort();
    if (kind_ == "WorkloadPriorityClass") return parse_workload_priority_class();
    if (kind_ == "AdmissionCheck") return parse_admission_check();
    if (kind_ == "ProvisioningRequestConfig") return parse_provisioning_request_config();
    if (kind_ == "Workload") return parse_workload();
    root_.required("kind").fail("kind \"" + kind_ +
                                "\" of kueue.x-k8s.io is not modelled (modelled: ResourceFlavor, "
                                "ClusterQueue, LocalQueue, Cohort, WorkloadPriorityClass, "
                                "AdmissionCheck, ProvisioningRequestConfig, Workload)");
  }

 private:
  bool v1beta1() const { return version_ == kV1beta1; }

  // --- errors: the CRD's schema and CEL rules, then the webhooks ---------------------------

  /// The API server's refusal: `The <Kind> "<name>" is invalid: <field>: <detail>`.
  [[noreturn]] void invalid(const JsonNode& at, std::string_view detail) const {
    at.fail_field(detail, "The " + kind_ + " " + go_quote(name_) + " is invalid: ");
  }
  /// A CEL rule's failure: `Invalid value: "object": <message>` (the value is the schema type).
  [[noreturn]] void cel(const JsonNode& at, std::string_view type, std::string_view message) const {
    invalid(at, invalid_value(type, message));
  }
  /// A validating webhook's denial: the API server's `admission webhook "<name>" denied the
  /// request: ` before the field.ErrorList's text.
  [[noreturn]] static void denied(std::string_view webhook, const JsonNode& at,
                                  std::string_view detail) {
    at.fail_field(detail,
                  "admission webhook \"" + std::string(webhook) + "\" denied the request: ");
  }

  /// A string of an enum: `Unsupported value: "x": supported values: "a", "b"`.
  std::string enum_value(const JsonNode& node,
                         std::initializer_list<std::string_view> values) const {
    std::string text = node.string();
    if (std::find(values.begin(), values.end(), text) == values.end()) {
      invalid(node, not_supported(text, values));
    }
    return text;
  }

  /// A reference with the CRD's DNS-1123 subdomain pattern and 253-byte limit.
  std::string reference(const JsonNode& node) const {
    std::string text = node.string();
    if (text.size() > 253) invalid(node, "Too long: may not be more than 253 bytes");
    if (!matches_dns1123_subdomain(text)) {
      invalid(node, invalid_value(text, to_field_string(node.path()) + " in body should match '" +
                                            std::string(kDns1123SubdomainPattern) + "'"));
    }
    return text;
  }

  /// An int-or-string quantity (the CRD's pattern).
  Quantity quantity(const JsonNode& node) const {
    std::string text;
    std::string error;
    std::optional<Quantity> value = read_quantity(node, text, &error);
    if (!value) {
      invalid(node, invalid_value(text, to_field_string(node.path()) + " in body should match '" +
                                            std::string(kQuantityPattern) + "'"));
    }
    return *value;
  }

  /// A list's `maxItems` and `minItems`, as the schema validator reports them.
  void item_count(const JsonNode& node, std::size_t min, std::size_t max) const {
    const std::size_t size = node.json().size();
    if (size > max) {
      invalid(node, "Too many: " + std::to_string(size) + ": must have at most " +
                        std::to_string(max) + " items");
    }
    if (size < min) {
      invalid(node, invalid_value(static_cast<std::int64_t>(size),
                                  to_field_string(node.path()) + " in body should have at least " +
                                      std::to_string(min) + " items"));
    }
  }

  JsonNode required(const JsonNode& parent, std::string_view key) const {
    std::optional<JsonNode> node = parent.get(key);
    if (!node) invalid(parent.missing(key), required_value());
    return *node;
  }

  std::optional<JsonNode> spec() const {
    std::optional<JsonNode> spec = root_.get("spec");
    if (spec) spec->expect_type(json::value_t::object, "an object");
    return spec;
  }

  // --- shared pieces --------------------------------------------------------------------

  std::optional<kueue::FairSharing> fair_sharing(const std::optional<JsonNode>& spec) const {
    std::optional<JsonNode> node = spec ? spec->get("fairSharing") : std::nullopt;
    if (!node) return std::nullopt;
    node->note_unknown_keys(kFairSharingFields);
    kueue::FairSharing out;
    // The CRD defaults weight to 1.
    out.weight = Quantity(1000);
    if (auto weight = node->get("weight")) out.weight = quantity(*weight);
    return out;
  }

  /// validateFairSharing (pkg/webhooks/common.go). Weights finer than a milli-unit round up
  /// when read, so the `When not 0, weight must be > 10e-9` rule cannot be met.
  static void validate_fair_sharing(std::string_view webhook,
                                    const std::optional<kueue::FairSharing>& fs,
                                    const std::optional<JsonNode>& spec) {
    if (!fs || !fs->weight || fs->weight->milli() >= 0) return;
    const JsonNode place = spec->required("fairSharing");
    denied(webhook, place, invalid_value(fs->weight->to_string(), kIsNegativeErrorMsg));
  }

  std::vector<kueue::ResourceGroup> resource_groups(const std::optional<JsonNode>& spec) const {
    std::vector<kueue::ResourceGroup> out;
    std::optional<JsonNode> groups = spec ? spec->get("resourceGroups") : std::nullopt;
    if (!groups) return out;
    item_count(*groups, 0, 16);
    for (const JsonNode& group_node : groups->elements()) {
      group_node.note_unknown_keys(kResourceGroupFields);
      kueue::ResourceGroup group;
      const JsonNode covered = required(group_node, "coveredResources");
      item_count(covered, 1, 64);
      for (const JsonNode& name : covered.elements())
        group.covered_resources.push_back(name.string());
      const JsonNode flavors = required(group_node, "flavors");
      item_count(flavors, 1, 64);
      for (const JsonNode& flavor_node : flavors.elements()) {
        flavor_node.note_unknown_keys(kFlavorQuotasFields);
        kueue::FlavorQuotas flavor;
        flavor.name = reference(required(flavor_node, "name"));
        const JsonNode resources = required(flavor_node, "resources");
        item_count(resources, 1, 64);
        for (const JsonNode& quota_node : resources.elements()) {
          quota_node.note_unknown_keys(kResourceQuotaFields);
          kueue::ResourceQuota quota;
          quota.name = required(quota_node, "name").string();
          quota.nominal_quota = quantity(required(quota_node, "nominalQuota"));
          if (auto limit = quota_node.get("borrowingLimit"))
            quota.borrowing_limit = quantity(*limit);
          if (auto limit = quota_node.get("lendingLimit")) quota.lending_limit = quantity(*limit);
          flavor.resources.push_back(std::move(quota));
        }
        group.flavors.push_back(std::move(flavor));
      }
      // The ResourceGroup's CEL rule.
      for (const kueue::FlavorQuotas& flavor : group.flavors) {
        if (flavor.resources.size() != group.covered_resources.size()) {
          cel(group_node, "object",
              "flavors must have the same number of resources as the coveredResources");
        }
      }
      out.push_back(std::move(group));
    }
    return out;
  }

  /// validateResourceGroups and validateFlavorQuotas (pkg/webhooks/clusterqueue_webhook.go),
  /// shared by ClusterQueues and Cohorts.
  static void validate_resource_groups(std::string_view webhook,
                                       const std::vector<kueue::ResourceGroup>& groups,
                                       const JsonNode& groups_node, bool has_parent,
                                       bool enforce_nominal_greater_than_lending, bool is_cohort) {
    std::set<std::string> seen_resources;
    std::set<std::string> seen_flavors;
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const kueue::ResourceGroup& group = groups[i];
      const JsonNode group_node = groups_node.element(i);
      const JsonNode covered = group_node.required("coveredResources");
      for (std::size_t j = 0; j < group.covered_resources.size(); ++j) {
        const std::string& name = group.covered_resources[j];
        for (const std::string& message : resource::qualified_name_errors(name)) {
          denied(webhook, covered.element(j), invalid_value(name, message));
        }
        if (!seen_resources.insert(name).second) {
          denied(webhook, covered.element(j), duplicate_value(name));
        }
      }
      const JsonNode flavors = group_node.required("flavors");
      for (std::size_t j = 0; j < group.flavors.size(); ++j) {
        const kueue::FlavorQuotas& flavor = group.flavors[j];
        const JsonNode flavor_node = flavors.element(j);
        const JsonNode resources = flavor_node.required("resources");
        for (std::size_t k = 0; k < flavor.resources.size() && k < group.covered_resources.size();
             ++k) {
          const kueue::ResourceQuota& quota = flavor.resources[k];
          const JsonNode quota_node = resources.element(k);
          if (quota.name != group.covered_resources[k]) {
            denied(webhook, quota_node.required("name"),
                   invalid_value(quota.name, "must match the name in coveredResources"));
          }
          if (quota.nominal_quota.milli() < 0) {
            denied(webhook, quota_node.required("nominalQuota"),
                   invalid_value(quota.nominal_quota.to_string(), kIsNegativeErrorMsg));
          }
          const std::string_view no_parent = is_cohort ? kLimitIsEmptyParent : kLimitIsEmptyCohort;
          if (quota.borrowing_limit) {
            const JsonNode at = quota_node.required("borrowingLimit");
            if (!has_parent)
              denied(webhook, at, invalid_value(quota.borrowing_limit->to_string(), no_parent));
            if (quota.borrowing_limit->milli() < 0) {
              denied(webhook, at,
                     invalid_value(quota.borrowing_limit->to_string(), kIsNegativeErrorMsg));
            }
          }
          if (quota.lending_limit) {
            const JsonNode at = quota_node.required("lendingLimit");
            const std::string text = quota.lending_limit->to_string();
            if (quota.lending_limit->milli() < 0)
              denied(webhook, at, invalid_value(text, kIsNegativeErrorMsg));
            if (!has_parent) denied(webhook, at, invalid_value(text, no_parent));
            if (enforce_nominal_greater_than_lending &&
                quota.lending_limit->milli() > quota.nominal_quota.milli()) {
              denied(webhook, at, invalid_value(text, kLendingLimitErrorMsg));
            }
          }
        }
        if (!seen_flavors.insert(flavor.name).second) {
          denied(webhook, flavor_node.required("name"), duplicate_value(flavor.name));
        }
      }
    }
  }

  Toleration toleration(const JsonNode& node) const {
    node.note_unknown_keys(kTolerationFields);
    Toleration t;
    if (auto key = node.get("key")) t.key = key->string();
    if (auto op = node.get("operator")) {
      t.op = op->string() == "Exists" ? TolerationOperator::Exists : TolerationOperator::Equal;
    }
    if (auto value = node.get("value")) t.value = value->string();
    if (auto effect = node.get("effect")) {
      for (TaintEffect e :
           {TaintEffect::NoSchedule, TaintEffect::PreferNoSchedule, TaintEffect::NoExecute}) {
        if (to_string(e) == effect->string()) t.effect = e;
      }
    }
    if (auto seconds = node.get("tolerationSeconds")) t.toleration_seconds = seconds->integer();
    return t;
  }

  // --- kinds ----------------------------------------------------------------------------

  Object parse_resource_flavor() {
    kueue::ResourceFlavor rf;
    rf.metadata = fields_.metadata(false);
    name_ = rf.metadata.name;
    const std::optional<JsonNode> spec = this->spec();
    if (spec) {
      spec->note_unknown_keys(kResourceFlavorSpec);
      if (auto labels = spec->get("nodeLabels")) {
        for (const auto& [key, value] : labels->entries())
          rf.node_labels.emplace(key, value.string());
      }
      if (auto taints = spec->get("nodeTaints")) {
        item_count(*taints, 0, 8);
        for (const JsonNode& item : taints->elements()) {
          item.note_unknown_keys(kTaintFields);
          Taint taint;
          taint.key = required(item, "key").string();
          if (auto value = item.get("value")) taint.value = value->string();
          const std::string effect = required(item, "effect").string();
          bool known = false;
          for (TaintEffect e :
               {TaintEffect::NoSchedule, TaintEffect::PreferNoSchedule, TaintEffect::NoExecute}) {
            if (to_string(e) == effect) {
              taint.effect = e;
              known = true;
            }
          }
          if (!known) {
            cel(*taints, "array",
                "supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute'");
          }
          rf.node_taints.push_back(std::move(taint));
        }
      }
      if (auto tolerations = spec->get("tolerations")) {
        item_count(*tolerations, 0, 8);
        // The CRD's CEL rules on the list, in the CRD's order.
        const json& list = tolerations->json();
        auto all = [&](auto&& rule) {
          return std::all_of(list.begin(), list.end(),
                             [&](const json& x) { return !x.is_object() || rule(x); });
        };
        auto has = [](const json& x, const char* key) {
          return x.contains(key) && !x.at(key).is_null();
        };
        auto text = [&](const json& x, const char* key) {
          return has(x, key) && x.at(key).is_string() ? x.at(key).get<std::string>()
                                                      : std::string();
        };
        if (!all([&](const json& x) { return has(x, "key") || text(x, "operator") == "Exists"; })) {
          cel(*tolerations, "array",
              "operator must be Exists when 'key' is empty, which means 'match all values and all "
              "keys'");
        }
        if (!all([&](const json& x) {
              return !has(x, "tolerationSeconds") || text(x, "effect") == "NoExecute";
            })) {
          cel(*tolerations, "array", "effect must be 'NoExecute' when 'tolerationSeconds' is set");
        }
        if (!all([&](const json& x) {
              return !has(x, "operator") || text(x, "operator") == "Equal" ||
                     text(x, "operator") == "Exists";
            })) {
          cel(*tolerations, "array", "supported toleration values: 'Equal'(default), 'Exists'");
        }
        if (!all([&](const json& x) {
              return !(has(x, "operator") && text(x, "operator") == "Exists") || !has(x, "value");
            })) {
          cel(*tolerations, "array", "a value must be empty when 'operator' is 'Exists'");
        }
        if (!all([&](const json& x) {
              const std::string e = text(x, "effect");
              return !has(x, "effect") || e == "NoSchedule" || e == "PreferNoSchedule" ||
                     e == "NoExecute";
            })) {
          cel(*tolerations, "array",
              "supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute'");
        }
        for (const JsonNode& item : tolerations->elements())
          rf.tolerations.push_back(toleration(item));
      }
      if (auto topology = spec->get("topologyName")) {
        rf.topology_name = reference(*topology);
        if (rf.node_labels.empty()) {
          cel(*spec, "object", "at least one nodeLabel is required when topology is set");
        }
        topology->note_not_modelled(
            "Topology Aware Scheduling is not modelled: the flavor's topology does not place "
            "pods");
      }
    }
    // ValidateResourceFlavor (pkg/webhooks/resourceflavor_webhook.go).
    if (spec) {
      if (auto labels = spec->get("nodeLabels")) {
        for (const auto& [key, value] : labels->entries()) {
          for (const std::string& message : resource::qualified_name_errors(key)) {
            denied(kResourceFlavorWebhook, value, invalid_value(key, message));
          }
          for (const std::string& message : label_value_errors(value.string())) {
            denied(kResourceFlavorWebhook, value, invalid_value(value.string(), message));
          }
        }
      }
      std::set<std::pair<TaintEffect, std::string>> unique;
      for (std::size_t i = 0; i < rf.node_taints.size(); ++i) {
        const Taint& taint = rf.node_taints[i];
        const JsonNode item = spec->required("nodeTaints").element(i);
        for (const std::string& message : resource::qualified_name_errors(taint.key)) {
          denied(kResourceFlavorWebhook, item.required("key"), invalid_value(taint.key, message));
        }
        if (std::vector<std::string> errors = label_value_errors(taint.value); !errors.empty()) {
          std::string joined;
          for (const std::string& e : errors) joined += (joined.empty() ? "" : ";") + e;
          denied(kResourceFlavorWebhook, item.missing("value"), invalid_value(taint.value, joined));
        }
        if (!unique.emplace(taint.effect, taint.key).second) {
          // field.Duplicate of a Taint, its detail replaced.
          denied(kResourceFlavorWebhook, item,
                 "Duplicate value: " + go_taint(taint) +
                     ": taints must be unique by key and effect pair");
        }
      }
      for (std::size_t i = 0; i < rf.tolerations.size(); ++i) {
        const Toleration& t = rf.tolerations[i];
        if (t.key.empty()) continue;
        for (const std::string& message : resource::qualified_name_errors(t.key)) {
          denied(kResourceFlavorWebhook, spec->required("tolerations").element(i).required("key"),
                 invalid_value(t.key, message));
        }
      }
    }
    return rf;
  }

  /// Go's %#v of a v1.Taint, as field.Duplicate prints it.
  static std::string go_taint(const Taint& taint) {
    return "v1.Taint{Key:" + go_quote(taint.key) + ", Value:" + go_quote(taint.value) +
           ", Effect:" + go_quote(to_string(taint.effect)) + ", TimeAdded:<nil>}";
  }

  Object parse_cluster_queue() {
    kueue::ClusterQueue cq;
    cq.metadata = fields_.metadata(false);
    name_ = cq.metadata.name;
    const std::optional<JsonNode> spec = this->spec();
    if (spec) {
      spec->note_unknown_keys(kClusterQueueSpec);
      // v1beta1 names the cohort `cohort` (Convert_v1beta1_ClusterQueueSpec_To_v1beta2).
      if (auto cohort = spec->get(v1beta1() ? "cohort" : "cohortName"))
        cq.cohort_name = reference(*cohort);
      cq.resource_groups = resource_groups(spec);
      if (cq.cohort_name.empty()) {
        for (const kueue::ResourceGroup& group : cq.resource_groups) {
          for (const kueue::FlavorQuotas& flavor : group.flavors) {
            for (const kueue::ResourceQuota& quota : flavor.resources) {
              if (quota.borrowing_limit) {
                cel(*spec, "object", "borrowingLimit must be nil when cohort is empty");
              }
            }
          }
        }
      }
      if (auto strategy = spec->get("queueingStrategy")) {
        cq.queueing_strategy =
            enum_value(*strategy, {"StrictFIFO", "BestEffortFIFO"}) == "StrictFIFO"
                ? kueue::QueueingStrategy::StrictFIFO
                : kueue::QueueingStrategy::BestEffortFIFO;
      }
      if (auto selector = spec->get("namespaceSelector")) {
        cq.namespace_selector = fields_.label_selector(*selector);
      }
      if (auto fungibility = spec->get("flavorFungibility")) {
        parse_fungibility(*fungibility, cq.flavor_fungibility);
      }
      if (auto preemption = spec->get("preemption")) parse_preemption(*preemption, cq.preemption);
      if (auto policy = spec->get("stopPolicy")) cq.stop_policy = stop_policy_of(*policy);
      cq.fair_sharing = fair_sharing(spec);
      parse_admission_checks(*spec, cq);
      if (auto scope = spec->get("admissionScope")) {
        scope->note_not_modelled(
            "admission fair sharing (admissionScope) is not modelled: workloads are ordered as "
            "without it");
      }
      if (auto policy = spec->get("concurrentAdmissionPolicy")) {
        policy->note_not_modelled("concurrent admission (ConcurrentAdmission) is not modelled");
      }
      // ValidateClusterQueue (pkg/webhooks/clusterqueue_webhook.go), in its order.
      if (auto groups = spec->get("resourceGroups")) {
        validate_resource_groups(kClusterQueueWebhook, cq.resource_groups, *groups,
                                 !cq.cohort_name.empty(), true, false);
      }
      validate_fair_sharing(kClusterQueueWebhook, cq.fair_sharing, spec);
      validate_totals(cq.resource_groups, *spec);
      validate_on_flavors(cq, *spec);
    }
    return cq;
  }

  void parse_fungibility(const JsonNode& node, kueue::FlavorFungibility& out) const {
    node.note_unknown_keys(kFungibilityFields);
    auto policy = [&](const JsonNode& value, std::string_view deprecated) {
      // v1beta1's Borrow and Preempt became MayStopSearch.
      const std::string text =
          v1beta1() ? enum_value(value, {"MayStopSearch", "TryNextFlavor", deprecated})
                    : enum_value(value, {"MayStopSearch", "TryNextFlavor"});
      return text == "TryNextFlavor" ? kueue::FlavorFungibilityPolicy::TryNextFlavor
                                     : kueue::FlavorFungibilityPolicy::MayStopSearch;
    };
    if (auto borrow = node.get("whenCanBorrow")) out.when_can_borrow = policy(*borrow, "Borrow");
    if (auto preempt = node.get("whenCanPreempt"))
      out.when_can_preempt = policy(*preempt, "Preempt");
    if (auto preference = node.get("preference")) {
      const std::string text =
          enum_value(*preference, {"BorrowingOverPreemption", "PreemptionOverBorrowing"});
      out.preference = text == "BorrowingOverPreemption"
                           ? kueue::FlavorFungibilityPreference::BorrowingOverPreemption
                           : kueue::FlavorFungibilityPreference::PreemptionOverBorrowing;
      if (out.when_can_borrow != kueue::FlavorFungibilityPolicy::TryNextFlavor ||
          out.when_can_preempt != kueue::FlavorFungibilityPolicy::TryNextFlavor) {
        cel(node, "object",
            "preference can only be set when both whenCanBorrow and whenCanPreempt are "
            "TryNextFlavor");
      }
    }
  }

  void parse_preemption(const JsonNode& node, kueue::ClusterQueuePreemption& out) const {
    node.note_unknown_keys(kPreemptionFields);
    auto policy = [](const std::string& text) {
      if (text == "Any") return kueue::PreemptionPolicy::Any;
      if (text == "LowerPriority") return kueue::PreemptionPolicy::LowerPriority;
      if (text == "LowerOrNewerEqualPriority")
        return kueue::PreemptionPolicy::LowerOrNewerEqualPriority;
      return kueue::PreemptionPolicy::Never;
    };
    if (auto reclaim = node.get("reclaimWithinCohort")) {
      out.reclaim_within_cohort = policy(enum_value(*reclaim, {"Never", "LowerPriority", "Any"}));
    }
    if (auto within = node.get("withinClusterQueue")) {
      out.within_cluster_queue =
          policy(enum_value(*within, {"Never", "LowerPriority", "LowerOrNewerEqualPriority"}));
    }
    if (auto borrow = node.get("borrowWithinCohort")) {
      borrow->note_unknown_keys(kBorrowWithinCohortFields);
      if (auto p = borrow->get("policy")) {
        out.borrow_within_cohort.policy =
            enum_value(*p, {"Never", "LowerPriority"}) == "LowerPriority"
                ? kueue::BorrowWithinCohortPolicy::LowerPriority
                : kueue::BorrowWithinCohortPolicy::Never;
      }
      if (auto threshold = borrow->get("maxPriorityThreshold")) {
        out.borrow_within_cohort.max_priority_threshold = threshold->int32();
      }
      if (out.reclaim_within_cohort == kueue::PreemptionPolicy::Never &&
          out.borrow_within_cohort.policy != kueue::BorrowWithinCohortPolicy::Never) {
        cel(node, "object", "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never");
      }
    }
  }

  void parse_admission_checks(const JsonNode& spec, kueue::ClusterQueue& cq) const {
    if (v1beta1()) {
      // v1beta1's spec.admissionChecks: names, each on every flavor.
      if (auto checks = spec.get("admissionChecks")) {
        for (const JsonNode& name : checks->elements()) {
          cq.admission_checks.push_back({name.string(), {}});
        }
      }
    }
    std::optional<JsonNode> strategy = spec.get("admissionChecksStrategy");
    if (!strategy) return;
    strategy->note_unknown_keys(kAdmissionChecksStrategyFields);
    const JsonNode checks = required(*strategy, "admissionChecks");
    item_count(checks, 1, 64);
    for (const JsonNode& item : checks.elements()) {
      item.note_unknown_keys(kAdmissionCheckRuleFields);
      kueue::ClusterQueue::AdmissionCheckRule rule;
      rule.name = required(item, "name").string();
      if (auto flavors = item.get("onFlavors")) {
        item_count(*flavors, 0, 64);
        for (const JsonNode& flavor : flavors->elements())
          rule.on_flavors.push_back(reference(flavor));
      }
      cq.admission_checks.push_back(std::move(rule));
    }
  }

  /// validateTotalFlavors, validateTotalCoveredResources, validateFlavorResourceCombinations.
  static void validate_totals(const std::vector<kueue::ResourceGroup>& groups,
                              const JsonNode& spec) {
    std::size_t flavors = 0;
    std::size_t covered = 0;
    for (const kueue::ResourceGroup& group : groups) {
      flavors += group.flavors.size();
      covered += group.covered_resources.size();
    }
    if (flavors > 256) {
      denied(kClusterQueueWebhook, spec.required("resourceGroups"),
             invalid_value(static_cast<std::int64_t>(flavors),
                           "total number of flavors across all resourceGroups must be ≤ 256, got " +
                               std::to_string(flavors)));
    }
    if (covered > 256) {
      denied(kClusterQueueWebhook, spec.required("resourceGroups"),
             invalid_value(static_cast<std::int64_t>(covered),
                           "total number of covered resources across all resourceGroups must be ≤ "
                           "256, got " +
                               std::to_string(covered)));
    }
    for (std::size_t i = 0; i < groups.size(); ++i) {
      std::size_t total = 0;
      for (const kueue::FlavorQuotas& flavor : groups[i].flavors) total += flavor.resources.size();
      if (total > 512) {
        denied(kClusterQueueWebhook, spec.required("resourceGroups").element(i),
               invalid_value(static_cast<std::int64_t>(total),
                             "number of flavor-resource combinations in a resourceGroup must be ≤ "
                             "512, got " +
                                 std::to_string(total)));
      }
    }
  }

  /// validateAdmissionCheckOnFlavors: onFlavors must name the queue's flavors.
  static void validate_on_flavors(const kueue::ClusterQueue& cq, const JsonNode& spec) {
    std::optional<JsonNode> strategy = spec.get("admissionChecksStrategy");
    if (!strategy) return;
    std::vector<std::string> flavors;
    for (const kueue::ResourceGroup& group : cq.resource_groups) {
      for (const kueue::FlavorQuotas& flavor : group.flavors) flavors.push_back(flavor.name);
    }
    const JsonNode checks = strategy->required("admissionChecks");
    for (const JsonNode& item : checks.elements()) {
      if (auto on = item.get("onFlavors")) {
        for (const JsonNode& flavor : on->elements()) {
          const std::string name = flavor.string();
          if (std::find(flavors.begin(), flavors.end(), name) == flavors.end()) {
            // field.NotSupported over a set's unsorted list: gpusched lists the flavors in the
            // queue's order.
            std::string supported;
            for (const std::string& f : flavors)
              supported += (supported.empty() ? "" : ", ") + go_quote(f);
            denied(kClusterQueueWebhook, flavor,
                   "Unsupported value: " + go_quote(name) + ": supported values: " + supported);
          }
        }
      }
    }
  }

  kueue::StopPolicy stop_policy_of(const JsonNode& node) const {
    const std::string text = enum_value(node, {"None", "Hold", "HoldAndDrain"});
    if (text == "Hold") return kueue::StopPolicy::Hold;
    if (text == "HoldAndDrain") return kueue::StopPolicy::HoldAndDrain;
    return kueue::StopPolicy::None;
  }

  Object parse_local_queue() {
    kueue::LocalQueue lq;
    lq.metadata = fields_.metadata(true);
    name_ = lq.metadata.name;
    const std::optional<JsonNode> spec = this->spec();
    if (spec) {
      spec->note_unknown_keys(kLocalQueueSpec);
      if (auto cq = spec->get("clusterQueue")) lq.cluster_queue = reference(*cq);
      if (auto policy = spec->get("stopPolicy")) lq.stop_policy = stop_policy_of(*policy);
      lq.fair_sharing = fair_sharing(spec);
    }
    return lq;
  }

  Object parse_cohort() {
    kueue::Cohort cohort;
    cohort.metadata = fields_.metadata(false);
    name_ = cohort.metadata.name;
    const std::optional<JsonNode> spec = this->spec();
    if (spec) {
      spec->note_unknown_keys(kCohortSpec);
      if (auto parent = spec->get("parentName")) cohort.parent_name = reference(*parent);
      cohort.resource_groups = resource_groups(spec);
      cohort.fair_sharing = fair_sharing(spec);
      // validateCohort (pkg/webhooks/cohort_webhook.go): fair sharing, then the groups; a
      // Cohort's lendingLimit may exceed its nominalQuota.
      validate_fair_sharing(kCohortWebhook, cohort.fair_sharing, spec);
      if (auto groups = spec->get("resourceGroups")) {
        validate_resource_groups(kCohortWebhook, cohort.resource_groups, *groups,
                                 !cohort.parent_name.empty(), false, true);
      }
    }
    return cohort;
  }

  Object parse_workload_priority_class() {
    kueue::WorkloadPriorityClass wpc;
    wpc.metadata = fields_.metadata(false);
    name_ = wpc.metadata.name;
    wpc.value = required(root_, "value").int32();
    if (auto description = root_.get("description")) {
      wpc.description = description->string();
      if (wpc.description.size() > 2048) {
        invalid(*description, "Too long: may not be more than 2048 bytes");
      }
    }
    return wpc;
  }

  Object parse_admission_check() {
    kueue::AdmissionCheck check;
    check.metadata = fields_.metadata(false);
    name_ = check.metadata.name;
    const std::optional<JsonNode> spec = this->spec();
    const JsonNode place = spec ? *spec : root_.missing("spec");
    if (!spec) invalid(place, required_value());
    spec->note_unknown_keys(kAdmissionCheckSpec);
    const JsonNode controller = required(*spec, "controllerName");
    check.controller_name = controller.string();
    if (check.controller_name.empty()) {
      invalid(controller, invalid_value("", to_field_string(controller.path()) +
                                                " in body should be at least 1 chars long"));
    }
    if (check.controller_name != kueue::kProvisioningRequestController) {
      // No controller of the replay manages it (MultiKueue's kueue.x-k8s.io/multikueue, or an
      // external one): nothing marks it Active, so each ClusterQueue using it is inactive.
      controller.note_not_modelled(
          "only the ProvisioningRequest admission check (kueue.x-k8s.io/provisioning-request) is "
          "modelled: no controller of the replay manages the checks of " +
          check.controller_name +
          ", so a ClusterQueue using this AdmissionCheck is inactive and admits no workload");
    }
    if (auto parameters = spec->get("parameters")) {
      parameters->note_unknown_keys(kParametersFields);
      check.parameters_api_group = required(*parameters, "apiGroup").string();
      check.parameters_kind = required(*parameters, "kind").string();
      check.parameters_name = required(*parameters, "name").string();
    }
    return check;
  }

  Object parse_provisioning_request_config() {
    kueue::ProvisioningRequestConfig config;
    config.metadata = fields_.metadata(false);
    name_ = config.metadata.name;
    const std::optional<JsonNode> spec = this->spec();
    const JsonNode place = spec ? *spec : root_.missing("spec");
    if (!spec) invalid(place, required_value());
    spec->note_unknown_keys(kProvisioningRequestConfigSpec);
    const JsonNode class_name = required(*spec, "provisioningClassName");
    config.provisioning_class_name = class_name.string();
    if (config.provisioning_class_name != kueue::kCheckCapacityClass &&
        config.provisioning_class_name != kueue::kBestEffortAtomicClass) {
      class_name.note_not_modelled(
          "gpusched's cluster autoscaler serves only the check-capacity and "
          "best-effort-atomic-scale-up ProvisioningRequest classes: a request of class " +
          config.provisioning_class_name + " is never provisioned in the replay");
    }
    if (auto parameters = spec->get("parameters")) {
      for (const auto& [key, value] : parameters->entries())
        config.parameters.emplace(key, value.string());
      if (!config.parameters.empty()) {
        parameters->note_not_modelled(
            "the ProvisioningRequest parameters are passed on but gpusched's cluster autoscaler "
            "reads none of them");
      }
    }
    if (auto resources = spec->get("managedResources")) {
      item_count(*resources, 0, 100);
      for (const JsonNode& item : resources->elements())
        config.managed_resources.push_back(item.string());
    }
    if (auto updates = spec->get("podSetUpdates")) {
      updates->note_not_modelled(
          "podSetUpdates' node selectors from provisioningClassDetails are not applied");
    }
    if (auto policy = spec->get("podSetMergePolicy")) {
      policy->note_not_modelled(
          "podSetMergePolicy is not modelled: each pod set gets a PodTemplate of its own");
    }
    if (auto retry = spec->get("retryStrategy")) {
      retry->note_not_modelled(
          "retryStrategy is not modelled: gpusched's cluster autoscaler never fails a "
          "ProvisioningRequest, so no check goes to Retry");
    }
    return config;
  }

  Object parse_workload() {
    kueue::Workload wl;
    wl.metadata = fields_.metadata(true);
    name_ = wl.metadata.name;
    const std::optional<JsonNode> spec = this->spec();
    const JsonNode place = spec ? *spec : root_.missing("spec");
    if (!spec) invalid(place, required_value());
    spec->note_unknown_keys(kWorkloadSpec);
    const JsonNode pod_sets = required(*spec, "podSets");
    item_count(pod_sets, 1, 18);
    for (const JsonNode& item : pod_sets.elements()) {
      item.note_unknown_keys(kPodSetFields);
      kueue::PodSet ps;
      ps.name = "main";  // the CRD's default
      if (auto name = item.get("name")) ps.name = name->string();
      if (auto count = item.get("count")) {
        ps.count = count->int32();
        if (ps.count < 0) {
          invalid(*count,
                  invalid_value(ps.count, to_field_string(count->path()) +
                                              " in body should be greater than or equal to 0"));
        }
      }
      // v1beta2's minCount (v1beta1: minCount too; minimumCount before it).
      if (auto min = item.get("minCount")) ps.min_count = min->int32();
      if (auto topology = item.get("topologyRequest")) {
        topology->note_not_modelled(
            "Kueue's Topology Aware Scheduling is not modelled: the pod set gets no topology "
            "assignment");
      }
      required(item, "template");
      ps.template_ = fields_.pod_template(item);
      if (ps.min_count) {
        if (*ps.min_count > ps.count) {
          cel(item, "object", "minCount should be positive and less or equal to count");
        }
        item.required("minCount")
            .note_not_modelled(
                "partial admission is not modelled: the pod set is admitted at its full count");
      }
      wl.pod_sets.push_back(std::move(ps));
    }
    if (auto queue = spec->get("queueName")) wl.queue_name = reference(*queue);
    if (auto limit = spec->get("maximumExecutionTimeSeconds")) {
      limit->note_not_modelled(
          "maximumExecutionTimeSeconds is not modelled: the workload is not evicted when it "
          "runs longer");
    }
    if (auto priority = spec->get("priority")) wl.priority = priority->int32();
    if (auto active = spec->get("active")) wl.active = active->boolean();
    if (v1beta1()) {
      // Convert_v1beta1_WorkloadSpec_To_v1beta2_WorkloadSpec.
      std::string name;
      if (auto node = spec->get("priorityClassName")) name = reference(*node);
      std::string source;
      if (auto node = spec->get("priorityClassSource")) {
        source = enum_value(
            *node, {"kueue.x-k8s.io/workloadpriorityclass", "scheduling.k8s.io/priorityclass", ""});
      }
      if (!name.empty() && !spec->get("priority")) {
        cel(*spec, "object", "priority should not be nil when priorityClassName is set");
      }
      // Without a source the conversion makes no priorityClassRef.
      if (!source.empty()) {
        wl.priority_class_name = std::move(name);
        wl.priority_class_source = std::move(source);
      }
    } else if (auto ref = spec->get("priorityClassRef")) {
      ref->note_unknown_keys(kPriorityClassRefFields);
      const std::string group =
          enum_value(required(*ref, "group"), {"kueue.x-k8s.io", "scheduling.k8s.io"});
      const std::string kind =
          enum_value(required(*ref, "kind"), {"WorkloadPriorityClass", "PriorityClass"});
      wl.priority_class_name = reference(required(*ref, "name"));
      if (group == "scheduling.k8s.io" && kind != "PriorityClass") {
        cel(*ref, "object",
            "only the PriorityClass kind is allowed for the scheduling.k8s.io group");
      }
      if (group == "kueue.x-k8s.io" && kind != "WorkloadPriorityClass") {
        cel(*ref, "object",
            "only the WorkloadPriorityClass kind is allowed for the kueue.x-k8s.io group");
      }
      wl.priority_class_source = group == "kueue.x-k8s.io" ? "kueue.x-k8s.io/workloadpriorityclass"
                                                           : "scheduling.k8s.io/priorityclass";
      if (!spec->get("priority")) {
        cel(*spec, "object", "priority should not be nil when priorityClassRef is set");
      }
    }
    if (auto status = root_.get("status")) parse_workload_status(*status, wl);
    // ValidateWorkload (pkg/webhooks/workload_webhook.go): the pods resource is Kueue's own.
    for (std::size_t i = 0; i < wl.pod_sets.size(); ++i) {
      for (const Container& c : wl.pod_sets[i].template_.spec.containers) {
        if (c.requests.contains("pods")) {
          denied(kWorkloadWebhook, pod_sets.element(i).required("template"),
                 invalid_value("pods", "the key is reserved for internal kueue use"));
        }
      }
    }
    return wl;
  }

  void parse_workload_status(const JsonNode& status, kueue::Workload& wl) const {
    status.note_unknown_keys(kWorkloadStatus);
    if (auto conditions = status.get("conditions")) {
      item_count(*conditions, 0, 16);
      for (const JsonNode& item : conditions->elements()) {
        item.note_unknown_keys(kConditionFields);
        kueue::Condition c;
        c.type = required(item, "type").string();
        c.status = enum_value(required(item, "status"), {"True", "False", "Unknown"});
        if (auto reason = item.get("reason")) c.reason = reason->string();
        if (auto message = item.get("message")) c.message = message->string();
        if (auto generation = item.get("observedGeneration"))
          c.observed_generation = generation->integer();
        wl.conditions.push_back(std::move(c));
      }
    }
    if (auto admission = status.get("admission")) {
      admission->note_unknown_keys(kAdmissionFields);
      kueue::Admission out;
      out.cluster_queue = reference(required(*admission, "clusterQueue"));
      if (auto assignments = admission->get("podSetAssignments")) {
        item_count(*assignments, 0, 18);
        for (const JsonNode& item : assignments->elements()) {
          item.note_unknown_keys(kPodSetAssignmentFields);
          kueue::PodSetAssignment psa;
          psa.name = "main";
          if (auto name = item.get("name")) psa.name = name->string();
          if (auto flavors = item.get("flavors")) {
            for (const auto& [resource, flavor] : flavors->entries()) {
              psa.flavors.emplace(resource, reference(flavor));
            }
          }
          if (auto usage = item.get("resourceUsage"))
            psa.resource_usage = fields_.resources(*usage);
          if (auto count = item.get("count")) psa.count = count->int32();
          out.pod_set_assignments.push_back(std::move(psa));
        }
      }
      wl.admission = std::move(out);
    }
    if (auto requeue = status.get("requeueState")) {
      requeue->note_unknown_keys(kRequeueStateFields);
      kueue::RequeueState state;
      if (auto count = requeue->get("count")) state.count = count->int32();
      wl.requeue_state = state;
    }
  }

  ObjectFields& fields_;
  const JsonNode& root_;
  std::string kind_;
  std::string name_;  ///< metadata.name, once read
  std::string version_{kV1beta2};
};

// --- writing ------------------------------------------------------------------------------

std::string_view to_text(kueue::StopPolicy policy) {
  switch (policy) {
    case kueue::StopPolicy::Hold:
      return "Hold";
    case kueue::StopPolicy::HoldAndDrain:
      return "HoldAndDrain";
    case kueue::StopPolicy::None:
      break;
  }
  return "None";
}

std::string_view to_text(kueue::PreemptionPolicy policy) {
  switch (policy) {
    case kueue::PreemptionPolicy::Any:
      return "Any";
    case kueue::PreemptionPolicy::LowerPriority:
      return "LowerPriority";
    case kueue::PreemptionPolicy::LowerOrNewerEqualPriority:
      return "LowerOrNewerEqualPriority";
    case kueue::PreemptionPolicy::Never:
      break;
  }
  return "Never";
}

std::string_view to_text(kueue::FlavorFungibilityPolicy policy) {
  return policy == kueue::FlavorFungibilityPolicy::TryNextFlavor ? "TryNextFlavor"
                                                                 : "MayStopSearch";
}

json fair_sharing_json(const kueue::FairSharing& fs) {
  json out = json::object();
  if (fs.weight) out["weight"] = fs.weight->to_string();
  return out;
}

json resource_groups_json(const std::vector<kueue::ResourceGroup>& groups) {
  json out = json::array();
  for (const kueue::ResourceGroup& group : groups) {
    json flavors = json::array();
    for (const kueue::FlavorQuotas& flavor : group.flavors) {
      json resources = json::array();
      for (const kueue::ResourceQuota& quota : flavor.resources) {
        json item = {{"name", quota.name}, {"nominalQuota", quota.nominal_quota.to_string()}};
        if (quota.borrowing_limit) item["borrowingLimit"] = quota.borrowing_limit->to_string();
        if (quota.lending_limit) item["lendingLimit"] = quota.lending_limit->to_string();
        resources.push_back(std::move(item));
      }
      flavors.push_back({{"name", flavor.name}, {"resources", std::move(resources)}});
    }
    out.push_back({{"coveredResources", group.covered_resources}, {"flavors", std::move(flavors)}});
  }
  return out;
}

}  // namespace

bool is_kueue_kind(std::string_view kind) noexcept {
  return std::find(std::begin(kKueueKinds), std::end(kKueueKinds), kind) != std::end(kKueueKinds);
}

bool is_kueue_object(const JsonNode& root) {
  const json& value = root.json();
  if (!value.is_object()) return false;
  const auto version = value.find("apiVersion");
  if (version != value.end() && version->is_string()) {
    return version->get<std::string>().starts_with("kueue.x-k8s.io/");
  }
  const auto kind = value.find("kind");
  return kind != value.end() && kind->is_string() && kind->get<std::string>() != "Workload" &&
         is_kueue_kind(kind->get<std::string>());
}

Object parse_kueue_object(ObjectFields& fields, const std::string& kind) {
  return KueueParser(fields, kind).parse();
}

std::string_view kueue_api_version(const kueue::ResourceFlavor&) noexcept {
  return kV1beta2;
}
std::string_view kueue_api_version(const kueue::ClusterQueue&) noexcept {
  return kV1beta2;
}
std::string_view kueue_api_version(const kueue::LocalQueue&) noexcept {
  return kV1beta2;
}
std::string_view kueue_api_version(const kueue::Cohort&) noexcept {
  return kV1beta2;
}
std::string_view kueue_api_version(const kueue::WorkloadPriorityClass&) noexcept {
  return kV1beta2;
}
std::string_view kueue_api_version(const kueue::AdmissionCheck&) noexcept {
  return kV1beta2;
}
std::string_view kueue_api_version(const kueue::ProvisioningRequestConfig&) noexcept {
  return kV1beta2;
}
std::string_view kueue_api_version(const kueue::Workload&) noexcept {
  return kV1beta2;
}

json object_json(const kueue::ResourceFlavor& flavor) {
  json spec = json::object();
  if (!flavor.node_labels.empty()) spec["nodeLabels"] = flavor.node_labels;
  for (const Taint& taint : flavor.node_taints) spec["nodeTaints"].push_back(taint_json(taint));
  for (const Toleration& t : flavor.tolerations) spec["tolerations"].push_back(toleration_json(t));
  if (flavor.topology_name) spec["topologyName"] = *flavor.topology_name;
  return {{"spec", std::move(spec)}};
}

json object_json(const kueue::ClusterQueue& cq) {
  json spec = json::object();
  if (!cq.resource_groups.empty())
    spec["resourceGroups"] = resource_groups_json(cq.resource_groups);
  if (!cq.cohort_name.empty()) spec["cohortName"] = cq.cohort_name;
  spec["queueingStrategy"] =
      cq.queueing_strategy == kueue::QueueingStrategy::StrictFIFO ? "StrictFIFO" : "BestEffortFIFO";
  if (cq.namespace_selector)
    spec["namespaceSelector"] = label_selector_json(*cq.namespace_selector);
  json fungibility = {{"whenCanBorrow", to_text(cq.flavor_fungibility.when_can_borrow)},
                      {"whenCanPreempt", to_text(cq.flavor_fungibility.when_can_preempt)}};
  if (cq.flavor_fungibility.preference) {
    fungibility["preference"] = *cq.flavor_fungibility.preference ==
                                        kueue::FlavorFungibilityPreference::BorrowingOverPreemption
                                    ? "BorrowingOverPreemption"
                                    : "PreemptionOverBorrowing";
  }
  spec["flavorFungibility"] = std::move(fungibility);
  json borrow = {{"policy", cq.preemption.borrow_within_cohort.policy ==
                                    kueue::BorrowWithinCohortPolicy::LowerPriority
                                ? "LowerPriority"
                                : "Never"}};
  if (cq.preemption.borrow_within_cohort.max_priority_threshold) {
    borrow["maxPriorityThreshold"] = *cq.preemption.borrow_within_cohort.max_priority_threshold;
  }
  spec["preemption"] = {{"reclaimWithinCohort", to_text(cq.preemption.reclaim_within_cohort)},
                        {"borrowWithinCohort", std::move(borrow)},
                        {"withinClusterQueue", to_text(cq.preemption.within_cluster_queue)}};
  spec["stopPolicy"] = to_text(cq.stop_policy);
  if (cq.fair_sharing) spec["fairSharing"] = fair_sharing_json(*cq.fair_sharing);
  for (const auto& rule : cq.admission_checks) {
    json item = {{"name", rule.name}};
    if (!rule.on_flavors.empty()) item["onFlavors"] = rule.on_flavors;
    spec["admissionChecksStrategy"]["admissionChecks"].push_back(std::move(item));
  }
  return {{"spec", std::move(spec)}};
}

json object_json(const kueue::LocalQueue& lq) {
  json spec = {{"clusterQueue", lq.cluster_queue}, {"stopPolicy", to_text(lq.stop_policy)}};
  if (lq.fair_sharing) spec["fairSharing"] = fair_sharing_json(*lq.fair_sharing);
  return {{"spec", std::move(spec)}};
}

json object_json(const kueue::Cohort& cohort) {
  json spec = json::object();
  if (!cohort.parent_name.empty()) spec["parentName"] = cohort.parent_name;
  if (!cohort.resource_groups.empty()) {
    spec["resourceGroups"] = resource_groups_json(cohort.resource_groups);
  }
  if (cohort.fair_sharing) spec["fairSharing"] = fair_sharing_json(*cohort.fair_sharing);
  return {{"spec", std::move(spec)}};
}

json object_json(const kueue::WorkloadPriorityClass& wpc) {
  json out = {{"value", wpc.value}};
  if (!wpc.description.empty()) out["description"] = wpc.description;
  return out;
}

json object_json(const kueue::AdmissionCheck& check) {
  json spec = {{"controllerName", check.controller_name}};
  if (!check.parameters_kind.empty() || !check.parameters_name.empty()) {
    spec["parameters"] = {{"apiGroup", check.parameters_api_group},
                          {"kind", check.parameters_kind},
                          {"name", check.parameters_name}};
  }
  return {{"spec", std::move(spec)}};
}

json object_json(const kueue::ProvisioningRequestConfig& config) {
  json spec = {{"provisioningClassName", config.provisioning_class_name}};
  if (!config.parameters.empty()) spec["parameters"] = config.parameters;
  if (!config.managed_resources.empty()) spec["managedResources"] = config.managed_resources;
  return {{"spec", std::move(spec)}};
}

json object_json(const kueue::Workload& wl) {
  json pod_sets = json::array();
  for (const kueue::PodSet& ps : wl.pod_sets) {
    json item = {
        {"name", ps.name}, {"count", ps.count}, {"template", pod_template_json(ps.template_)}};
    if (ps.min_count) item["minCount"] = *ps.min_count;
    pod_sets.push_back(std::move(item));
  }
  json spec = {{"podSets", std::move(pod_sets)}, {"active", wl.active}};
  if (!wl.queue_name.empty()) spec["queueName"] = wl.queue_name;
  if (!wl.priority_class_name.empty()) {
    const bool kueue_class = wl.priority_class_source == "kueue.x-k8s.io/workloadpriorityclass";
    spec["priorityClassRef"] = {{"group", kueue_class ? "kueue.x-k8s.io" : "scheduling.k8s.io"},
                                {"kind", kueue_class ? "WorkloadPriorityClass" : "PriorityClass"},
                                {"name", wl.priority_class_name}};
  }
  spec["priority"] = wl.priority;
  json status = json::object();
  for (const kueue::Condition& c : wl.conditions) {
    json item = {
        {"type", c.type}, {"status", c.status}, {"reason", c.reason}, {"message", c.message}};
    if (c.observed_generation != 0) item["observedGeneration"] = c.observed_generation;
    status["conditions"].push_back(std::move(item));
  }
  if (wl.admission) {
    json assignments = json::array();
    for (const kueue::PodSetAssignment& psa : wl.admission->pod_set_assignments) {
      assignments.push_back({{"name", psa.name},
                             {"flavors", psa.flavors},
                             {"resourceUsage", resources_json(psa.resource_usage)},
                             {"count", psa.count}});
    }
    status["admission"] = {{"clusterQueue", wl.admission->cluster_queue},
                           {"podSetAssignments", std::move(assignments)}};
  }
  if (wl.requeue_state && wl.requeue_state->count) {
    status["requeueState"] = {{"count", *wl.requeue_state->count}};
  }
  json out = {{"spec", std::move(spec)}};
  if (!status.empty()) out["status"] = std::move(status);
  return out;
}

}  // namespace gpusched::io
