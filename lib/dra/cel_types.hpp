#pragma once
// The static types of the CEL checker and its assignability rules, mirroring cel-go v0.26.0
// checker/types.go, checker/mapping.go and common/types/types.go (FormatCELType in
// checker/format.go). Only the kinds device selectors can meet are modelled; double, uint,
// bytes, duration and timestamp exist so that overload tables and messages read as upstream's.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched::dra::cel::detail {

enum class TypeKind : std::uint8_t {
  Error,
  Dyn,
  Any,  ///< google.protobuf.Any: the type of attribute values (apiservercel.AnyType)
  Null,
  Bool,
  Int,
  Uint,
  Double,
  String,
  Bytes,
  Duration,
  Timestamp,
  List,
  Map,
  Struct,     ///< an object type: kubernetes.DRADevice, kubernetes.Quantity, kubernetes.Semver
  TypeParam,  ///< an overload's type parameter or a checker type variable
};

/// One static type. Instances are immutable and compared structurally (IsExactType).
struct Type {
  TypeKind kind = TypeKind::Dyn;
  std::string_view name;         ///< Struct: the type name; TypeParam: the parameter name
  const Type* first = nullptr;   ///< List: element; Map: key
  const Type* second = nullptr;  ///< Map: value
};

/// Owns the composite types a check creates; the simple ones are static.
class TypeStore {
 public:
  static const Type* error();
  static const Type* dyn();
  static const Type* any();
  static const Type* null();
  static const Type* boolean();
  static const Type* integer();
  static const Type* uint();
  static const Type* dbl();
  static const Type* string();
  static const Type* bytes();
  static const Type* duration();
  static const Type* timestamp();
  static const Type* quantity();  ///< kubernetes.Quantity
  static const Type* semver();    ///< kubernetes.Semver
  static const Type* device();    ///< kubernetes.DRADevice

  const Type* list(const Type* element);
  const Type* map(const Type* key, const Type* value);
  const Type* param(std::string name);

 private:
  std::deque<Type> types_;
  std::deque<std::string> names_;
};

/// IsExactType: same kind, name and parameters.
[[nodiscard]] bool exact(const Type* a, const Type* b);

/// isDyn: dyn or the well-known Any.
[[nodiscard]] bool is_dyn(const Type* t);
[[nodiscard]] bool is_dyn_or_error(const Type* t);

/// FormatCELType: "int", "list(string)", "map(string, any)", "kubernetes.Quantity", "null".
[[nodiscard]] std::string format_cel(const Type* t);

/// Type.String(): what compile.go prints in "must evaluate to bool ..." ("google.protobuf.Any",
/// "null_type", "map(string, google.protobuf.Any)").
[[nodiscard]] std::string type_string(const Type* t);

/// The checker's type-parameter substitutions (checker/mapping.go), keyed by parameter name.
class Mapping {
 public:
  [[nodiscard]] const Type* find(const Type* param) const;
  void add(const Type* param, const Type* value);

 private:
  std::vector<std::pair<std::string_view, const Type*>> entries_;
};

/// internalIsAssignable: whether a value of t1 may be used where t2 is expected, binding type
/// parameters in `m` on the way. Callers that must not keep partial bindings work on a copy.
[[nodiscard]] bool is_assignable(Mapping& m, const Type* t1, const Type* t2);

/// substitute: replaces bound type parameters; unbound ones become dyn when asked.
[[nodiscard]] const Type* substitute(const Mapping& m, TypeStore& store, const Type* t,
                                     bool params_to_dyn);

/// mostGeneral: the less specific of two assignable types.
[[nodiscard]] const Type* most_general(const Type* a, const Type* b);

}  // namespace gpusched::dra::cel::detail
