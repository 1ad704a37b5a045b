#include "io/object_json.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <type_traits>
#include <utility>

#include "gpusched/error.hpp"
#include "gpusched/model/gpu_share.hpp"
#include "gpusched/model/pod_requests.hpp"
#include "gpusched/model/selector.hpp"
#include "gpusched/model/validation.hpp"
#include "gpusched/model/well_known.hpp"
#include "io/api_fields.hpp"
#include "io/api_validation.hpp"
#include "io/kueue_json.hpp"
#include "io/object_fields.hpp"
#include "io/resource_json.hpp"
#include "io/resource_validation.hpp"
#include "io/time_json.hpp"
#include "model/priority_admission.hpp"

namespace gpusched::io {
namespace {

using api_fields::Fields;
using nlohmann::json;

/// Annotation giving how long a pod runs (scenario-format.md, "Objects").
/// gpusched's own bound on workload sizes, so that a typo cannot create millions of pods.
constexpr std::int64_t kMaxReplicas = 1'000'000;

/// The Workload API's version in Kubernetes 1.35 (GenericWorkload).
constexpr std::string_view kWorkloadApiVersion = "scheduling.k8s.io/v1alpha1";
/// The Workload and PodGroup API's version in Kubernetes 1.36 (GenericWorkload).
constexpr std::string_view kPodGroupApiVersion = "scheduling.k8s.io/v1alpha2";
/// WorkloadMaxPodGroupTemplates (scheduling/v1alpha2).
constexpr std::size_t kWorkloadMaxPodGroupTemplates = 8;

struct KindInfo {
  std::string_view kind;
  std::string_view api_version;
};
constexpr KindInfo kKinds[] = {{"Node", "v1"},
                               {"Pod", "v1"},
                               {"Deployment", "apps/v1"},
                               {"ReplicaSet", "apps/v1"},
                               {"DaemonSet", "apps/v1"},
                               {"StatefulSet", "apps/v1"},
                               {"Job", "batch/v1"},
                               {"PriorityClass", "scheduling.k8s.io/v1"},
                               {"PodDisruptionBudget", "policy/v1"},
                               {"Namespace", "v1"},
                               {"Service", "v1"},
                               {"Workload", kWorkloadApiVersion},
                               {"PodGroup", kPodGroupApiVersion}};

/// validation.IsValidPercent (k8s.io/apimachinery/pkg/util/validation/validation.go): the
/// message for a string that does not match `[0-9]+%`.
constexpr std::string_view kPercentErrMsg =
    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%' or "
    "'93%', regex used for validation is '[0-9]+%')";

/// ^[0-9]+%$
bool is_valid_percent(std::string_view text) {
  if (text.size() < 2 || text.back() != '%') return false;
  text.remove_suffix(1);
  return text.find_first_not_of("0123456789") == std::string_view::npos;
}

/// Go's %#v of an intstr.IntOrString holding a string, as field.Invalid prints it (the value
/// type has no String method; only *IntOrString has).
std::string go_int_or_string(std::string_view text) {
  return "intstr.IntOrString{Type:1, IntVal:0, StrVal:" + go_quote(text) + "}";
}

std::string_view api_version_of(std::string_view kind) noexcept {
  for (const KindInfo& info : kKinds) {
    if (info.kind == kind) return info.api_version;
  }
  return {};
}

std::optional<TaintEffect> taint_effect_from(std::string_view text) {
  if (text == "NoSchedule") return TaintEffect::NoSchedule;
  if (text == "PreferNoSchedule") return TaintEffect::PreferNoSchedule;
  if (text == "NoExecute") return TaintEffect::NoExecute;
  return std::nullopt;
}

std::optional<SelectorOperator> operator_from(std::string_view text) {
  for (SelectorOperator op :
       {SelectorOperator::In, SelectorOperator::NotIn, SelectorOperator::Exists,
        SelectorOperator::DoesNotExist, SelectorOperator::Gt, SelectorOperator::Lt}) {
    if (to_string(op) == text) return op;
  }
  return std::nullopt;
}

std::optional<PodPhase> phase_from(std::string_view text) {
  for (PodPhase phase : {PodPhase::Pending, PodPhase::Running, PodPhase::Succeeded,
                         PodPhase::Failed, PodPhase::Unknown}) {
    if (to_string(phase) == text) return phase;
  }
  return std::nullopt;
}

/// Go's %#v of an internal core.Toleration, as ValidateTolerations prints it. A set
/// tolerationSeconds is shown by value where Go would print an address.
std::string go_toleration(const Toleration& t, std::string_view op, std::string_view effect) {
  std::string seconds = t.toleration_seconds
                            ? "(*int64)(" + std::to_string(*t.toleration_seconds) + ")"
                            : "(*int64)(nil)";
  return "core.Toleration{Key:" + go_quote(t.key) + ", Operator:" + go_quote(op) +
         ", Value:" + go_quote(t.value) + ", Effect:" + go_quote(effect) +
         ", TolerationSeconds:" + seconds + "}";
}

/// Reads one object and checks it as the API server would on create.
class ObjectParser final : public ObjectFields {
 public:
  explicit ObjectParser(const JsonNode& node) : root_(node.rebased()) {}

  Object parse() {
    JsonNode kind_node = root_.required("kind");
    kind_ = kind_node.string();
    // Other API groups have parsers of their own; a kind of the same name in two groups is
    // told apart by the apiVersion's group.
    if (is_kueue_object(root_)) return parse_kueue_object(*this, kind_);
    if (is_resource_kind(kind_)) return parse_resource_object(*this, kind_);
    std::string_view api_version = api_version_of(kind_);
    if (api_version.empty()) {
      kind_node.fail("unknown kind \"" + kind_ + "\" (known kinds: " + known_kinds() + ")");
    }
    bool workload_v1alpha2 = false;
    if (auto version = root_.get("apiVersion")) {
      std::string text = version->string();
      // A Workload is served in 1.35's shape (v1alpha1) or 1.36's (v1alpha2); the release
      // decides which it takes (sim/workload_api.hpp).
      workload_v1alpha2 = kind_ == "Workload" && text == kPodGroupApiVersion;
      if (text != api_version && !workload_v1alpha2) {
        version->fail("apiVersion \"" + text + "\" does not serve kind " + kind_ + "; use \"" +
                      std::string(api_version) + "\"");
      }
    }
    root_.note_unknown_keys(kind_ == "PriorityClass" ? Fields(api_fields::kPriorityClass)
                                                     : Fields(api_fields::kObject));
    if (kind_ == "Node") return parse_node();
    if (kind_ == "Pod") return parse_pod();
    if (kind_ == "Job") return parse_job();
    if (kind_ == "PriorityClass") return parse_priority_class();
    if (kind_ == "PodDisruptionBudget") return parse_pod_disruption_budget();
    if (kind_ == "Namespace") return parse_namespace();
    if (kind_ == "DaemonSet") return parse_daemon_set();
    if (kind_ == "StatefulSet") return parse_stateful_set();
    if (kind_ == "Service") return parse_service();
    if (kind_ == "Workload") {
      return workload_v1alpha2 ? parse_workload_v1alpha2() : parse_scheduling_workload();
    }
    if (kind_ == "PodGroup") return parse_pod_group();
    if (kind_ == "Deployment") return parse_replicated<Deployment>();
    return parse_replicated<ReplicaSet>();
  }

 private:
  // --- ObjectFields, for the parsers of other API groups ---------------------------------

  const JsonNode& root() const override { return root_; }
  ObjectMeta metadata(bool namespaced) override { return parse_metadata(namespaced); }
  Labels labels(const JsonNode& node) const override { return parse_labels(node); }
  Labels annotations(const JsonNode& node) const override { return parse_annotations(node); }
  std::vector<NodeSelectorTerm> node_selector(const JsonNode& node) const override {
    return parse_node_selector(node);
  }
  LabelSelector label_selector(const JsonNode& node) const override {
    return parse_label_selector(node);
  }
  ResourceList resources(const JsonNode& node) const override { return parse_resources(node); }
  PodTemplateSpec pod_template(const JsonNode& owner) const override {
    return parse_template(owner);
  }

  // --- errors ---------------------------------------------------------------------------

  std::string prefix() const { return "The " + kind_ + " " + go_quote(name_) + " is invalid: "; }

  [[noreturn]] void invalid(const JsonNode& at, std::string_view detail) const {
    at.fail_field(detail, prefix());
  }

  /// An error whose message names `path` while the pointer (and line) go to `at`: upstream
  /// reports label problems on the whole map.
  [[noreturn]] void invalid_on(const JsonNode& at, const FieldPath& path,
                               std::string_view detail) const {
    JsonNode(at.source(), at.json(), at.pointer(), path).fail_field(detail, prefix());
  }

  /// Throws the first error of a model validation, pointing into this object.
  void report(const std::vector<FieldError>& errors) const {
    if (errors.empty()) return;
    const FieldError& error = errors.front();
    std::string pointer = root_.pointer() + to_json_pointer(error.path);
    root_.source().fail(pointer, prefix() + to_field_string(error.path) + ": " + error.detail);
  }

  // --- metadata -------------------------------------------------------------------------

  void validate_labels(const JsonNode& node, const Labels& labels) const {
    // ValidateLabels: keys are qualified names, values label values; errors name the map.
    for (const auto& [key, entry] : node.entries()) {
      for (const std::string& message : resource::qualified_name_errors(key)) {
        invalid_on(entry, node.path(), invalid_value(key, message));
      }
      for (const std::string& message : label_value_errors(labels.find(key)->second)) {
        invalid_on(entry, node.path(), invalid_value(labels.find(key)->second, message));
      }
    }
  }

  Labels parse_string_map(const JsonNode& node) const {
    Labels out;
    for (const auto& [key, entry] : node.entries()) out.emplace(key, entry.string());
    return out;
  }

  Labels parse_labels(const JsonNode& node) const {
    Labels labels = parse_string_map(node);
    validate_labels(node, labels);
    return labels;
  }

  /// Annotations, validated as ValidateAnnotations (k8s.io/apimachinery/pkg/api/validation/
  /// objectmeta.go) does: each key a qualified name once lowercased, errors naming the map, and
  /// keys and values together at most TotalAnnotationSizeLimitB (256 KiB); and the run-duration
  /// annotation must parse.
  Labels parse_annotations(const JsonNode& node) const {
    constexpr std::size_t kTotalAnnotationSizeLimitB = 256 * (1 << 10);
    Labels annotations;
    std::size_t total_size = 0;
    for (const auto& [key, entry] : node.entries()) {
      std::string lower = key;
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      for (const std::string& message : resource::qualified_name_errors(lower)) {
        invalid_on(entry, node.path(), invalid_value(key, message));
      }
      std::string value = entry.string();
      total_size += key.size() + value.size();
      if (total_size > kTotalAnnotationSizeLimitB) {
        // field.TooLong, which prints no value.
        invalid_on(
            node, node.path(),
            "Too long: must have at most " + std::to_string(kTotalAnnotationSizeLimitB) + " bytes");
      }
      std::string error;
      if (key == well_known::kRunDurationAnnotation && !parse_time_text(value, &error)) {
        invalid(entry, invalid_value(value,
                                     "must be a duration such as \"180s\" or a number of "
                                     "seconds"));
      }
      if (key == gpu_share_names::kGpuIndexAnnotation && !parse_gpu_index(value)) {
        invalid(entry, invalid_value(value,
                                     "must be distinct GPU indices joined by '-', such as \"0\" "
                                     "or \"0-1\""));
      }
      annotations.emplace(key, std::move(value));
    }
    // GPU sharing's annotations must make one request (fgd-artifact.md §2.1), and a gpu-index
    // name as many GPUs as it asks.
    std::string error;
    const GpuShareRequest share = gpu_share_request(annotations, &error);
    if (!error.empty()) invalid_on(node, node.path(), error);
    if (const auto index = annotations->find(gpu_share_names::kGpuIndexAnnotation);
        index != annotations->end() && share.gpu_count > 0 &&
        std::ssize(*parse_gpu_index(index->second)) != share.gpu_count) {
      invalid_on(node, node.path(),
                 std::string(gpu_share_names::kGpuIndexAnnotation) + " \"" + index->second +
                     "\" names " + std::to_string(parse_gpu_index(index->second)->size()) +
                     " GPUs, but " + std::string(gpu_share_names::kGpuCountAnnotation) + " is " +
                     std::to_string(share.gpu_count));
    }
    return annotations;
  }

