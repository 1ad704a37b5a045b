#pragma once
/// What gpusched does with each kind of object a manifest may hold (scenario-format.md §5): the
/// kinds it models are read; the kinds that cannot change where or whether a pod runs are
/// skipped; the kinds that would but are not modelled are ignored, with a warning naming what is
/// lost, and refused under `--strict`. Every reader of objects (a scenario's `cluster`, `include`
/// and timeline `apply`, snapshots, `whatif --add`) sorts them here, so that a `kubectl apply`
/// bundle reads the same everywhere.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_node.hpp"

namespace gpusched::io {

enum class KindHandling {
  Modelled,  ///< read and replayed
  Skipped,   ///< cannot change where or whether a pod runs
  Ignored,   ///< would change placement, but gpusched does not model it
};

struct KindVerdict {
  KindHandling handling = KindHandling::Modelled;
  /// Skipped: why it changes nothing; Ignored: what the replay leaves out.
  std::string_view why;
};

/// The verdict for objects of `kind` served as `api_version` ("apps/v1"; empty when the object
/// names none). A kind gpusched models, in a Kubernetes API group, is Modelled whatever the
/// version (the object parser refuses a version that does not serve it); a kind of the same
/// name in another group (Knative's Service, Volcano's Job) is that API's own.
[[nodiscard]] KindVerdict classify_kind(std::string_view api_version, std::string_view kind);

/// Sorts the objects of one input (a scenario with its included files and timeline, or a
/// snapshot with its additions): keeps the modelled ones, counts the others by kind for one
/// warning each, and notes the fields of modelled objects that would change placement but are
/// not modelled (a StatefulSet's volumeClaimTemplates). Under `strict` an ignored kind or field
/// is an InputError at the object instead.
class KindFilter {
 public:
  explicit KindFilter(bool strict) : strict_(strict) {}

  /// True for an object to parse: a modelled kind, or one whose kind cannot be read (the
  /// parser then names the fault).
  [[nodiscard]] bool keep(const JsonNode& item);
  /// The items of `items` to parse, in order.
  [[nodiscard]] std::vector<JsonNode> kept(const std::vector<JsonNode>& items);

  /// Appends one warning per kind (or field) left out, in the order first met:
  /// `file:line: pointer: 2 ConfigMap objects skipped: ...`, placed at the first such object.
  void notes(std::vector<std::string>& out) const;

 private:
  struct LeftOut {
    std::string what;  ///< "ConfigMap", "InferenceService (serving.kserve.io/v1beta1)"
    KindVerdict verdict;
    std::string field;  ///< for a field of a modelled kind: its name
    std::size_t count = 0;
    std::string first;  ///< where the first one is: `file:line: pointer`
  };
  void left_out(const JsonNode& item, std::string what, KindVerdict verdict, std::string field);

  bool strict_;
  std::vector<LeftOut> left_out_;
};

}  // namespace gpusched::io
