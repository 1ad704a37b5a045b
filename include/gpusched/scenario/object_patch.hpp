#pragma once
/// A timeline `patch`: made when the scenario is loaded, applied to the object as it stands when
/// the action runs. The loader makes RFC 7386 merge patches from the file (io); explain's
/// remedies make typed edits of their own. The simulation only calls apply().

#include <string>

#include "gpusched/model/object.hpp"

namespace gpusched {

class ObjectPatch {
 public:
  virtual ~ObjectPatch() = default;
  /// The object after the patch, which must be a valid object of the same kind, name and
  /// namespace; otherwise throws InputError at `pointer` of `file` (the action's place). A merge
  /// patch validates its result as the API server validates an update; a typed patch is valid
  /// by construction.
  [[nodiscard]] virtual Object apply(const Object& current, const std::string& file,
                                     const std::string& pointer) const = 0;
  /// The patch as a JSON merge patch (RFC 7386), compact, for writing the scenario back.
  [[nodiscard]] virtual std::string merge_patch() const = 0;
};

}  // namespace gpusched
