#include "gpusched/model/object_meta.hpp"

#include <algorithm>

namespace gpusched {

// metav1.GetControllerOf (k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go).
const OwnerReference* ObjectMeta::controller() const noexcept {
  // The first reference marked as controller wins; validation allows only one.
  for (const OwnerReference& ref : owner_references) {
    if (ref.controller) return &ref;
  }
  return nullptr;
}

bool key_less(const ObjectMeta& a, const ObjectMeta& b) noexcept {
  if (a.namespace_ == b.namespace_) return a.name < b.name;
  // The keys differ at the first byte where the namespaces differ, or where one namespace ends
  // (its '/' against the other's byte there). Only a namespace holding a '/', which validation
  // refuses, can meet a '/' there; then the rest of both keys decides, byte by byte.
  const auto [ia, ib] = std::mismatch(a.namespace_.begin(), a.namespace_.end(),
                                      b.namespace_.begin(), b.namespace_.end());
  const char ca = ia == a.namespace_.end() ? '/' : *ia;
  const char cb = ib == b.namespace_.end() ? '/' : *ib;
  if (ca != cb) return static_cast<unsigned char>(ca) < static_cast<unsigned char>(cb);
  const auto at = [](const ObjectMeta& m, std::size_t i) -> int {
    if (i < m.namespace_.size()) return static_cast<unsigned char>(m.namespace_[i]);
    if (i == m.namespace_.size()) return '/';
    i -= m.namespace_.size() + 1;
    return i < m.name.size() ? static_cast<unsigned char>(m.name[i]) : -1;
  };
  for (std::size_t i = static_cast<std::size_t>(ia - a.namespace_.begin()) + 1;; ++i) {
    const int x = at(a, i);
    const int y = at(b, i);
    if (x != y) return x < y;
    if (x < 0) return false;
  }
}

}  // namespace gpusched
