// metav1.GetControllerOf (k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go).
#include "gpusched/model/object_meta.hpp"

namespace gpusched {

const OwnerReference* ObjectMeta::controller() const noexcept {
  // The first reference marked as controller wins; validation allows only one.
  for (const OwnerReference& ref : owner_references) {
    if (ref.controller) return &ref;
  }
  return nullptr;
}

}  // namespace gpusched