  ObjectMeta parse_metadata(bool namespaced) {
    ObjectMeta meta;
    std::optional<JsonNode> node = root_.get("metadata");
    if (node) node->note_unknown_keys(api_fields::kObjectMeta);
    JsonNode place = node ? *node : root_.missing("metadata");
    std::optional<JsonNode> name = node ? node->get("name") : std::nullopt;
    if (!name) invalid(place.missing("name"), required_value("name or generateName is required"));
    meta.name = name->string();
    name_ = meta.name;
    for (const std::string& message : dns1123_subdomain_errors(meta.name)) {
      invalid(*name, invalid_value(meta.name, message));
    }
    if (namespaced) {
      // An object that names no namespace, or "default", shares the default's text.
      meta.namespace_ = pod_defaults().default_namespace;
      if (auto ns = node->get("namespace")) {
        if (std::string text = ns->string(); !text.empty() && text != "default") {
          meta.namespace_ = text;
          for (const std::string& message : dns1123_label_errors(text)) {
            invalid(*ns, invalid_value(text, message));
          }
        }
      }
    }
    if (auto uid = node->get("uid")) meta.uid = uid->string();
    if (auto labels = node->get("labels")) meta.labels = parse_labels(*labels);
    if (auto annotations = node->get("annotations")) {
      meta.annotations = parse_annotations(*annotations);
    }
    if (auto owners = node->get("ownerReferences")) {
      for (const JsonNode& item : owners->elements()) {
        item.note_unknown_keys(api_fields::kOwnerReference);
        OwnerReference ref;
        ref.kind = item.required("kind").string();
        ref.name = item.required("name").string();
        if (auto uid = item.get("uid")) ref.uid = uid->string();
        ref.controller = false;
        if (auto controller = item.get("controller")) ref.controller = controller->boolean();
        meta.owner_references.push_back(std::move(ref));
      }
    }
    return meta;
  }

  // --- resources and selectors ----------------------------------------------------------

  ResourceList parse_resources(const JsonNode& node) const {
    ResourceList list;
    for (const auto& [name, entry] : node.entries()) {
      std::string text;
      std::string error;
      std::optional<Quantity> quantity = read_quantity(entry, text, &error);
      if (!quantity) invalid(entry, invalid_value(text, error));
      list.emplace(name, *quantity);
    }
    return list;
  }

  std::vector<std::string> parse_strings(const JsonNode& node) const {
    std::vector<std::string> out;
    for (const JsonNode& item : node.elements()) out.push_back(item.string());
    return out;
  }

  /// A selector requirement. Node selectors (ValidateNodeSelectorRequirement) also allow Gt/Lt;
  /// label selectors (ValidateLabelSelectorRequirement) do not.
  SelectorRequirement parse_requirement(const JsonNode& node, bool node_selector) const {
    node.note_unknown_keys(node_selector ? Fields(api_fields::kNodeSelectorRequirement)
                                         : Fields(api_fields::kLabelSelectorRequirement));
    SelectorRequirement req;
    JsonNode key = node.required("key");
    req.key = key.string();
    JsonNode op_node = node.required("operator");
    std::string op_text = op_node.string();
    std::optional<JsonNode> values = node.get("values");
    if (values) req.values = parse_strings(*values);
    std::optional<SelectorOperator> op = operator_from(op_text);
    bool gt_lt = op == SelectorOperator::Gt || op == SelectorOperator::Lt;
    if (!op || (gt_lt && !node_selector)) {
      invalid(op_node, invalid_value(op_text, "not a valid selector operator"));
    }
    req.op = *op;
    JsonNode values_place = values ? *values : node.missing("values");
    switch (req.op) {
      case SelectorOperator::In:
      case SelectorOperator::NotIn:
        if (req.values.empty()) {
          invalid(values_place,
                  required_value("must be specified when `operator` is 'In' or 'NotIn'"));
        }
        break;
      case SelectorOperator::Exists:
      case SelectorOperator::DoesNotExist:
        if (!req.values.empty()) {
          invalid(values_place,
                  forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
        break;
      case SelectorOperator::Gt:
      case SelectorOperator::Lt:
        if (req.values.size() != 1) {
          invalid(values_place,
                  required_value("must be specified single value when `operator` is 'Lt' or 'Gt'"));
        }
        // labels.NewRequirement, run when the scheduler builds the node selector: the whole
        // value an int64 ("1-2", "-" and 2^63 are not).
        if (!parse_selector_integer(req.values[0])) {
          invalid(values->elements()[0],
                  invalid_value(req.values[0],
                                "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
        break;
    }
    for (const std::string& message : resource::qualified_name_errors(req.key)) {
      invalid(key, invalid_value(req.key, message));
    }
    return req;
  }

  /// validateNodeFieldSelectorRequirement: only metadata.name, with In/NotIn and one value.
  SelectorRequirement parse_field_requirement(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kNodeSelectorRequirement);
    SelectorRequirement req;
    JsonNode key = node.required("key");
    req.key = key.string();
    JsonNode op_node = node.required("operator");
    std::string op_text = op_node.string();
    std::optional<JsonNode> values = node.get("values");
    if (values) req.values = parse_strings(*values);
    std::optional<SelectorOperator> op = operator_from(op_text);
    if (op != SelectorOperator::In && op != SelectorOperator::NotIn) {
      invalid(op_node, invalid_value(op_text, "not a valid selector operator"));
    }
    req.op = *op;
    if (req.values.size() != 1) {
      invalid(values ? *values : node.missing("values"),
              required_value("must be only one value when `operator` is 'In' or 'NotIn' for node "
                             "field selector"));
    }
    if (req.key != "metadata.name") {
      invalid(key, invalid_value(req.key, "not a valid field selector key"));
    }
    for (const std::string& message : dns1123_subdomain_errors(req.values[0])) {
      invalid(values->elements()[0], invalid_value(req.values[0], message));
    }
    return req;
  }

  NodeSelectorTerm parse_node_selector_term(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kNodeSelectorTerm);
    NodeSelectorTerm term;
    if (auto expressions = node.get("matchExpressions")) {
      for (const JsonNode& item : expressions->elements()) {
        term.match_expressions.push_back(parse_requirement(item, true));
      }
    }
    if (auto fields = node.get("matchFields")) {
      for (const JsonNode& item : fields->elements()) {
        term.match_fields.push_back(parse_field_requirement(item));
      }
    }
    return term;
  }

  LabelSelector parse_label_selector(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kLabelSelector);
    LabelSelector selector;
    if (auto labels = node.get("matchLabels")) selector.match_labels = parse_labels(*labels);
    if (auto expressions = node.get("matchExpressions")) {
      for (const JsonNode& item : expressions->elements()) {
        selector.match_expressions.push_back(parse_requirement(item, false));
      }
    }
    return selector;
  }

  /// A core/v1 NodeSelector, as ValidateNodeSelector checks it: at least one term.
  std::vector<NodeSelectorTerm> parse_node_selector(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kNodeSelector);
    std::optional<JsonNode> terms = node.get("nodeSelectorTerms");
    std::vector<JsonNode> items = terms ? terms->elements() : std::vector<JsonNode>{};
    if (items.empty()) {
      invalid(terms ? *terms : node.missing("nodeSelectorTerms"),
              required_value("must have at least one node selector term"));
    }
    std::vector<NodeSelectorTerm> out;
    for (const JsonNode& item : items) out.push_back(parse_node_selector_term(item));
    return out;
  }

  NodeAffinity parse_node_affinity(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kNodeAffinity);
    NodeAffinity affinity;
    if (auto required = node.get("requiredDuringSchedulingIgnoredDuringExecution")) {
      affinity.required = parse_node_selector(*required);
    }
    if (auto preferred = node.get("preferredDuringSchedulingIgnoredDuringExecution")) {
      // validatePreferredSchedulingTerms.
      for (const JsonNode& item : preferred->elements()) {
        item.note_unknown_keys(api_fields::kPreferredSchedulingTerm);
        PreferredSchedulingTerm term;
        JsonNode weight = item.required("weight");
        term.weight = weight.int32();
        if (term.weight <= 0 || term.weight > 100) {
          invalid(weight, invalid_value(term.weight, "must be in the range 1-100"));
        }
        term.preference = parse_node_selector_term(item.required("preference"));
        affinity.preferred.push_back(std::move(term));
      }
    }
    return affinity;
  }

  /// spec.topologySpreadConstraints, checked as validateTopologySpreadConstraints
  /// (pkg/apis/core/validation/validation.go) does, in its order: maxSkew, topologyKey,
  /// whenUnsatisfiable, the {topologyKey, whenUnsatisfiable} pair, minDomains, the node
  /// inclusion policies, matchLabelKeys (ValidateMatchLabelKeysInTopologySpread), labelSelector.
  std::vector<TopologySpreadConstraint> parse_topology_spread_constraints(
      const JsonNode& list) const {
    std::vector<TopologySpreadConstraint> out;
    const std::vector<JsonNode> items = list.elements();
    for (const JsonNode& item : items) {
      item.note_unknown_keys(api_fields::kTopologySpreadConstraint);
      TopologySpreadConstraint c;
      if (auto skew = item.get("maxSkew")) c.max_skew = skew->int32();
      if (auto key = item.get("topologyKey")) c.topology_key = key->string();
      if (auto when = item.get("whenUnsatisfiable")) c.when_unsatisfiable = when->string();
      if (auto selector = item.get("labelSelector")) {
        c.label_selector = parse_label_selector(*selector);
      }
      if (auto min = item.get("minDomains")) c.min_domains = min->int32();
      if (auto policy = item.get("nodeAffinityPolicy")) c.node_affinity_policy = policy->string();
      if (auto policy = item.get("nodeTaintsPolicy")) c.node_taints_policy = policy->string();
      if (auto keys = item.get("matchLabelKeys")) c.match_label_keys = parse_strings(*keys);
      out.push_back(std::move(c));
    }
    auto place = [&](std::size_t i, std::string_view field) {
      std::optional<JsonNode> node = items[i].get(field);
      return node ? *node : items[i].missing(field);
    };
    for (std::size_t i = 0; i < out.size(); ++i) {
      const TopologySpreadConstraint& c = out[i];
      if (c.max_skew <= 0) {
        invalid(place(i, "maxSkew"), invalid_value(c.max_skew, "must be greater than zero"));
      }
      if (c.topology_key.empty()) {
        invalid(place(i, "topologyKey"), required_value("can not be empty"));
      }
      if (c.when_unsatisfiable != "DoNotSchedule" && c.when_unsatisfiable != "ScheduleAnyway") {
        invalid(place(i, "whenUnsatisfiable"),
                not_supported(c.when_unsatisfiable, {"DoNotSchedule", "ScheduleAnyway"}));
      }
      for (std::size_t j = i + 1; j < out.size(); ++j) {
        if (out[j].topology_key == c.topology_key &&
            out[j].when_unsatisfiable == c.when_unsatisfiable) {
          FieldPath path = items[i].path();
          path.push_back({PathStep::Kind::Field, "{topologyKey, whenUnsatisfiable}", 0});
          invalid_on(items[i], path,
                     duplicate_value("{" + c.topology_key + ", " + c.when_unsatisfiable + "}"));
        }
      }
      if (c.min_domains) {
        if (*c.min_domains <= 0) {
          invalid(place(i, "minDomains"),
                  invalid_value(*c.min_domains, "must be greater than zero"));
        }
        if (c.when_unsatisfiable != "DoNotSchedule") {
          invalid(place(i, "minDomains"),
                  invalid_value(*c.min_domains,
                                "can only use minDomains if whenUnsatisfiable=DoNotSchedule, "
                                "not " +
                                    c.when_unsatisfiable));
        }
      }
      for (std::string_view field : {"nodeAffinityPolicy", "nodeTaintsPolicy"}) {
        const std::string& policy =
            field == "nodeAffinityPolicy" ? c.node_affinity_policy : c.node_taints_policy;
        if (items[i].get(field) && policy != "Honor" && policy != "Ignore") {
          invalid(place(i, field), not_supported(policy, {"Honor", "Ignore"}));
        }
      }
      if (!c.match_label_keys.empty()) {
        if (!c.label_selector) {
          invalid(place(i, "matchLabelKeys"),
                  forbidden("must not be specified when labelSelector is not set"));
        }
        const std::vector<JsonNode> keys = place(i, "matchLabelKeys").elements();
        for (std::size_t k = 0; k < c.match_label_keys.size(); ++k) {
          const std::string& key = c.match_label_keys[k];
          for (const std::string& message : resource::qualified_name_errors(key)) {
            invalid(keys[k], invalid_value(key, message));
          }
          const LabelSelector& selector = *c.label_selector;
          const bool in_selector =
              selector.match_labels.contains(key) ||
              std::any_of(selector.match_expressions.begin(), selector.match_expressions.end(),
                          [&](const SelectorRequirement& r) { return r.key == key; });
          if (in_selector) {
            invalid(keys[k], invalid_value(key, "exists in both matchLabelKeys and labelSelector"));
          }
        }
      }
    }
    return out;
  }

