// Static types and their unification, as cel-go v0.26.0 checker/types.go and
// common/types/types.go define them (only the kinds device selectors meet).
#include "dra/cel_types.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace gpusched::dra::cel::detail {
namespace {

// One static instance per simple kind (indexed by kind up to Timestamp), and per object type.
const Type* simple(TypeKind kind) {
  static const std::array<Type, 12> kSimple = [] {
    std::array<Type, 12> all{};
    for (std::size_t i = 0; i < all.size(); ++i) {
      all[i] = Type{static_cast<TypeKind>(i), {}, nullptr, nullptr};
    }
    return all;
  }();
  return &kSimple[static_cast<std::size_t>(kind)];
}

const Type* object(std::string_view name) {
  static const Type kQuantity{TypeKind::Struct, "kubernetes.Quantity", nullptr, nullptr};
  static const Type kSemver{TypeKind::Struct, "kubernetes.Semver", nullptr, nullptr};
  static const Type kDevice{TypeKind::Struct, "kubernetes.DRADevice", nullptr, nullptr};
  if (name == kQuantity.name) return &kQuantity;
  if (name == kSemver.name) return &kSemver;
  return &kDevice;
}

// The primitive names FormatCELType and Type.String() share.
std::string_view primitive_name(TypeKind kind) {
  switch (kind) {
    case TypeKind::Dyn:
      return "dyn";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Int:
      return "int";
    case TypeKind::Uint:
      return "uint";
    case TypeKind::Double:
      return "double";
    case TypeKind::String:
      return "string";
    case TypeKind::Bytes:
      return "bytes";
    default:
      return "";
  }
}

// Type.TypeName(): what defaultIsAssignableType compares besides the kind.
std::string_view type_name(const Type* t) {
  switch (t->kind) {
    case TypeKind::List:
      return "list";
    case TypeKind::Map:
      return "map";
    case TypeKind::Struct:
    case TypeKind::TypeParam:
      return t->name;
    default:
      return primitive_name(t->kind);
  }
}

int param_count(const Type* t) {
  return t->kind == TypeKind::List ? 1 : t->kind == TypeKind::Map ? 2 : 0;
}

const Type* param_at(const Type* t, int i) {
  return i == 0 ? t->first : t->second;
}

// Type.IsAssignableType (defaultIsAssignableType): `t` accepts `from`.
bool accepts(const Type* t, const Type* from) {
  if (exact(t, from) || t->kind == TypeKind::Dyn || t->kind == TypeKind::Any ||
      t->kind == TypeKind::TypeParam) {
    return true;
  }
  if (t->kind != from->kind || type_name(t) != type_name(from) ||
      param_count(t) != param_count(from)) {
    return false;
  }
  for (int i = 0; i < param_count(t); ++i) {
    if (!accepts(param_at(t, i), param_at(from, i))) return false;
  }
  return true;
}

// internalIsAssignableNull / isLegacyNullable.
bool accepts_null(const Type* t) {
  switch (t->kind) {
    case TypeKind::Struct:
    case TypeKind::Any:
    case TypeKind::Duration:
    case TypeKind::Timestamp:
      return true;
    default:
      return accepts(t, TypeStore::null());
  }
}

bool not_referenced_in(const Mapping& m, const Type* t, const Type* within) {
  if (exact(t, within)) return false;
  switch (within->kind) {
    case TypeKind::TypeParam: {
      const Type* sub = m.find(within);
      return sub == nullptr || not_referenced_in(m, t, sub);
    }
    case TypeKind::List:
    case TypeKind::Map:
      for (int i = 0; i < param_count(within); ++i) {
        if (!not_referenced_in(m, t, param_at(within, i))) return false;
      }
      return true;
    default:
      return true;
  }
}

// isEqualOrLessSpecific.
bool equal_or_less_specific(const Type* t1, const Type* t2) {
  if (is_dyn(t1) || t1->kind == TypeKind::TypeParam) return true;
  if (is_dyn(t2) || t2->kind == TypeKind::TypeParam) return false;
  if (t1->kind != t2->kind) return false;
  switch (t1->kind) {
    case TypeKind::List:
      return equal_or_less_specific(t1->first, t2->first);
    case TypeKind::Map:
      return equal_or_less_specific(t1->first, t2->first) &&
             equal_or_less_specific(t1->second, t2->second);
    default:
      return exact(t1, t2);
  }
}

// isValidTypeSubstitution: whether t1 may stand for the parameter t2; returns {valid, has_sub}.
std::pair<bool, bool> valid_substitution(Mapping& m, const Type* t1, const Type* t2) {
  if (t1->kind == t2->kind && exact(t1, t2)) return {true, true};
  if (const Type* sub = m.find(t2)) {
    if (t1->kind == sub->kind && exact(t1, sub)) return {true, true};
    if (is_assignable(m, t1, sub)) {
      const Type* widened = most_general(t1, sub);
      if (not_referenced_in(m, t2, widened)) m.add(t2, widened);
      return {true, true};
    }
    return {false, true};
  }
  if (not_referenced_in(m, t2, t1)) {
    m.add(t2, t1);
    return {true, false};
  }
  return {false, false};
}

std::string format_with(const Type* t, bool cel_format) {
  switch (t->kind) {
    case TypeKind::Error:
      return cel_format ? "!error!" : "error";
    case TypeKind::Any:
      return cel_format ? "any" : "google.protobuf.Any";
    case TypeKind::Null:
      return cel_format ? "null" : "null_type";
    case TypeKind::Duration:
      return cel_format ? "duration" : "google.protobuf.Duration";
    case TypeKind::Timestamp:
      return cel_format ? "timestamp" : "google.protobuf.Timestamp";
    case TypeKind::TypeParam:
      return cel_format ? std::string(t->name) : "<" + std::string(t->name) + ">";
    case TypeKind::List:
      return "list(" + format_with(t->first, cel_format) + ")";
    case TypeKind::Map:
      return "map(" + format_with(t->first, cel_format) + ", " +
             format_with(t->second, cel_format) + ")";
    case TypeKind::Struct:
      return std::string(t->name);
    default:
      return std::string(primitive_name(t->kind));
  }
}

}  // namespace

