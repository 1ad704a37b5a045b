#pragma once
// Runtime values of the evaluator: what cel-go's ref.Val stands for in device selectors, held
// without allocation (strings and maps are views into the device or the program), plus the
// semantic versions of blang/semver v4 that apiserver's cel.Semver wraps.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::dra::cel::detail {

enum class ValueKind : std::uint8_t { Null, Bool, Int, String, Quantity, Semver, List, Map, Error };

/// The maps a selector can reach: `device` itself (a map[string]any at runtime upstream), the
/// attribute and capacity maps by domain, and one domain's attributes or capacities.
enum class MapKind : std::uint8_t {
  Device,
  AttributeDomains,
  CapacityDomains,
  Attributes,  ///< Value::text is the domain
  Capacities,  ///< Value::text is the domain
};

/// blang/semver v4 Version without build metadata (which never takes part in comparisons).
struct SemverValue {
  std::uint64_t major = 0;
  std::uint64_t minor = 0;
  std::uint64_t patch = 0;
  std::string_view pre;  ///< the validated pre-release identifiers, "." separated; empty: none
};

struct Value {
  ValueKind kind = ValueKind::Null;
  MapKind map = MapKind::Device;
  bool boolean = false;
  std::int64_t integer = 0;  ///< Int; Quantity in milli-units
  std::string_view text;     ///< String; map domain; Error message
  SemverValue semver;        ///< Semver
  const std::vector<Value>* list = nullptr;

  static Value of_bool(bool b) {
    Value v;
    v.kind = ValueKind::Bool;
    v.boolean = b;
    return v;
  }
  static Value of_int(std::int64_t i) {
    Value v;
    v.kind = ValueKind::Int;
    v.integer = i;
    return v;
  }
  static Value of_string(std::string_view s) {
    Value v;
    v.kind = ValueKind::String;
    v.text = s;
    return v;
  }
  static Value of_quantity(std::int64_t milli) {
    Value v;
    v.kind = ValueKind::Quantity;
    v.integer = milli;
    return v;
  }
  static Value of_semver(const SemverValue& s) {
    Value v;
    v.kind = ValueKind::Semver;
    v.semver = s;
    return v;
  }
  static Value of_list(const std::vector<Value>* l) {
    Value v;
    v.kind = ValueKind::List;
    v.list = l;
    return v;
  }
  static Value of_map(MapKind m, std::string_view domain = {}) {
    Value v;
    v.kind = ValueKind::Map;
    v.map = m;
    v.text = domain;
    return v;
  }
  /// An error whose message outlives the evaluation (a literal) or is kept by the caller.
  static Value of_error(std::string_view message) {
    Value v;
    v.kind = ValueKind::Error;
    v.text = message;
    return v;
  }

  [[nodiscard]] bool is_error() const { return kind == ValueKind::Error; }
};

/// ref.Type.TypeName() of a value: "int", "string", "kubernetes.Quantity", "map", ...
[[nodiscard]] std::string_view type_name(const Value& v);

/// Go's %T of the value's cel-go representation: "types.Int", "cel.Semver", ...
[[nodiscard]] std::string_view go_type_name(const Value& v);

/// semver.Parse (blang/semver v4). On failure returns nullopt with its error text.
[[nodiscard]] std::optional<SemverValue> parse_semver(std::string_view text, std::string* error);

/// semverlib.go normalizeAndParse: a "v" prefix, missing minor/patch and leading zeros are
/// tolerated. The normalized text is written to `storage`, which the result points into.
[[nodiscard]] std::optional<SemverValue> parse_semver_normalized(std::string_view text,
                                                                 std::string& storage,
                                                                 std::string* error);

/// Version.Compare: -1, 0 or 1.
[[nodiscard]] int compare_semver(const SemverValue& a, const SemverValue& b);

}  // namespace gpusched::dra::cel::detail