  /// validatePodAffinityTerm (pkg/apis/core/validation/validation.go), in its order:
  /// ValidatePodAffinityTermSelector, namespaces, validateMatchLabelKeysAndMismatchLabelKeys,
  /// topologyKey. The first error is reported.
  PodAffinityTerm parse_pod_affinity_term(const std::optional<JsonNode>& node,
                                          const JsonNode& place) const {
    PodAffinityTerm term;
    if (node) {
      node->note_unknown_keys(api_fields::kPodAffinityTerm);
      if (auto selector = node->get("labelSelector")) {
        term.label_selector = parse_label_selector(*selector);
      }
      if (auto selector = node->get("namespaceSelector")) {
        term.namespace_selector = parse_label_selector(*selector);
      }
      if (auto namespaces = node->get("namespaces")) {
        FieldPath path = place.path();
        path.push_back(PathStep{PathStep::Kind::Field, "namespace", 0});
        for (const JsonNode& item : namespaces->elements()) {
          std::string name = item.string();
          for (const std::string& message : dns1123_label_errors(name)) {
            invalid_on(item, path, invalid_value(name, message));
          }
          term.namespaces.push_back(std::move(name));
        }
      }
      auto label_keys = [&](std::string_view field, std::vector<std::string>& out) {
        std::optional<JsonNode> keys = node->get(field);
        if (!keys) return;
        std::vector<JsonNode> items = keys->elements();
        if (items.empty()) return;
        if (!term.label_selector) {
          invalid(*keys, forbidden("must not be specified when labelSelector is not set"));
        }
        for (const JsonNode& item : items) {
          std::string key = item.string();
          for (const std::string& message : resource::qualified_name_errors(key)) {
            invalid(item, invalid_value(key, message));
          }
          out.push_back(std::move(key));
        }
      };
      label_keys("matchLabelKeys", term.match_label_keys);
      label_keys("mismatchLabelKeys", term.mismatch_label_keys);
      for (std::size_t i = 0; i < term.match_label_keys.size(); ++i) {
        const std::string& key = term.match_label_keys[i];
        if (std::find(term.mismatch_label_keys.begin(), term.mismatch_label_keys.end(), key) !=
            term.mismatch_label_keys.end()) {
          invalid(node->get("matchLabelKeys")->elements()[i],
                  invalid_value(key, "exists in both matchLabelKeys and mismatchLabelKeys"));
        }
      }
    }
    std::optional<JsonNode> key = node ? node->get("topologyKey") : std::nullopt;
    if (key) term.topology_key = key->string();
    if (term.topology_key.empty()) {
      invalid(key ? *key : place.missing("topologyKey"), required_value("can not be empty"));
    }
    for (const std::string& message : resource::qualified_name_errors(term.topology_key)) {
      invalid(*key, invalid_value(term.topology_key, message));
    }
    return term;
  }

  /// validatePodAffinity / validatePodAntiAffinity: required terms and weighted preferred terms
  /// (validateWeightedPodAffinityTerms: weight first, then the term).
  PodAffinity parse_pod_affinity(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kPodAffinity);
    PodAffinity affinity;
    if (auto required = node.get("requiredDuringSchedulingIgnoredDuringExecution")) {
      for (const JsonNode& item : required->elements()) {
        affinity.required.push_back(parse_pod_affinity_term(item, item));
      }
    }
    if (auto preferred = node.get("preferredDuringSchedulingIgnoredDuringExecution")) {
      for (const JsonNode& item : preferred->elements()) {
        item.note_unknown_keys(api_fields::kWeightedPodAffinityTerm);
        WeightedPodAffinityTerm term;
        std::optional<JsonNode> weight = item.get("weight");
        if (weight) term.weight = weight->int32();
        if (term.weight <= 0 || term.weight > 100) {
          invalid(weight ? *weight : item.missing("weight"),
                  invalid_value(term.weight, "must be in the range 1-100"));
        }
        term.term =
            parse_pod_affinity_term(item.get("podAffinityTerm"), item.missing("podAffinityTerm"));
        affinity.preferred.push_back(std::move(term));
      }
    }
    return affinity;
  }

  /// pkg/apis/core/validation/validation.go ValidateTolerations.
  Toleration parse_toleration(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kToleration);
    Toleration t;
    std::optional<JsonNode> key = node.get("key");
    if (key) t.key = key->string();
    std::string op;
    std::optional<JsonNode> op_node = node.get("operator");
    if (op_node) op = op_node->string();
    JsonNode op_place = op_node ? *op_node : node.missing("operator");
    if (auto value = node.get("value")) t.value = value->string();
    std::string effect;
    std::optional<JsonNode> effect_node = node.get("effect");
    if (effect_node) effect = effect_node->string();
    JsonNode effect_place = effect_node ? *effect_node : node.missing("effect");
    if (auto seconds = node.get("tolerationSeconds")) t.toleration_seconds = seconds->integer();