const Type* TypeStore::error() {
  return simple(TypeKind::Error);
}
const Type* TypeStore::dyn() {
  return simple(TypeKind::Dyn);
}
const Type* TypeStore::any() {
  return simple(TypeKind::Any);
}
const Type* TypeStore::null() {
  return simple(TypeKind::Null);
}
const Type* TypeStore::boolean() {
  return simple(TypeKind::Bool);
}
const Type* TypeStore::integer() {
  return simple(TypeKind::Int);
}
const Type* TypeStore::uint() {
  return simple(TypeKind::Uint);
}
const Type* TypeStore::dbl() {
  return simple(TypeKind::Double);
}
const Type* TypeStore::string() {
  return simple(TypeKind::String);
}
const Type* TypeStore::bytes() {
  return simple(TypeKind::Bytes);
}
const Type* TypeStore::duration() {
  return simple(TypeKind::Duration);
}
const Type* TypeStore::timestamp() {
  return simple(TypeKind::Timestamp);
}
const Type* TypeStore::quantity() {
  return object("kubernetes.Quantity");
}
const Type* TypeStore::semver() {
  return object("kubernetes.Semver");
}
const Type* TypeStore::device() {
  return object("kubernetes.DRADevice");
}

const Type* TypeStore::list(const Type* element) {
  return &types_.emplace_back(Type{TypeKind::List, {}, element, nullptr});
}

const Type* TypeStore::map(const Type* key, const Type* value) {
  return &types_.emplace_back(Type{TypeKind::Map, {}, key, value});
}

const Type* TypeStore::param(std::string name) {
  const std::string& stored = names_.emplace_back(std::move(name));
  return &types_.emplace_back(Type{TypeKind::TypeParam, stored, nullptr, nullptr});
}

bool exact(const Type* a, const Type* b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case TypeKind::Struct:
    case TypeKind::TypeParam:
      return a->name == b->name;
    case TypeKind::List:
      return exact(a->first, b->first);
    case TypeKind::Map:
      return exact(a->first, b->first) && exact(a->second, b->second);
    default:
      return true;
  }
}

bool is_dyn(const Type* t) {
  return t->kind == TypeKind::Dyn || t->kind == TypeKind::Any;
}

bool is_dyn_or_error(const Type* t) {
  return is_dyn(t) || t->kind == TypeKind::Error;
}

std::string format_cel(const Type* t) {
  return format_with(t, true);
}

std::string type_string(const Type* t) {
  return format_with(t, false);
}

const Type* Mapping::find(const Type* param) const {
  if (param->kind != TypeKind::TypeParam) return nullptr;
  for (const auto& [name, value] : entries_) {
    if (name == param->name) return value;
  }
  return nullptr;
}

void Mapping::add(const Type* param, const Type* value) {
  for (auto& [name, existing] : entries_) {
    if (name == param->name) {
      existing = value;
      return;
    }
  }
  entries_.emplace_back(param->name, value);
}

bool is_assignable(Mapping& m, const Type* t1, const Type* t2) {
  if (t2->kind == TypeKind::TypeParam) {
    const auto [valid, has_sub] = valid_substitution(m, t1, t2);
    if (valid) return true;
    if (has_sub) return false;
  }
  if (t1->kind == TypeKind::TypeParam) return valid_substitution(m, t2, t1).first;
  if (is_dyn_or_error(t1) || is_dyn_or_error(t2)) return true;
  if (t1->kind == TypeKind::Null) return accepts_null(t2);
  if (t2->kind == TypeKind::Null) return accepts_null(t1);
  switch (t1->kind) {
    case TypeKind::List:
    case TypeKind::Map:
      if (t1->kind != t2->kind) return false;
      for (int i = 0; i < param_count(t1); ++i) {
        if (!is_assignable(m, param_at(t1, i), param_at(t2, i))) return false;
      }
      return true;
    default:
      return accepts(t2, t1);
  }
}

const Type* substitute(const Mapping& m, TypeStore& store, const Type* t, bool params_to_dyn) {
  if (const Type* sub = m.find(t)) return substitute(m, store, sub, params_to_dyn);
  switch (t->kind) {
    case TypeKind::TypeParam:
      return params_to_dyn ? TypeStore::dyn() : t;
    case TypeKind::List:
      return store.list(substitute(m, store, t->first, params_to_dyn));
    case TypeKind::Map:
      return store.map(substitute(m, store, t->first, params_to_dyn),
                       substitute(m, store, t->second, params_to_dyn));
    default:
      return t;
  }
}

const Type* most_general(const Type* a, const Type* b) {
  return equal_or_less_specific(a, b) ? a : b;
}

}  // namespace gpusched::dra::cel::detail
