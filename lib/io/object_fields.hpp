#pragma once
/// What the object parsers of every API group share: the core/v1 and meta/v1 pieces that other
/// groups' types embed (ObjectMeta, label selectors, tolerations, pod templates), read and
/// validated as the core parser reads them. object_json.cpp implements it; the parser of another
/// group (kueue_json.cpp) is handed one for the object it reads.

#include <vector>

#include "gpusched/model/object_meta.hpp"
#include "gpusched/model/pod.hpp"
#include "gpusched/model/selector.hpp"
#include "gpusched/model/workload.hpp"
#include "io/json_node.hpp"

namespace gpusched::io {

class ObjectFields {
 public:
  /// The object, its field path restarted.
  [[nodiscard]] virtual const JsonNode& root() const = 0;
  /// metadata (name and namespace checked as for any object); its name then names the object
  /// in messages.
  [[nodiscard]] virtual ObjectMeta metadata(bool namespaced) = 0;
  /// A map of label keys to label values, validated as ValidateLabels.
  [[nodiscard]] virtual Labels labels(const JsonNode& node) const = 0;
  /// A map of annotations, validated as ValidateAnnotations.
  [[nodiscard]] virtual Labels annotations(const JsonNode& node) const = 0;
  /// metav1.LabelSelector, validated as ValidateLabelSelector.
  [[nodiscard]] virtual LabelSelector label_selector(const JsonNode& node) const = 0;
  /// core/v1 NodeSelector (`{"nodeSelectorTerms": [...]}`), validated as ValidateNodeSelector:
  /// its terms, at least one.
  [[nodiscard]] virtual std::vector<NodeSelectorTerm> node_selector(const JsonNode& node) const = 0;
  /// A resource list of quantities.
  [[nodiscard]] virtual ResourceList resources(const JsonNode& node) const = 0;
  /// `template` of `owner` (a PodTemplateSpec, validated as a pod's spec).
  [[nodiscard]] virtual PodTemplateSpec pod_template(const JsonNode& owner) const = 0;

 protected:
  ObjectFields() = default;
  ObjectFields(const ObjectFields&) = default;
  ObjectFields& operator=(const ObjectFields&) = default;
  ~ObjectFields() = default;
};

}  // namespace gpusched::io