    if (key) {
      for (const std::string& message : resource::qualified_name_errors(t.key)) {
        invalid(*key, invalid_value(t.key, message));
      }
    }
    if (t.key.empty() && op != "Exists") {
      invalid(op_place, invalid_value(op,
                                      "operator must be Exists when `key` is empty, which "
                                      "means \"match all values and all keys\""));
    }
    if (t.toleration_seconds && effect != "NoExecute") {
      invalid(effect_place,
              invalid_value(effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op.empty() || op == "Equal") {
      t.op = TolerationOperator::Equal;
      for (const std::string& message : label_value_errors(t.value)) {
        invalid(op_place, invalid_value(t.value, message));
      }
    } else if (op == "Exists") {
      t.op = TolerationOperator::Exists;
      if (!t.value.empty()) {
        invalid(op_place, invalid_value_raw(go_toleration(t, op, effect),
                                            "value must be empty when `operator` is 'Exists'"));
      }
    } else {
      invalid(op_place, not_supported(op, {"Equal", "Exists"}));
    }
    if (!effect.empty()) {
      t.effect = taint_effect_from(effect);
      if (!t.effect) {
        invalid(effect_place,
                not_supported(effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
      }
    }
    return t;
  }

  // --- pod spec -------------------------------------------------------------------------

  ContainerPort parse_port(const JsonNode& node) const {
    // validateContainerPorts.
    node.note_unknown_keys(api_fields::kContainerPort);
    ContainerPort port;
    if (auto name = node.get("name")) port.name = name->string();
    std::optional<JsonNode> container_port = node.get("containerPort");
    if (!container_port) invalid(node.missing("containerPort"), required_value());
    port.container_port = container_port->int32();
    if (port.container_port < 1 || port.container_port > 65535) {
      invalid(*container_port,
              invalid_value(port.container_port, "must be between 1 and 65535, inclusive"));
    }
    if (auto host_port = node.get("hostPort")) {
      port.host_port = host_port->int32();
      if (port.host_port != 0 && (port.host_port < 1 || port.host_port > 65535)) {
        invalid(*host_port,
                invalid_value(port.host_port, "must be between 1 and 65535, inclusive"));
      }
    }
    if (auto protocol = node.get("protocol")) {
      port.protocol = protocol->string();
      if (port.protocol != "TCP" && port.protocol != "UDP" && port.protocol != "SCTP") {
        invalid(*protocol, not_supported(port.protocol, {"SCTP", "TCP", "UDP"}));
      }
    }
    if (auto host_ip = node.get("hostIP")) port.host_ip = host_ip->string();
    return port;
  }

  /// A container; `pod_claims` are the pod's spec.resourceClaims, which its resources.claims
  /// must name.
  Container parse_container(const JsonNode& node, bool init,
                            const std::vector<PodResourceClaim>& pod_claims) const {
    node.note_unknown_keys(api_fields::kContainer);
    Container container;
    if (auto name = node.get("name")) container.name = name->string();
    if (auto resources = node.get("resources")) {
      resources->note_unknown_keys(api_fields::kResourceRequirements);
      if (auto requests = resources->get("requests"))
        container.requests = parse_resources(*requests);
      if (auto limits = resources->get("limits")) container.limits = parse_resources(*limits);
      if (auto claims = resources->get("claims")) {
        container.claims = parse_container_claims(*claims, pod_claims);
      }
    }
    if (auto ports = node.get("ports")) {
      for (const JsonNode& item : ports->elements()) container.ports.push_back(parse_port(item));
    }
    if (auto policy = node.get("restartPolicy")) {
      container.restart_policy = policy->string();
      if (!init) invalid(*policy, forbidden("may not be set for non-init containers"));
      if (container.restart_policy != "Always") {
        invalid(*policy, not_supported(container.restart_policy, {"Always"}));
      }
    }
    return container;
  }

  /// A pod spec at `node` (absent: `place` names where it should be), defaulted and validated.
  PodSpec parse_pod_spec(const std::optional<JsonNode>& node, const JsonNode& place) const {
    if (node) node->note_unknown_keys(api_fields::kPodSpec);
    PodSpec spec;
    // ValidatePodSpec checks the claims before the containers that refer to them.
    if (node) spec.resource_claims = parse_pod_resource_claims(*node);
    std::optional<JsonNode> containers = node ? node->get("containers") : std::nullopt;
    std::vector<JsonNode> items = containers ? containers->elements() : std::vector<JsonNode>{};
    if (items.empty()) {
      invalid(containers ? *containers : place.missing("containers"), required_value());
    }
    for (const JsonNode& item : items) {
      spec.containers.push_back(parse_container(item, false, spec.resource_claims));
    }
    if (auto init = node->get("initContainers")) {
      for (const JsonNode& item : init->elements()) {
        spec.init_containers.push_back(parse_container(item, true, spec.resource_claims));
      }
    }
    if (auto overhead = node->get("overhead")) spec.overhead = parse_resources(*overhead);
    if (auto selector = node->get("nodeSelector")) spec.node_selector = parse_labels(*selector);
    if (auto affinity = node->get("affinity")) {
      affinity->note_unknown_keys(api_fields::kAffinity);
      if (auto node_affinity = affinity->get("nodeAffinity")) {
        spec.affinity.mut().node_affinity = parse_node_affinity(*node_affinity);
      }
      if (auto pod_affinity = affinity->get("podAffinity")) {
        spec.affinity.mut().pod_affinity = parse_pod_affinity(*pod_affinity);
      }
      if (auto anti_affinity = affinity->get("podAntiAffinity")) {
        spec.affinity.mut().pod_anti_affinity = parse_pod_affinity(*anti_affinity);
      }
    }
    if (auto tolerations = node->get("tolerations")) {
      for (const JsonNode& item : tolerations->elements()) {
        spec.tolerations.push_back(parse_toleration(item));
      }
    }
    if (auto spread = node->get("topologySpreadConstraints")) {
      spec.topology_spread_constraints = parse_topology_spread_constraints(*spread);
    }
    if (auto priority = node->get("priority")) spec.priority = priority->int32();
    if (auto name = node->get("priorityClassName")) {
      // ValidatePodSpec: ValidatePriorityClassName, a DNS-1123 subdomain.
      spec.priority_class_name = name->string();
      for (const std::string& message : dns1123_subdomain_errors(spec.priority_class_name)) {
        invalid(*name, invalid_value(spec.priority_class_name, message));
      }
    }
    if (auto policy = node->get("preemptionPolicy")) {
      spec.preemption_policy = policy->string();
      if (spec.preemption_policy != "PreemptLowerPriority" && spec.preemption_policy != "Never") {
        invalid(*policy, not_supported(spec.preemption_policy, {"PreemptLowerPriority", "Never"}));
      }
    }
    if (auto name = node->get("schedulerName")) {
      spec.scheduler_name = name->string();
      if (spec.scheduler_name.empty()) spec.scheduler_name = "default-scheduler";
    }
    if (auto name = node->get("nodeName")) {
      // ValidatePodSpec: ValidateNodeName, a DNS-1123 subdomain.
      spec.node_name = name->string();
      for (const std::string& message : dns1123_subdomain_errors(spec.node_name)) {
        invalid(*name, invalid_value(spec.node_name, message));
      }
    }
    if (auto policy = node->get("restartPolicy")) {
      spec.restart_policy = policy->string();
      if (spec.restart_policy.empty()) spec.restart_policy = "Always";
      if (spec.restart_policy != "Always" && spec.restart_policy != "OnFailure" &&
          spec.restart_policy != "Never") {
        invalid(*policy, not_supported(spec.restart_policy, {"Always", "OnFailure", "Never"}));
      }
    }
    if (auto grace = node->get("terminationGracePeriodSeconds")) {
      spec.termination_grace_period_seconds = grace->integer();
      if (spec.termination_grace_period_seconds < 0) {
        invalid(*grace, invalid_value(spec.termination_grace_period_seconds,
                                      "must be greater than or equal to 0"));
      }
    }
    if (auto host_network = node->get("hostNetwork"); host_network && host_network->boolean()) {
      // defaultHostNetworkPorts: on the host's network every container port is a host port.
      for (auto* list : {&spec.containers, &spec.init_containers}) {
        for (Container& c : list->mut()) {
          for (ContainerPort& port : c.ports) {
            if (port.host_port == 0) port.host_port = port.container_port;
          }
        }
      }
    }
    if (auto gates = node->get("schedulingGates")) spec.scheduling_gates = parse_gates(*gates);
    if (auto resources = node->get("resources")) {
      resources->note_unknown_keys(api_fields::kResourceRequirements);
      PodLevelResources& pod_level = spec.resources.emplace();
      if (auto requests = resources->get("requests"))
        pod_level.requests = parse_resources(*requests);
      if (auto limits = resources->get("limits")) pod_level.limits = parse_resources(*limits);
      validate_pod_level_resources(*resources, pod_level);
    }
    if (auto ref = node->get("workloadRef")) spec.workload_ref = parse_workload_ref(*ref);
    if (auto group = node->get("schedulingGroup"))
      spec.scheduling_group = parse_scheduling_group(*group);
    if (auto volumes = node->get("volumes")) note_unmodelled_volumes(*volumes);
    // The RuntimeClass admission plugin adds the class's overhead and scheduling (nodeSelector,
    // tolerations) on create; a pod read back from a cluster (it has a status) already has them.
    if (auto runtime_class = node->get("runtimeClassName");
        runtime_class && !(kind_ == "Pod" && root_.get("status"))) {
      runtime_class->note_not_modelled(
          "RuntimeClass objects are not read: the overhead and the nodeSelector and tolerations "
          "of RuntimeClass \"" +
          runtime_class->string() + "\" are not added to the pod");
    }
    default_requests_from_limits(spec);
    report(validate_pod_spec(spec, node->path()));
    return spec;
  }

  /// Volumes backed by PersistentVolumeClaims (or generic ephemeral ones, which make claims):
  /// where such a pod may run depends on its volumes (VolumeBinding, VolumeZone,
  /// NodeVolumeLimits, VolumeRestrictions), which gpusched does not model.
  static void note_unmodelled_volumes(const JsonNode& volumes) {
    if (!volumes.json().is_array()) return;
    for (const JsonNode& volume : volumes.elements()) {
      for (const char* source : {"persistentVolumeClaim", "ephemeral"}) {
        if (auto claim = volume.get(source)) {
          claim->note_not_modelled(
              "volume binding is not modelled (VolumeBinding, VolumeZone, NodeVolumeLimits): "
              "the pod is placed as if its volume were available on every node");
        }
      }
    }
  }

  /// spec.workloadRef (1.35): the name and pod group are required (ValidatePodSpec).
  WorkloadReference parse_workload_ref(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kWorkloadReference);
    WorkloadReference ref;
    std::optional<JsonNode> name = node.get("name");
    if (name) ref.name = name->string();
    if (ref.name.empty()) invalid(name ? *name : node.missing("name"), required_value());
    for (const std::string& message : dns1123_subdomain_errors(ref.name)) {
      invalid(*name, invalid_value(ref.name, message));
    }
    std::optional<JsonNode> group = node.get("podGroup");
    if (group) ref.pod_group = group->string();
    if (ref.pod_group.empty()) invalid(group ? *group : node.missing("podGroup"), required_value());
    for (const std::string& message : dns1123_label_errors(ref.pod_group)) {
      invalid(*group, invalid_value(ref.pod_group, message));
    }
    if (auto key = node.get("podGroupReplicaKey")) ref.pod_group_replica_key = key->string();
    return ref;
  }

  /// spec.schedulingGroup (1.36): exactly one member, podGroupName, a DNS subdomain.
  std::string parse_scheduling_group(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kPodSchedulingGroup);
    std::optional<JsonNode> name = node.get("podGroupName");
    std::string out = name ? name->string() : std::string();
    if (out.empty()) invalid(name ? *name : node.missing("podGroupName"), required_value());
    for (const std::string& message : dns1123_subdomain_errors(out)) {
      invalid(*name, invalid_value(out, message));
    }
    return out;
  }

  /// A v1alpha2 PodGroupSchedulingPolicy, as validatePodGroupSchedulingPolicy (1.36): exactly one
  /// of basic and gang; a gang's minCount required (0) and positive. The gang's minCount, or
  /// nullopt for basic.
  std::optional<std::int32_t> parse_scheduling_policy(const JsonNode& owner) const {
    std::optional<JsonNode> policy = owner.get("schedulingPolicy");
    JsonNode place = policy ? *policy : owner.missing("schedulingPolicy");
    if (policy) policy->note_unknown_keys(api_fields::kPodGroupPolicy);
    const std::optional<JsonNode> basic = policy ? policy->get("basic") : std::nullopt;
    const std::optional<JsonNode> gang = policy ? policy->get("gang") : std::nullopt;
    const bool has_basic = basic && !basic->json().is_null();
    const bool has_gang = gang && !gang->json().is_null();
    if (!has_basic && !has_gang) {
      invalid(place, invalid_value("", "must specify one of: `basic`, `gang`"));
    }
    if (has_basic && has_gang) {
      invalid(place, invalid_value("{`basic`, `gang`}",
                                   "exactly one of `basic`, `gang` is required, but multiple "
                                   "fields are set"));
    }
    if (!has_gang) return std::nullopt;
    gang->note_unknown_keys(api_fields::kGangSchedulingPolicy);
    std::optional<JsonNode> min_count = gang->get("minCount");
    const std::int32_t value = min_count ? min_count->int32() : 0;
    if (value == 0) invalid(min_count ? *min_count : gang->missing("minCount"), required_value());
    // ValidatePositiveField.
    if (value < 0) invalid(*min_count, invalid_value(value, "must be greater than 0"));
    return value;
  }

  /// schedulingConstraints (TopologyAwareWorkloadScheduling, alpha in 1.36).
  static void note_scheduling_constraints(const JsonNode& owner) {
    if (auto constraints = owner.get("schedulingConstraints");
        constraints && !constraints->json().is_null()) {
      constraints->note_not_modelled(
          "topology-aware workload scheduling (TopologyAwareWorkloadScheduling) is not "
          "modelled: the group's pods are not kept within one topology domain");
    }
  }

  /// scheduling.k8s.io/v1alpha2 Workload (1.36), validated as pkg/apis/scheduling/validation
  /// ValidateWorkload (release-1.36): one to eight podGroupTemplates with required, unique
  /// DNS-label names (ValidatePodGroupName) and a valid schedulingPolicy; a controllerRef as
  /// 1.35's.
  Object parse_workload_v1alpha2() {
    SchedulingWorkload workload;
    workload.v1alpha2 = true;
    workload.metadata = parse_metadata(true);
    std::optional<JsonNode> spec = root_.get("spec");
    JsonNode place = spec ? *spec : root_.missing("spec");
    if (spec) spec->note_unknown_keys(api_fields::kWorkloadSpecV1alpha2);
    if (auto ref = spec ? spec->get("controllerRef") : std::nullopt) {
      workload.controller_ref = parse_controller_ref(*ref);
    }
    std::optional<JsonNode> templates = spec ? spec->get("podGroupTemplates") : std::nullopt;
    std::vector<JsonNode> items = templates ? templates->elements() : std::vector<JsonNode>{};
    if (items.empty()) {
      invalid(templates ? *templates : place.missing("podGroupTemplates"),
              required_value("must have at least one item"));
    }
    if (items.size() > kWorkloadMaxPodGroupTemplates) {
      invalid(*templates, "Too many: " + std::to_string(items.size()) + ": must have at most " +
                              std::to_string(kWorkloadMaxPodGroupTemplates) + " items");
    }
    for (const JsonNode& item : items) {
      item.note_unknown_keys(api_fields::kPodGroupTemplate);
      WorkloadPodGroup group;
      std::optional<JsonNode> name = item.get("name");
      if (name) group.name = name->string();
      if (group.name.empty()) invalid(name ? *name : item.missing("name"), required_value());
      for (const std::string& message : dns1123_label_errors(group.name)) {
        invalid(*name, invalid_value(group.name, message));
      }
      if (workload.pod_group(group.name) != nullptr) invalid(item, duplicate_value(group.name));
      group.gang_min_count = parse_scheduling_policy(item);
      note_scheduling_constraints(item);
      workload.pod_groups.push_back(std::move(group));
    }
    return workload;
  }

  /// scheduling.k8s.io/v1alpha2 PodGroup (1.36), validated as ValidatePodGroup (release-1.36):
  /// a DNS-label name (ValidatePodGroupName), a podGroupTemplateRef's workload and template
  /// names required DNS labels, a valid schedulingPolicy. Its status is the scheduler's.
  Object parse_pod_group() {
    PodGroup group;
    group.metadata = parse_metadata(true);
    if (std::optional<JsonNode> name = root_.get("metadata")->get("name")) {
      for (const std::string& message : dns1123_label_errors(group.metadata.name)) {
        invalid(*name, invalid_value(group.metadata.name, message));
      }
    }
    std::optional<JsonNode> spec = root_.get("spec");
    if (!spec) invalid(root_.missing("spec"), required_value());
    spec->note_unknown_keys(api_fields::kPodGroupSpec);
    if (auto ref = spec->get("podGroupTemplateRef"); ref && !ref->json().is_null()) {
      ref->note_unknown_keys(api_fields::kPodGroupTemplateReference);
      if (auto workload = ref->get("workload"); workload && !workload->json().is_null()) {
        workload->note_unknown_keys(api_fields::kWorkloadPodGroupTemplateReference);
        PodGroupTemplateRef& out = group.template_ref.emplace();
        for (auto [key, field] :
             {std::pair{"workloadName", &out.workload_name},
              std::pair{"podGroupTemplateName", &out.pod_group_template_name}}) {
          std::optional<JsonNode> value = workload->get(key);
          if (value) *field = value->string();
          if (field->empty()) invalid(value ? *value : workload->missing(key), required_value());
          for (const std::string& message : dns1123_label_errors(*field)) {
            invalid(*value, invalid_value(*field, message));
          }
        }
      }
    }
    group.gang_min_count = parse_scheduling_policy(*spec);
    note_scheduling_constraints(*spec);
    return group;
  }

  /// scheduling.k8s.io/v1alpha1 Workload, validated as pkg/apis/scheduling/validation
  /// ValidateWorkload (1.35): a DNS-subdomain name (ValidateWorkloadName), at least one pod
  /// group, unique DNS-label group names (ValidatePodGroupName), exactly one policy, a positive
  /// gang minCount, and a controllerRef with kind and name.
  Object parse_scheduling_workload() {
    SchedulingWorkload workload;
    workload.metadata = parse_metadata(true);
    std::optional<JsonNode> spec = root_.get("spec");
    JsonNode place = spec ? *spec : root_.missing("spec");
    if (spec) spec->note_unknown_keys(api_fields::kWorkloadSpec);
    if (auto ref = spec ? spec->get("controllerRef") : std::nullopt) {
      workload.controller_ref = parse_controller_ref(*ref);
    }
    std::optional<JsonNode> groups = spec ? spec->get("podGroups") : std::nullopt;
    std::vector<JsonNode> items = groups ? groups->elements() : std::vector<JsonNode>{};
    if (items.empty()) {
      invalid(groups ? *groups : place.missing("podGroups"),
              required_value("must have at least one item"));
    }
    for (const JsonNode& item : items) {
      item.note_unknown_keys(api_fields::kWorkloadPodGroup);
      WorkloadPodGroup group;
      std::optional<JsonNode> name = item.get("name");
      if (name) group.name = name->string();
      for (const std::string& message : dns1123_label_errors(group.name)) {
        invalid(name ? *name : item.missing("name"), invalid_value(group.name, message));
      }
      if (workload.pod_group(group.name) != nullptr) {
        invalid(*name, duplicate_value(group.name));
      }
      std::optional<JsonNode> policy = item.get("policy");
      JsonNode policy_place = policy ? *policy : item.missing("policy");
      if (policy) policy->note_unknown_keys(api_fields::kPodGroupPolicy);
      const std::optional<JsonNode> basic = policy ? policy->get("basic") : std::nullopt;
      const std::optional<JsonNode> gang = policy ? policy->get("gang") : std::nullopt;
      const bool has_basic = basic && !basic->json().is_null();
      const bool has_gang = gang && !gang->json().is_null();
      if (!has_basic && !has_gang) {
        invalid(policy_place, required_value("exactly one of `basic`, `gang` is required"));
      }
      if (has_basic && has_gang) {
        invalid(policy_place,
                invalid_value("{`basic`, `gang`}",
                              "exactly one of `basic`, `gang` is required, but multiple fields "
                              "are set"));
      }
      if (has_gang) {
        gang->note_unknown_keys(api_fields::kGangSchedulingPolicy);
        std::optional<JsonNode> min_count = gang->get("minCount");
        const std::int32_t value = min_count ? min_count->int32() : 0;
        if (value <= 0) {
          // ValidatePositiveField.
          invalid(min_count ? *min_count : gang->missing("minCount"),
                  invalid_value(value, "must be greater than 0"));
        }
        group.gang_min_count = value;
      }
      workload.pod_groups.push_back(std::move(group));
    }
    return workload;
  }

  /// validateControllerRef: apiGroup a DNS subdomain when set; kind and name required, valid
  /// path segment names (IsValidPathSegmentName).
  WorkloadControllerRef parse_controller_ref(const JsonNode& node) const {
    node.note_unknown_keys(api_fields::kTypedLocalObjectReference);
    WorkloadControllerRef ref;
    if (auto group = node.get("apiGroup")) {
      ref.api_group = group->string();
      if (!ref.api_group.empty()) {
        for (const std::string& message : dns1123_subdomain_errors(ref.api_group)) {
          invalid(*group, invalid_value(ref.api_group, message));
        }
      }
    }
    for (auto [key, field] : {std::pair{"kind", &ref.kind}, std::pair{"name", &ref.name}}) {
      std::optional<JsonNode> value = node.get(key);
      if (value) *field = value->string();
      if (field->empty()) invalid(value ? *value : node.missing(key), required_value());
      for (const std::string& message : path_segment_name_errors(*field)) {
        invalid(*value, invalid_value(*field, message));
      }
    }
    return ref;
  }

  /// spec.schedulingGates, validated as validateSchedulingGates does: qualified names, no repeats.
  std::vector<std::string> parse_gates(const JsonNode& gates) const {
    std::vector<std::string> names;
    for (const JsonNode& item : gates.elements()) {
      item.note_unknown_keys(api_fields::kPodSchedulingGate);
      const JsonNode name_node = item.required("name");
      std::string name = name_node.string();
      for (const std::string& message : resource::qualified_name_errors(name)) {
        invalid(name_node, invalid_value(name, message));
      }
      if (std::find(names.begin(), names.end(), name) != names.end()) {
        invalid(item, duplicate_value(name));
      }
      names.push_back(std::move(name));
    }
    return names;
  }

  /// validatePodResourceRequirements: pod-level resources are cpu, memory and hugepages-* only,
  /// and a request may not exceed its limit.
  void validate_pod_level_resources(const JsonNode& node,
                                    const PodLevelResources& resources) const {
    for (const char* key : {"requests", "limits"}) {
      const std::optional<JsonNode> list = node.get(key);
      if (!list) continue;
      for (const auto& [name, entry] : list->entries()) {
        if (is_supported_pod_level_resource(name)) continue;
        invalid(entry, not_supported(name, {"cpu", "hugepages-", "memory"}));
      }
    }
    for (const auto& [name, request] : resources.requests) {
      const auto limit = resources.limits.find(name);
      if (limit == resources.limits.end() || !(limit->second < request)) continue;
      const JsonNode at = node.required("requests").required(name);
      invalid(at, invalid_value(request.to_string(), "must be less than or equal to " + name +
                                                         " limit of " + limit->second.to_string()));
    }
  }

  /// spec.resourceClaims, checked as validatePodResourceClaims (pkg/apis/core/validation/
  /// validation.go): a required, unique DNS-label name and exactly one of a claim's name and a
  /// template's, each a valid object name.
  std::vector<PodResourceClaim> parse_pod_resource_claims(const JsonNode& spec) const {
    std::vector<PodResourceClaim> claims;
    const std::optional<JsonNode> list = spec.get("resourceClaims");
    if (!list) return claims;
    for (const JsonNode& item : list->elements()) {
      item.note_unknown_keys(api_fields::kPodResourceClaim);
      PodResourceClaim claim;
      const std::optional<JsonNode> name = item.get("name");
      if (name) claim.name = name->string();
      const std::optional<JsonNode> claim_name = item.get("resourceClaimName");
      if (claim_name) claim.resource_claim_name = claim_name->string();
      const std::optional<JsonNode> template_name = item.get("resourceClaimTemplateName");
      if (template_name) claim.resource_claim_template_name = template_name->string();
      if (claim.name.empty()) invalid(name ? *name : item.missing("name"), required_value());
      if (std::any_of(claims.begin(), claims.end(),
                      [&](const PodResourceClaim& c) { return c.name == claim.name; })) {
        invalid(*name, duplicate_value(claim.name));
      }
      for (const std::string& message : dns1123_label_errors(claim.name)) {
        invalid(*name, invalid_value(claim.name, message));
      }
      if (claim_name && template_name) {
        invalid(item, invalid_value_raw(go_pod_resource_claim(claim),
                                        "at most one of `resourceClaimName` or "
                                        "`resourceClaimTemplateName` may be specified"));
      }
      if (!claim_name && !template_name) {
        invalid(item, invalid_value_raw(go_pod_resource_claim(claim),
                                        "must specify one of: `resourceClaimName`, "
                                        "`resourceClaimTemplateName`"));
      }
      // ValidateResourceClaimName and ValidateResourceClaimTemplateName: DNS subdomains.
      for (const auto& [node, value] :
           {std::pair{claim_name, claim.resource_claim_name},
            std::pair{template_name, claim.resource_claim_template_name}}) {
        if (!value) continue;
        for (const std::string& message : dns1123_subdomain_errors(*value)) {
          invalid(*node, invalid_value(*value, message));
        }
      }
      claims.push_back(std::move(claim));
    }
    return claims;
  }

  /// A container's resources.claims, checked as validateResourceClaimNames: each names one of
  /// the pod's claims (and optionally one of its requests), no claim or request twice.
  std::vector<ContainerClaim> parse_container_claims(
      const JsonNode& list, const std::vector<PodResourceClaim>& pod_claims) const {
    std::vector<ContainerClaim> out;
    std::vector<std::string> keys;  // `<claim>` or `<claim>/<request>`, as referenced
    auto referenced = [&](const std::string& key) {
      return std::find(keys.begin(), keys.end(), key) != keys.end();
    };
    for (const JsonNode& item : list.elements()) {
      item.note_unknown_keys(api_fields::kContainerResourceClaim);
      ContainerClaim claim;
      if (auto name = item.get("name")) claim.name = name->string();
      if (auto request = item.get("request")) claim.request = request->string();
      if (claim.name.empty()) invalid(item, required_value());
      // Every request of the claim is referenced already.
      if (referenced(claim.name)) invalid(item, duplicate_value(claim.name));
      std::string key = claim.name;
      if (!claim.request.empty()) {
        for (const std::string& message : dns1123_label_errors(claim.request)) {
          invalid(*item.get("request"), invalid_value(claim.request, message));
        }
        key += "/" + claim.request;
      }
      if (referenced(key)) invalid(item, duplicate_value(key));
      // The whole claim after one of its requests overlaps too.
      if (claim.request.empty() && std::any_of(keys.begin(), keys.end(), [&](const std::string& k) {
            return k.starts_with(claim.name + "/");
          })) {
        invalid(item, duplicate_value(claim.name));
      }
      keys.push_back(std::move(key));
      if (std::none_of(pod_claims.begin(), pod_claims.end(),
                       [&](const PodResourceClaim& c) { return c.name == claim.name; })) {
        // field.NotFound, with upstream's added explanation listing the names (sorted).
        std::set<std::string> names;
        for (const PodResourceClaim& c : pod_claims) names.insert(c.name);
        std::string detail = "must be one of the names in pod.spec.resourceClaims";
        detail += names.empty()
                      ? std::string(" which is empty")
                      : ": " + joined(std::vector<std::string>(names.begin(), names.end()));
        invalid(item, "Not found: " + go_quote(claim.name) + ": " + detail);
      }
      out.push_back(std::move(claim));
    }
    return out;
  }

  /// status.resourceClaimStatuses (a pod read back from a cluster), checked as
  /// validatePodResourceClaimStatuses does on a status update.
  std::vector<PodResourceClaimStatus> parse_claim_statuses(
      const JsonNode& list, const std::vector<PodResourceClaim>& pod_claims) const {
    std::vector<PodResourceClaimStatus> out;
    for (const JsonNode& item : list.elements()) {
      item.note_unknown_keys(api_fields::kPodResourceClaimStatus);
      PodResourceClaimStatus status;
      const std::optional<JsonNode> name = item.get("name");
      if (name) status.name = name->string();
      const JsonNode name_place = name ? *name : item.missing("name");
      if (std::none_of(pod_claims.begin(), pod_claims.end(),
                       [&](const PodResourceClaim& c) { return c.name == status.name; })) {
        invalid(name_place, invalid_value(status.name,
                                          "must match the name of an entry in "
                                          "`spec.resourceClaims`"));
      }
      if (std::any_of(out.begin(), out.end(),
                      [&](const PodResourceClaimStatus& s) { return s.name == status.name; })) {
        invalid(name_place, duplicate_value(status.name));
      }
      if (auto claim = item.get("resourceClaimName")) {
        status.resource_claim_name = claim->string();
        // Upstream names the entry's `name` for an invalid generated claim name.
        for (const std::string& message : dns1123_subdomain_errors(*status.resource_claim_name)) {
          invalid_on(*claim, name_place.path(),
                     invalid_value(*status.resource_claim_name, message));
        }
      }
      out.push_back(std::move(status));
    }
    return out;
  }

  /// spec.template.metadata: labels and annotations. The first look at spec.template, so its
  /// unknown fields are noted here.
  ObjectMeta parse_template_metadata(const std::optional<JsonNode>& tmpl) const {
    ObjectMeta out;
    if (tmpl) tmpl->note_unknown_keys(api_fields::kPodTemplateSpec);
    std::optional<JsonNode> meta = tmpl ? tmpl->get("metadata") : std::nullopt;
    if (!meta) return out;
    meta->note_unknown_keys(api_fields::kObjectMeta);
    if (auto labels = meta->get("labels")) out.labels = parse_labels(*labels);
    if (auto annotations = meta->get("annotations")) {
      out.annotations = parse_annotations(*annotations);
    }
    return out;
  }

  /// spec.template.spec, defaulted and validated.
  PodSpec parse_template_spec(const std::optional<JsonNode>& tmpl,
                              const JsonNode& spec_place) const {
    JsonNode place = tmpl ? *tmpl : spec_place.missing("template");
    return parse_pod_spec(tmpl ? tmpl->get("spec") : std::nullopt, place.missing("spec"));
  }

  /// spec.template: labels, annotations and the pod spec at spec.template.spec.
  PodTemplateSpec parse_template(const JsonNode& spec_place) const {
    const std::optional<JsonNode> tmpl = spec_place.get("template");
    PodTemplateSpec out;
    out.metadata = parse_template_metadata(tmpl);
    out.spec = parse_template_spec(tmpl, spec_place);
    return out;
  }

  /// A non-negative int32 count bounded by kMaxReplicas (ValidateNonnegativeField).
  std::int32_t parse_count(const JsonNode& node) const {
    std::int64_t value = node.integer();
    if (value < 0) invalid(node, invalid_value(value, "must be greater than or equal to 0"));
    if (value > kMaxReplicas) {
      invalid(node, invalid_value(value, "must be no more than " + std::to_string(kMaxReplicas) +
                                             " (gpusched limit)"));
    }
    return static_cast<std::int32_t>(value);
  }

  // --- kinds ----------------------------------------------------------------------------

  Object parse_node() {
    Node node;
    node.metadata = parse_metadata(false);
    if (auto spec = root_.get("spec")) {
      spec->note_unknown_keys(api_fields::kNodeSpec);
      if (auto unschedulable = spec->get("unschedulable"))
        node.unschedulable = unschedulable->boolean();
      if (auto taints = spec->get("taints")) {
        // validateNodeTaints.
        std::set<std::pair<std::string, std::string>> seen;
        for (const JsonNode& item : taints->elements()) {
          item.note_unknown_keys(api_fields::kTaint);
          Taint taint;
          JsonNode key = item.required("key");
          taint.key = key.string();
          for (const std::string& message : resource::qualified_name_errors(taint.key)) {
            invalid(key, invalid_value(taint.key, message));
          }
          if (auto value = item.get("value")) {
            taint.value = value->string();
            for (const std::string& message : label_value_errors(taint.value)) {
              invalid(*value, invalid_value(taint.value, message));
            }
          }
          std::optional<JsonNode> effect = item.get("effect");
          std::string effect_text = effect ? effect->string() : "";
          if (effect_text.empty())
            invalid(effect ? *effect : item.missing("effect"), required_value());
          std::optional<TaintEffect> parsed = taint_effect_from(effect_text);
          if (!parsed) {
            invalid(*effect,
                    not_supported(effect_text, {"NoSchedule", "PreferNoSchedule", "NoExecute"}));
          }
          taint.effect = *parsed;
          if (!seen.emplace(taint.key, effect_text).second) {
            invalid(item, "Duplicate value: core.Taint{Key:" + go_quote(taint.key) + ", Value:" +
                              go_quote(taint.value) + ", Effect:" + go_quote(effect_text) +
                              ", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and "
                              "effect pair");
          }
          node.taints.push_back(std::move(taint));
        }
      }
    }
    if (auto status = root_.get("status")) {
      status->note_unknown_keys(api_fields::kNodeStatus);
      std::optional<JsonNode> capacity = status->get("capacity");
      std::optional<JsonNode> allocatable = status->get("allocatable");
      if (capacity) node.capacity = parse_resources(*capacity);
      if (allocatable) node.allocatable = parse_resources(*allocatable);
      // A node reports both; a scenario may write one and mean the other too.
      if (!allocatable) node.allocatable = node.capacity;
      if (!capacity) node.capacity = node.allocatable;
      if (auto conditions = status->get("conditions")) {
        for (const JsonNode& item : conditions->elements()) {
          item.note_unknown_keys(api_fields::kNodeCondition);
          NodeCondition condition;
          condition.type = item.required("type").string();
          condition.status = item.required("status").string();
          if (auto reason = item.get("reason")) condition.reason = reason->string();
          if (auto message = item.get("message")) condition.message = message->string();
          node.conditions.push_back(std::move(condition));
        }
      }
    }
    report(validate_node(node));
    return node;
  }

  Object parse_pod() {
    Pod pod;
    pod.metadata = parse_metadata(true);
    pod.spec = parse_pod_spec(root_.get("spec"), root_.missing("spec"));
    // ValidatePodCreate: "A Pod cannot be assigned a Node if there are remaining scheduling gates."
    if (!pod.spec.node_name.empty() && !pod.spec.scheduling_gates.empty()) {
      invalid(root_.required("spec").required("nodeName"),
              forbidden("cannot be set until all schedulingGates have been cleared"));
    }
    if (auto status = root_.get("status")) {
      status->note_unknown_keys(api_fields::kPodStatus);
      if (auto phase = status->get("phase")) {
        std::string text = phase->string();
        std::optional<PodPhase> parsed = phase_from(text);
        if (!parsed)
          invalid(*phase,
                  not_supported(text, {"Pending", "Running", "Succeeded", "Failed", "Unknown"}));
        pod.status.phase = *parsed;
      }
      if (auto conditions = status->get("conditions")) {
        for (const JsonNode& item : conditions->elements()) {
          item.note_unknown_keys(api_fields::kPodCondition);
          PodCondition condition;
          condition.type = item.required("type").string();
          condition.status = item.required("status").string();
          if (auto reason = item.get("reason")) condition.reason = reason->string();
          if (auto message = item.get("message")) condition.message = message->string();
          pod.status.conditions.push_back(std::move(condition));
        }
      }
      if (auto nominated = status->get("nominatedNodeName")) {
        pod.status.nominated_node_name = nominated->string();
      }
      if (auto statuses = status->get("resourceClaimStatuses")) {
        pod.status.resource_claim_statuses =
            parse_claim_statuses(*statuses, pod.spec.resource_claims);
      }
      if (auto extended = status->get("extendedResourceClaimStatus")) {
        // Which claim kube-scheduler made for the pod's extended resources: the resourceclaim
        // controller releases it when the pod ends.
        extended->note_unknown_keys(api_fields::kPodExtendedResourceClaimStatus);
        PodExtendedResourceClaimStatus& out = pod.status.extended_resource_claim_status.emplace();
        out.resource_claim_name = extended->required("resourceClaimName").string();
        if (auto mappings = extended->get("requestMappings")) {
          for (const JsonNode& item : mappings->elements()) {
            item.note_unknown_keys(api_fields::kContainerExtendedResourceRequest);
            out.request_mappings.push_back({item.required("containerName").string(),
                                            item.required("resourceName").string(),
                                            item.required("requestName").string()});
          }
        }
      }
    }
    return pod;
  }

  /// Deployment and ReplicaSet (apps/v1 ValidateDeploymentSpec / ValidateReplicaSetSpec).
  template <typename T>
  Object parse_replicated() {
    T object;
    object.metadata = parse_metadata(true);
    std::optional<JsonNode> spec = root_.get("spec");
    JsonNode place = spec ? *spec : root_.missing("spec");
    if (spec) {
      spec->note_unknown_keys(std::is_same_v<T, Deployment> ? Fields(api_fields::kDeploymentSpec)
                                                            : Fields(api_fields::kReplicaSetSpec));
      if (auto replicas = spec->get("replicas")) object.replicas = parse_count(*replicas);
    }
    object.template_ = parse_template(place);
    std::optional<JsonNode> selector = spec ? spec->get("selector") : std::nullopt;
    if (selector) {
      object.selector = parse_label_selector(*selector);
      if (object.selector.empty()) {
        invalid(*selector, invalid_value_raw(go_empty_label_selector(*selector),
                                             "empty selector is invalid for deployment"));
      }
      if (!object.selector.matches(object.template_.metadata.labels)) {
        JsonNode labels = place.missing("template").missing("metadata").missing("labels");
        invalid(labels, invalid_value_raw(go_string_map(object.template_.metadata.labels),
                                          "`selector` does not match template `labels`"));
      }
    } else {
      // apps/v1 requires a selector; gpusched takes the template labels, as kubectl run did.
      object.selector.match_labels = object.template_.metadata.labels;
      if (object.selector.empty()) invalid(place.missing("selector"), required_value());
    }
    return object;
  }

  /// apps/v1 DaemonSet: ValidateDaemonSetSpec (pkg/apis/apps/validation/validation.go), in its
  /// order: the selector's syntax, the template labels against the selector, an empty
  /// selector, the pod template, then restartPolicy Always. apps/v1 gives the selector no
  /// default: without one (LabelSelectorAsSelector(nil) selects nothing) the labels never match.
  Object parse_daemon_set() {
    DaemonSet ds;
    ds.metadata = parse_metadata(true);
    std::optional<JsonNode> spec = root_.get("spec");
    if (spec) spec->note_unknown_keys(api_fields::kDaemonSetSpec);
    JsonNode place = spec ? *spec : root_.missing("spec");
    std::optional<JsonNode> selector = spec ? spec->get("selector") : std::nullopt;
    if (selector) ds.selector = parse_label_selector(*selector);
    const std::optional<JsonNode> tmpl = spec ? spec->get("template") : std::nullopt;
    ds.template_.metadata = parse_template_metadata(tmpl);
    if (!selector || !ds.selector.matches(ds.template_.metadata.labels)) {
      JsonNode labels = place.missing("template").missing("metadata").missing("labels");
      // field.Invalid prints the map with %#v: `map[string]string(nil)` when it is absent.
      const bool written = tmpl && tmpl->get("metadata") && tmpl->get("metadata")->get("labels");
      invalid(labels, invalid_value_raw(written ? go_string_map(ds.template_.metadata.labels)
                                                : "map[string]string(nil)",
                                        "`selector` does not match template `labels`"));
    }
    if (ds.selector.empty()) {
      invalid(*selector, invalid_value_raw(go_empty_label_selector(*selector),
                                           "empty selector is invalid for daemonset"));
    }
    ds.template_.spec = parse_template_spec(tmpl, place);
    require_restart_always(ds.template_.spec, place);
    return ds;
  }

  /// The pod template of a controller whose pods keep running (DaemonSet, StatefulSet): only
  /// restartPolicy Always is supported.
  void require_restart_always(const PodSpec& spec, const JsonNode& place) const {
    if (spec.restart_policy == "Always") return;
    invalid(place.missing("template").missing("spec").missing("restartPolicy"),
            not_supported(spec.restart_policy, {"Always"}));
  }

  /// An int32 field ValidateNonnegativeField checks.
  std::int32_t non_negative(const JsonNode& node) const {
    const std::int32_t value = node.int32();
    if (value < 0) invalid(node, invalid_value(value, "must be greater than or equal to 0"));
    return value;
  }

  /// apps/v1 StatefulSet after SetDefaults_StatefulSet (podManagementPolicy OrderedReady,
  /// replicas 1): ValidateStatefulSetSpec (pkg/apis/apps/validation/validation.go), in its order:
  /// podManagementPolicy, replicas, minReadySeconds, ordinals.start, the selector (required and
  /// non-empty), the template labels against it, the pod template, then restartPolicy Always.
  Object parse_stateful_set() {
    StatefulSet ss;
    ss.metadata = parse_metadata(true);
    std::optional<JsonNode> spec = root_.get("spec");
    if (spec) spec->note_unknown_keys(api_fields::kStatefulSetSpec);
    JsonNode place = spec ? *spec : root_.missing("spec");
    auto field = [&](std::string_view name) { return spec ? spec->get(name) : std::nullopt; };
    if (auto policy = field("podManagementPolicy")) {
      const std::string text = policy->string();
      if (!text.empty()) ss.pod_management_policy = text;
      if (ss.pod_management_policy != "OrderedReady" && ss.pod_management_policy != "Parallel") {
        invalid(*policy, invalid_value(text, "must be 'OrderedReady' or 'Parallel'"));
      }
    }
    if (auto replicas = field("replicas")) ss.replicas = parse_count(*replicas);
    if (auto seconds = field("minReadySeconds")) ss.min_ready_seconds = non_negative(*seconds);
    if (auto ordinals = field("ordinals")) {
      ordinals->note_unknown_keys(api_fields::kStatefulSetOrdinals);
      if (auto start = ordinals->get("start")) ss.ordinals_start = non_negative(*start);
    }
    if (auto claims = field("volumeClaimTemplates")) {
      for (const JsonNode& claim : claims->elements()) {
        std::optional<JsonNode> meta = claim.get("metadata");
        std::optional<JsonNode> name = meta ? meta->get("name") : std::nullopt;
        ss.volume_claim_templates.push_back(name ? name->string() : std::string());
      }
    }
    const std::optional<JsonNode> selector = field("selector");
    if (!selector) invalid(place.missing("selector"), required_value());
    ss.selector = parse_label_selector(*selector);
    if (ss.selector.empty()) {
      invalid(*selector, invalid_value_raw(go_empty_label_selector(*selector),
                                           "empty selector is invalid for statefulset"));
    }
    const std::optional<JsonNode> tmpl = field("template");
    ss.template_.metadata = parse_template_metadata(tmpl);
    if (!ss.selector.matches(ss.template_.metadata.labels)) {
      JsonNode labels = place.missing("template").missing("metadata").missing("labels");
      const bool written = tmpl && tmpl->get("metadata") && tmpl->get("metadata")->get("labels");
      invalid(labels, invalid_value_raw(written ? go_string_map(ss.template_.metadata.labels)
                                                : "map[string]string(nil)",
                                        "`selector` does not match template `labels`"));
    }
    ss.template_.spec = parse_template_spec(tmpl, place);
    require_restart_always(ss.template_.spec, place);
    return ss;
  }

  /// core/v1 Service: only spec.selector is read (ValidateService checks it as labels).
  Object parse_service() {
    Service service;
    service.metadata = parse_metadata(true);
    if (auto spec = root_.get("spec")) {
      spec->note_unknown_keys(api_fields::kServiceSpec);
      if (auto selector = spec->get("selector")) service.selector = parse_labels(*selector);
    }
    return service;
  }

  Object parse_job() {
    Job job;
    job.metadata = parse_metadata(true);
    std::optional<JsonNode> spec = root_.get("spec");
    JsonNode place = spec ? *spec : root_.missing("spec");
    if (spec) {
      spec->note_unknown_keys(api_fields::kJobSpec);
      if (auto parallelism = spec->get("parallelism")) job.parallelism = parse_count(*parallelism);
      if (auto completions = spec->get("completions")) job.completions = parse_count(*completions);
      if (auto limit = spec->get("backoffLimit")) job.backoff_limit = parse_count(*limit);
      if (auto suspend = spec->get("suspend")) job.suspend = suspend->boolean();
    }
    job.template_ = parse_template(place);
    // pkg/apis/batch/validation: a Job's pods must not restart forever.
    const std::string& policy = job.template_.spec.restart_policy;
    if (policy != "OnFailure" && policy != "Never") {
      JsonNode where = place.missing("template").missing("spec").missing("restartPolicy");
      invalid(where, not_supported(policy, {"OnFailure", "Never"}));
    }
    // The Job strategy's generateSelector copies the name into the template's job-name and
    // batch.kubernetes.io/job-name labels, which ValidatePodTemplateSpec checks as label values
    // (pkg/apis/batch/validation): a name over 63 characters is refused there, once (the two
    // identical errors are one in field.ErrorList.ToAggregate).
    for (const std::string& message : label_value_errors(job.metadata.name)) {
      const FieldPath labels{{PathStep::Kind::Field, "spec"},
                             {PathStep::Kind::Field, "template"},
                             {PathStep::Kind::Field, "labels"}};
      invalid_on(root_.required("metadata").required("name"), labels,
                 invalid_value(job.metadata.name, message));
    }
    return job;
  }

  /// v1 Namespace (cluster-scoped): ValidateNamespace checks the name is a DNS-1123 label;
  /// SetDefaults_Namespace (pkg/apis/core/v1/defaults.go) adds the label
  /// kubernetes.io/metadata.name=<name>.
  Object parse_namespace() {
    Namespace ns;
    ns.metadata = parse_metadata(false);
    for (const std::string& message : dns1123_label_errors(ns.metadata.name)) {
      invalid(root_.required("metadata").required("name"),
              invalid_value(ns.metadata.name, message));
    }
    ns.metadata.labels[std::string(kLabelMetadataName)] = ns.metadata.name;
    return ns;
  }

  /// scheduling.k8s.io/v1 PriorityClass: pkg/apis/scheduling/validation/validation.go
  /// ValidatePriorityClass, after the v1 defaults (pkg/apis/scheduling/v1/defaults.go).
  Object parse_priority_class() {
    PriorityClass pc;
    pc.metadata = parse_metadata(false);
    std::optional<JsonNode> value = root_.get("value");
    if (value) pc.value = value->int32();
    if (auto global_default = root_.get("globalDefault")) {
      pc.global_default = global_default->boolean();
    }
    if (auto description = root_.get("description")) pc.description = description->string();
    std::optional<JsonNode> policy = root_.get("preemptionPolicy");
    if (policy) pc.preemption_policy = policy->string();

    if (pc.metadata.name.starts_with(kSystemPriorityClassPrefix)) {
      // Only the classes the API server creates itself may use the prefix, with their exact
      // value and globalDefault (pkg/apis/scheduling/v1/helpers.go IsKnownSystemPriorityClass).
      std::string error;
      const PriorityClass* system = find_system_priority_class(pc.metadata.name);
      if (system == nullptr) {
        error = pc.metadata.name + " is not a known system priority class";
      } else if (system->value != pc.value) {
        error = "value of " + pc.metadata.name + " PriorityClass must be " +
                std::to_string(system->value);
      } else if (pc.global_default != system->global_default) {
        error = "globalDefault of " + pc.metadata.name + " PriorityClass must be false";
      }
      if (!error.empty()) {
        JsonNode name = root_.required("metadata").required("name");
        invalid(name,
                forbidden("priority class names with '" + std::string(kSystemPriorityClassPrefix) +
                          "' prefix are reserved for system use only. error: " + error));
      }
    } else if (pc.value > kHighestUserDefinablePriority) {
      invalid(*value, forbidden("maximum allowed value of a user defined priority is " +
                                std::to_string(kHighestUserDefinablePriority)));
    }
    if (policy) {
      // ValidatePreemptionPolicy (pkg/apis/core/validation/validation.go).
      if (pc.preemption_policy.empty()) invalid(*policy, required_value());
      if (pc.preemption_policy != "PreemptLowerPriority" && pc.preemption_policy != "Never") {
        invalid(*policy, not_supported(pc.preemption_policy, {"PreemptLowerPriority", "Never"}));
      }
    }
    return pc;
  }

  /// spec.minAvailable / spec.maxUnavailable: an intstr.IntOrString, checked as
  /// ValidatePositiveIntOrPercent and IsNotMoreThan100Percent (pkg/apis/apps/validation) do.
  IntOrPercent parse_int_or_percent(const JsonNode& node) const {
    IntOrPercent out;
    if (node.is_number()) {
      out.value = node.int32();
      if (out.value < 0) {
        invalid(node, invalid_value(out.value, "must be greater than or equal to 0"));
      }
      return out;
    }
    if (!node.is_string()) {
      node.fail(std::string("expected an integer or a percentage such as \"50%\", got ") +
                node.json().type_name());
    }
    std::string text = node.string();
    if (!is_valid_percent(text)) {
      invalid(node, invalid_value_raw(go_int_or_string(text), kPercentErrMsg));
    }
    std::string_view digits = std::string_view(text).substr(0, text.size() - 1);
    digits.remove_prefix(std::min(digits.find_first_not_of('0'), digits.size()));
    if (digits.size() > 3 || (digits.size() == 3 && digits > "100")) {
      invalid(node, invalid_value_raw(go_int_or_string(text), "must not be greater than 100%"));
    }
    out.percent = true;
    for (char c : digits) out.value = out.value * 10 + (c - '0');
    return out;
  }

  /// policy/v1 PodDisruptionBudget: pkg/apis/policy/validation/validation.go
  /// ValidatePodDisruptionBudgetSpec, in its order (both set, minAvailable, maxUnavailable,
  /// selector).
  Object parse_pod_disruption_budget() {
    PodDisruptionBudget pdb;
    pdb.metadata = parse_metadata(true);
    std::optional<JsonNode> spec = root_.get("spec");
    if (!spec) return pdb;
    spec->note_unknown_keys(api_fields::kPodDisruptionBudgetSpec);
    std::optional<JsonNode> min_available = spec->get("minAvailable");
    std::optional<JsonNode> max_unavailable = spec->get("maxUnavailable");
    std::optional<JsonNode> selector = spec->get("selector");
    if (min_available && max_unavailable) {
      invalid(*spec, invalid_value_raw(go_pdb_spec(*min_available, *max_unavailable, selector),
                                       "minAvailable and maxUnavailable cannot be both set"));
    }
    if (min_available) pdb.min_available = parse_int_or_percent(*min_available);
    if (max_unavailable) pdb.max_unavailable = parse_int_or_percent(*max_unavailable);
    if (selector) pdb.selector = parse_label_selector(*selector);
    return pdb;
  }

  /// Go's %#v of the internal policy.PodDisruptionBudgetSpec the "both set" error prints. Go
  /// prints pointer fields as addresses; gpusched shows the values instead, as go_toleration does.
  static std::string go_pdb_spec(const JsonNode& min_available, const JsonNode& max_unavailable,
                                 const std::optional<JsonNode>& selector) {
    auto int_or_string = [](const JsonNode& node) {
      return "(*intstr.IntOrString)(" +
             (node.is_string() ? go_quote(node.json().get<std::string>()) : node.json().dump()) +
             ")";
    };
    std::string selector_text = selector ? "(*v1.LabelSelector)(" + selector->json().dump() + ")"
                                         : "(*v1.LabelSelector)(nil)";
    return "policy.PodDisruptionBudgetSpec{MinAvailable:" + int_or_string(min_available) +
           ", Selector:" + selector_text + ", MaxUnavailable:" + int_or_string(max_unavailable) +
           ", UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}";
  }

  /// Go's %#v of the empty metav1.LabelSelector the "empty selector" errors print: each field
  /// is `(nil)` when left out and `{}` when written empty.
  static std::string go_empty_label_selector(const JsonNode& selector) {
    return std::string("v1.LabelSelector{MatchLabels:map[string]string") +
           (selector.get("matchLabels") ? "{}" : "(nil)") +
           ", MatchExpressions:[]v1.LabelSelectorRequirement" +
           (selector.get("matchExpressions") ? "{}" : "(nil)") + "}";
  }

  JsonNode root_;
  std::string kind_;
  std::string name_;
};

// --- serialization ------------------------------------------------------------------------

json metadata_json(const ObjectMeta& meta) {
  json out = json::object();
  out["name"] = meta.name;
  if (!meta.namespace_.empty()) out["namespace"] = meta.namespace_;
  if (!meta.uid.empty()) out["uid"] = meta.uid;
  if (!meta.labels.empty()) out["labels"] = meta.labels;
  if (!meta.annotations.empty()) out["annotations"] = meta.annotations;
  for (const OwnerReference& ref : meta.owner_references) {
    out["ownerReferences"].push_back(
        {{"kind", ref.kind}, {"name", ref.name}, {"uid", ref.uid}, {"controller", ref.controller}});
  }
  return out;
}

json requirement_json(const SelectorRequirement& req) {
  json out = {{"key", req.key}, {"operator", to_string(req.op)}};
  if (!req.values.empty()) out["values"] = req.values;
  return out;
}

json term_json(const NodeSelectorTerm& term) {
  json out = json::object();
  for (const auto& req : term.match_expressions)
    out["matchExpressions"].push_back(requirement_json(req));
  for (const auto& req : term.match_fields) out["matchFields"].push_back(requirement_json(req));
  return out;
}

json container_json(const Container& c) {
  json out = json::object();
  if (!c.name.empty()) out["name"] = c.name;
  if (!c.requests.empty()) out["resources"]["requests"] = resources_json(c.requests);
  if (!c.limits.empty()) out["resources"]["limits"] = resources_json(c.limits);
  for (const ContainerClaim& claim : c.claims) {
    json item = {{"name", claim.name}};
    if (!claim.request.empty()) item["request"] = claim.request;
    out["resources"]["claims"].push_back(std::move(item));
  }
  for (const ContainerPort& p : c.ports) {
    json port = {{"containerPort", p.container_port}, {"protocol", p.protocol}};
    if (!p.name.empty()) port["name"] = p.name;
    if (p.host_port != 0) port["hostPort"] = p.host_port;
    if (!p.host_ip.empty()) port["hostIP"] = p.host_ip;
    out["ports"].push_back(std::move(port));
  }
  if (!c.restart_policy.empty()) out["restartPolicy"] = c.restart_policy;
  return out;
}

json selector_json(const LabelSelector& selector);

json selector_json(const LabelSelector& selector);

json pod_affinity_term_json(const PodAffinityTerm& term) {
  json out = json::object();
  if (term.label_selector) out["labelSelector"] = selector_json(*term.label_selector);
  if (!term.namespaces.empty()) out["namespaces"] = term.namespaces;
  if (term.namespace_selector) out["namespaceSelector"] = selector_json(*term.namespace_selector);
  out["topologyKey"] = term.topology_key;
  if (!term.match_label_keys.empty()) out["matchLabelKeys"] = term.match_label_keys;
  if (!term.mismatch_label_keys.empty()) out["mismatchLabelKeys"] = term.mismatch_label_keys;
  return out;
}

json pod_affinity_json(const PodAffinity& affinity) {
  json out = json::object();
  for (const PodAffinityTerm& term : affinity.required) {
    out["requiredDuringSchedulingIgnoredDuringExecution"].push_back(pod_affinity_term_json(term));
  }
  for (const WeightedPodAffinityTerm& term : affinity.preferred) {
    out["preferredDuringSchedulingIgnoredDuringExecution"].push_back(
        {{"weight", term.weight}, {"podAffinityTerm", pod_affinity_term_json(term.term)}});
  }
  return out;
}

json pod_spec_json(const PodSpec& spec) {
  json out = json::object();
  for (const Container& c : spec.containers) out["containers"].push_back(container_json(c));
  for (const Container& c : spec.init_containers)
    out["initContainers"].push_back(container_json(c));
  if (!spec.overhead.empty()) out["overhead"] = resources_json(spec.overhead);
  if (!spec.node_selector.empty()) out["nodeSelector"] = spec.node_selector;
  if (const auto& affinity = spec.affinity->node_affinity) {
    json node_affinity = json::object();
    if (affinity->required) {
      json terms = json::array();
      for (const NodeSelectorTerm& term : *affinity->required) terms.push_back(term_json(term));
      node_affinity["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"] = terms;
    }
    for (const PreferredSchedulingTerm& term : affinity->preferred) {
      node_affinity["preferredDuringSchedulingIgnoredDuringExecution"].push_back(
          {{"weight", term.weight}, {"preference", term_json(term.preference)}});
    }
    out["affinity"]["nodeAffinity"] = std::move(node_affinity);
  }
  if (spec.affinity->pod_affinity) {
    out["affinity"]["podAffinity"] = pod_affinity_json(*spec.affinity->pod_affinity);
  }
  if (spec.affinity->pod_anti_affinity) {
    out["affinity"]["podAntiAffinity"] = pod_affinity_json(*spec.affinity->pod_anti_affinity);
  }
  for (const Toleration& t : spec.tolerations) out["tolerations"].push_back(toleration_json(t));
  for (const TopologySpreadConstraint& c : spec.topology_spread_constraints) {
    json tsc = {{"maxSkew", c.max_skew},
                {"topologyKey", c.topology_key},
                {"whenUnsatisfiable", c.when_unsatisfiable}};
    if (c.label_selector) tsc["labelSelector"] = selector_json(*c.label_selector);
    if (c.min_domains) tsc["minDomains"] = *c.min_domains;
    if (!c.node_affinity_policy.empty()) tsc["nodeAffinityPolicy"] = c.node_affinity_policy;
    if (!c.node_taints_policy.empty()) tsc["nodeTaintsPolicy"] = c.node_taints_policy;
    if (!c.match_label_keys.empty()) tsc["matchLabelKeys"] = c.match_label_keys;
    out["topologySpreadConstraints"].push_back(std::move(tsc));
  }
  if (spec.priority) out["priority"] = *spec.priority;
  if (!spec.priority_class_name.empty()) out["priorityClassName"] = spec.priority_class_name;
  if (!spec.preemption_policy.empty()) out["preemptionPolicy"] = spec.preemption_policy;
  out["schedulerName"] = spec.scheduler_name;
  if (!spec.node_name.empty()) out["nodeName"] = spec.node_name;
  out["restartPolicy"] = spec.restart_policy;
  out["terminationGracePeriodSeconds"] = spec.termination_grace_period_seconds;
  for (const std::string& gate : spec.scheduling_gates)
    out["schedulingGates"].push_back({{"name", gate}});
  if (spec.resources) {
    json resources = json::object();
    if (!spec.resources->requests.empty())
      resources["requests"] = resources_json(spec.resources->requests);
    if (!spec.resources->limits.empty())
      resources["limits"] = resources_json(spec.resources->limits);
    out["resources"] = std::move(resources);
  }
  for (const PodResourceClaim& claim : spec.resource_claims) {
    json item = {{"name", claim.name}};
    if (claim.resource_claim_name) item["resourceClaimName"] = *claim.resource_claim_name;
    if (claim.resource_claim_template_name) {
      item["resourceClaimTemplateName"] = *claim.resource_claim_template_name;
    }
    out["resourceClaims"].push_back(std::move(item));
  }
  if (const auto& ref = spec.workload_ref) {
    json workload = {{"name", ref->name}, {"podGroup", ref->pod_group}};
    if (!ref->pod_group_replica_key.empty())
      workload["podGroupReplicaKey"] = ref->pod_group_replica_key;
    out["workloadRef"] = std::move(workload);
  }
  if (spec.scheduling_group) out["schedulingGroup"] = {{"podGroupName", *spec.scheduling_group}};
  return out;
}

json template_json(const PodTemplateSpec& t) {
  json meta = json::object();
  if (!t.metadata.labels.empty()) meta["labels"] = t.metadata.labels;
  if (!t.metadata.annotations.empty()) meta["annotations"] = t.metadata.annotations;
  return {{"metadata", std::move(meta)}, {"spec", pod_spec_json(t.spec)}};
}

json selector_json(const LabelSelector& selector) {
  json out = json::object();
  if (!selector.match_labels.empty()) out["matchLabels"] = selector.match_labels;
  for (const auto& req : selector.match_expressions) {
    out["matchExpressions"].push_back(requirement_json(req));
  }
  return out;
}

json conditions_json(const auto& conditions) {
  json out = json::array();
  for (const auto& c : conditions) {
    json item = {{"type", c.type}, {"status", c.status}};
    if (!c.reason.empty()) item["reason"] = c.reason;
    if (!c.message.empty()) item["message"] = c.message;
    out.push_back(std::move(item));
  }
  return out;
}

json object_json(const Node& node) {
  json spec = json::object();
  if (node.unschedulable) spec["unschedulable"] = true;
  for (const Taint& taint : node.taints) spec["taints"].push_back(taint_json(taint));
  json status = {{"capacity", resources_json(node.capacity)},
                 {"allocatable", resources_json(node.allocatable)}};
  if (!node.conditions.empty()) status["conditions"] = conditions_json(node.conditions);
  return {{"spec", std::move(spec)}, {"status", std::move(status)}};
}

json object_json(const Pod& pod) {
  json status = {{"phase", to_string(pod.status.phase)}};
  if (!pod.status.conditions.empty()) status["conditions"] = conditions_json(pod.status.conditions);
  if (!pod.status.nominated_node_name.empty()) {
    status["nominatedNodeName"] = pod.status.nominated_node_name;
  }
  for (const PodResourceClaimStatus& claim : pod.status.resource_claim_statuses) {
    json item = {{"name", claim.name}};
    if (claim.resource_claim_name) item["resourceClaimName"] = *claim.resource_claim_name;
    status["resourceClaimStatuses"].push_back(std::move(item));
  }
  if (const auto& extended = pod.status.extended_resource_claim_status) {
    json mappings = json::array();
    for (const ContainerExtendedResourceRequest& m : extended->request_mappings) {
      mappings.push_back({{"containerName", m.container_name},
                          {"resourceName", m.resource_name},
                          {"requestName", m.request_name}});
    }
    status["extendedResourceClaimStatus"] = {{"requestMappings", std::move(mappings)},
                                             {"resourceClaimName", extended->resource_claim_name}};
  }
  return {{"spec", pod_spec_json(pod.spec)}, {"status", std::move(status)}};
}

template <typename T>
requires std::same_as<T, Deployment> || std::same_as<T, ReplicaSet> json
object_json(const T& object) {
  return {{"spec",
           {{"replicas", object.replicas},
            {"selector", selector_json(object.selector)},
            {"template", template_json(object.template_)}}}};
}

json object_json(const DaemonSet& ds) {
  return {{"spec",
           {{"selector", selector_json(ds.selector)}, {"template", template_json(ds.template_)}}}};
}

json object_json(const StatefulSet& ss) {
  json spec = {{"replicas", ss.replicas},
               {"selector", selector_json(ss.selector)},
               {"template", template_json(ss.template_)},
               {"podManagementPolicy", ss.pod_management_policy}};
  if (ss.ordinals_start != 0) spec["ordinals"]["start"] = ss.ordinals_start;
  if (ss.min_ready_seconds != 0) spec["minReadySeconds"] = ss.min_ready_seconds;
  for (const std::string& name : ss.volume_claim_templates) {
    spec["volumeClaimTemplates"].push_back({{"metadata", {{"name", name}}}});
  }
  return {{"spec", std::move(spec)}};
}

json object_json(const Service& service) {
  json spec = json::object();
  if (!service.selector.empty()) spec["selector"] = service.selector;
  return {{"spec", std::move(spec)}};
}

/// A v1alpha2 schedulingPolicy, v1alpha1 policy.
json scheduling_policy_json(const std::optional<std::int32_t>& gang_min_count) {
  return gang_min_count ? json{{"gang", {{"minCount", *gang_min_count}}}}
                        : json{{"basic", json::object()}};
}

json object_json(const SchedulingWorkload& workload) {
  json spec = json::object();
  if (const auto& ref = workload.controller_ref) {
    json out = {{"kind", ref->kind}, {"name", ref->name}};
    if (!ref->api_group.empty()) out["apiGroup"] = ref->api_group;
    spec["controllerRef"] = std::move(out);
  }
  json groups = json::array();
  for (const WorkloadPodGroup& group : workload.pod_groups) {
    groups.push_back({{"name", group.name},
                      {workload.v1alpha2 ? "schedulingPolicy" : "policy",
                       scheduling_policy_json(group.gang_min_count)}});
  }
  spec[workload.v1alpha2 ? "podGroupTemplates" : "podGroups"] = std::move(groups);
  return {{"spec", std::move(spec)}};
}

json object_json(const PodGroup& group) {
  json spec = json::object();
  if (const auto& ref = group.template_ref) {
    spec["podGroupTemplateRef"] = {{"workload",
                                    {{"workloadName", ref->workload_name},
                                     {"podGroupTemplateName", ref->pod_group_template_name}}}};
  }
  spec["schedulingPolicy"] = scheduling_policy_json(group.gang_min_count);
  return {{"spec", std::move(spec)}};
}

json object_json(const Job& job) {
  json spec = {{"parallelism", job.parallelism}, {"template", template_json(job.template_)}};
  if (job.completions) spec["completions"] = *job.completions;
  spec["backoffLimit"] = job.backoff_limit;
  if (job.suspend) spec["suspend"] = true;
  return {{"spec", std::move(spec)}};
}

json object_json(const PriorityClass& pc) {
  json out = {{"value", pc.value}, {"globalDefault", pc.global_default}};
  if (!pc.preemption_policy.empty()) out["preemptionPolicy"] = pc.preemption_policy;
  if (!pc.description.empty()) out["description"] = pc.description;
  return out;
}

json object_json(const Namespace&) {
  return json::object();
}

json int_or_percent_json(const IntOrPercent& value) {
  if (value.percent) return std::to_string(value.value) + "%";
  return value.value;
}

json object_json(const PodDisruptionBudget& pdb) {
  json spec = json::object();
  if (pdb.selector) spec["selector"] = selector_json(*pdb.selector);
  if (pdb.min_available) spec["minAvailable"] = int_or_percent_json(*pdb.min_available);
  if (pdb.max_unavailable) spec["maxUnavailable"] = int_or_percent_json(*pdb.max_unavailable);
  return {{"spec", std::move(spec)}};
}

/// Keeps the virtual times of `current` in the patched object: a merge patch cannot express
/// them, since to_json leaves them out.
void keep_times(const Object& current, Object& next) {
  const ObjectMeta& before = meta_of(current);
  ObjectMeta& after = meta_of(next);
  after.creation_ms = before.creation_ms;
  after.deletion_ms = before.deletion_ms;
  const Pod* old_pod = std::get_if<Pod>(&current);
  Pod* new_pod = std::get_if<Pod>(&next);
  if (old_pod == nullptr || new_pod == nullptr) return;
  new_pod->status.start_ms = old_pod->status.start_ms;
  for (PodCondition& condition : new_pod->status.conditions) {
    if (const PodCondition* old = old_pod->status.condition(condition.type)) {
      condition.last_transition_ms = old->last_transition_ms;
    }
  }
}

}  // namespace

json toleration_json(const Toleration& t) {
  json out = json::object();
  if (!t.key.empty()) out["key"] = t.key;
  out["operator"] = t.op == TolerationOperator::Exists ? "Exists" : "Equal";
  if (!t.value.empty()) out["value"] = t.value;
  if (t.effect) out["effect"] = to_string(*t.effect);
  if (t.toleration_seconds) out["tolerationSeconds"] = *t.toleration_seconds;
  return out;
}

json taint_json(const Taint& taint) {
  json out = {{"key", taint.key}, {"effect", to_string(taint.effect)}};
  if (!taint.value.empty()) out["value"] = taint.value;
  return out;
}

json pod_template_json(const PodTemplateSpec& pod_template) {
  return template_json(pod_template);
}

json label_selector_json(const LabelSelector& selector) {
  return selector_json(selector);
}

json resources_json(const ResourceList& list) {
  json out = json::object();
  for (const auto& [name, quantity] : list) out[name] = quantity.to_string();
  return out;
}

std::optional<Quantity> read_quantity(const JsonNode& node, std::string& text, std::string* error) {
  if (!node.is_string() && !node.is_number()) {
    node.fail(std::string("expected a quantity (a string such as \"500m\" or a number), got ") +
              node.json().type_name());
  }
  text = node.is_string() ? node.string() : node.json().dump();
  return Quantity::parse(text, error);
}

std::string known_kinds() {
  std::string out;
  for (const KindInfo& info : kKinds) {
    if (!out.empty()) out += ", ";
    out += info.kind;
  }
  for (std::string_view kind : resource_kinds()) out.append(", ").append(kind);
  return out;
}

bool is_known_kind(std::string_view kind) noexcept {
  return !api_version_of(kind).empty() || is_resource_kind(kind);
}

Object parse_object(const JsonNode& node) {
  return ObjectParser(node).parse();
}

json to_json(const Object& object) {
  json out = std::visit([](const auto& o) { return object_json(o); }, object);
  std::string_view kind = kind_of(object);
  out["apiVersion"] = std::visit(
      [&](const auto& o) -> std::string_view {
        if constexpr (requires { kueue_api_version(o); }) {
          return kueue_api_version(o);
        } else if constexpr (requires { resource_api_version(o); }) {
          return resource_api_version(o);
        } else if constexpr (std::is_same_v<std::decay_t<decltype(o)>, SchedulingWorkload>) {
          return o.v1alpha2 ? kPodGroupApiVersion : kWorkloadApiVersion;
        } else {
          return api_version_of(kind);
        }
      },
      object);
  out["kind"] = kind;
  out["metadata"] = metadata_json(meta_of(object));
  return out;
}

std::string to_json_text(const Object& object) {
  return to_json(object).dump();
}

Object apply_merge_patch(const Object& current, std::string_view merge_patch_json,
                         const std::string& file, const std::string& pointer) {
  JsonSource source(file, {});
  std::string patch_pointer = pointer + "/patch/merge";
  json patch = json::parse(merge_patch_json, nullptr, false);
  if (patch.is_discarded() || !patch.is_object()) {
    source.fail(patch_pointer, "a merge patch must be a JSON object");
  }
  json document = to_json(current);
  document.merge_patch(patch);
  Object next = parse_object(JsonNode(source, document, patch_pointer));
  ObjectRef before = ref_of(current);
  ObjectRef after = ref_of(next);
  if (after.kind != before.kind)
    source.fail(patch_pointer + "/kind", "a patch may not change kind");
  if (after.name != before.name) {
    source.fail(patch_pointer + "/metadata/name", "a patch may not change metadata.name");
  }
  if (after.namespace_ != before.namespace_) {
    source.fail(patch_pointer + "/metadata/namespace", "a patch may not change metadata.namespace");
  }
  keep_times(current, next);
  return next;
}

}  // namespace gpusched::io
