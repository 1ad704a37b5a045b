#include "sim/workload_strategy.hpp"

#include <vector>

#include "model/go_text.hpp"

namespace gpusched::sim {
namespace {

// apimachineryvalidation.FieldImmutableErrorMsg.
constexpr std::string_view kFieldImmutable = "field is immutable";

// field.Invalid prints a *metav1.LabelSelector through its element, a value without a String
// method, so with Go's %#v (k8s.io/apimachinery/pkg/util/validation/field/errors.go).
std::string go_label_selector(const LabelSelector& selector) {
  std::string out = "v1.LabelSelector{MatchLabels:";
  out += selector.match_labels.empty() ? "map[string]string(nil)"
                                       : go_string_map(selector.match_labels);
  out += ", MatchExpressions:";
  if (selector.match_expressions.empty()) {
    out += "[]v1.LabelSelectorRequirement(nil)";
  } else {
    out += "[]v1.LabelSelectorRequirement{";
    bool first = true;
    for (const SelectorRequirement& r : selector.match_expressions) {
      if (!first) out += ", ";
      first = false;
      out += "v1.LabelSelectorRequirement{Key:" + go_quote(r.key) +
             ", Operator:" + go_quote(to_string(r.op)) + ", Values:";
      if (r.values.empty()) {
        out += "[]string(nil)";
      } else {
        std::vector<std::string> quoted;
        for (const std::string& v : r.values) quoted.push_back(go_quote(v));
        out += "[]string{" + joined(quoted, ", ") + "}";
      }
      out += "}";
    }
    out += "}";
  }
  return out + "}";
}

// apierrors.NewInvalid's message: `<Kind>.<group> "name" is invalid: <errors>`, several
// joined as field.ErrorList.ToAggregate prints them.
std::optional<std::string> invalid(std::string_view qualified_kind, const std::string& name,
                                   const std::vector<std::string>& errors) {
  if (errors.empty()) return std::nullopt;
  std::string out = std::string(qualified_kind) + " " + go_quote(name) + " is invalid: ";
  if (errors.size() == 1) return out + errors.front();
  return out + "[" + joined(errors, ", ") + "]";
}

std::vector<std::string> selector_errors(const LabelSelector& old_selector,
                                         const LabelSelector& selector) {
  if (old_selector == selector) return {};
  return {"spec.selector: Invalid value: " + go_label_selector(selector) + ": " +
          std::string(kFieldImmutable)};
}

}  // namespace

std::optional<std::string> validate_update(const Deployment& old_object, const Deployment& object) {
  // pkg/apis/apps/validation ValidateDeploymentUpdate, through the apps/v1 strategy's
  // ValidateUpdate, which adds the selector's immutability.
  return invalid("Deployment.apps", object.metadata.name,
                 selector_errors(old_object.selector, object.selector));
}

std::optional<std::string> validate_update(const ReplicaSet& old_object, const ReplicaSet& object) {
  return invalid("ReplicaSet.apps", object.metadata.name,
                 selector_errors(old_object.selector, object.selector));
}

std::optional<std::string> validate_update(const DaemonSet& old_object, const DaemonSet& object) {
  return invalid("DaemonSet.apps", object.metadata.name,
                 selector_errors(old_object.selector, object.selector));
}

std::optional<std::string> validate_update(const StatefulSet& old_object,
                                           const StatefulSet& object) {
  // ValidateStatefulSetUpdate compares the spec with the mutable fields put back.
  const bool same = old_object.selector == object.selector &&
                    old_object.pod_management_policy == object.pod_management_policy &&
                    old_object.volume_claim_templates == object.volume_claim_templates;
  if (same) return std::nullopt;
  return invalid("StatefulSet.apps", object.metadata.name,
                 {"spec: Forbidden: updates to statefulset spec for fields other than "
                  "'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', "
                  "'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"});
}

std::optional<std::string> validate_update(const Job& old_object, const Job& object, bool started) {
  // ValidateJobSpecUpdate: validateCompletions (a NonIndexed Job's completions are immutable;
  // gpusched models NonIndexed Jobs only) and validatePodTemplateUpdate: the template is
  // immutable, except that a Job suspended and never started may change its node affinity,
  // node selector, tolerations, scheduling gates, labels and annotations
  // (AllowMutableSchedulingDirectives in pkg/registry/batch/job/strategy.go), which Kueue
  // relies on to inject its flavors' node labels and tolerations before it resumes the Job.
  std::vector<std::string> errors;
  if (old_object.completions != object.completions) {
    errors.push_back("spec.completions: Invalid value: " +
                     (object.completions ? std::to_string(*object.completions) : "null") + ": " +
                     std::string(kFieldImmutable));
  }
  PodTemplateSpec before = old_object.template_;
  if (old_object.suspend && !started) {
    const PodTemplateSpec& after = object.template_;
    Affinity affinity = before.spec.affinity.get();
    affinity.node_affinity = after.spec.affinity->node_affinity;
    before.spec.affinity = affinity == Affinity{} ? Shared<Affinity>() : Shared<Affinity>(affinity);
    before.spec.node_selector = after.spec.node_selector;
    before.spec.tolerations = after.spec.tolerations;
    before.spec.scheduling_gates = after.spec.scheduling_gates;
    before.metadata.labels = after.metadata.labels;
    before.metadata.annotations = after.metadata.annotations;
  }
  if (before != object.template_) {
    // Upstream prints its Go dump of the whole core.PodTemplateSpec; gpusched leaves it out.
    errors.push_back("spec.template: Invalid value: core.PodTemplateSpec{…}: " +
                     std::string(kFieldImmutable));
  }
  return invalid("Job.batch", object.metadata.name, errors);
}

}  // namespace gpusched::sim
