// Evaluation of a checked selector against one device, with cel-go v0.26.0's runtime semantics
// (interpreter/interpretable.go, attributes.go; common/types; common/decls/decls.go's overload
// guards) and the texts of its runtime errors. The device is not copied into maps as
// compile.go's DeviceMatches does: attributes and capacities are looked up in the device's own
// maps by `<domain>/<id>` (or the bare id in the driver's domain), which gives the same values.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <forward_list>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dra/cel_program.hpp"
#include "gpusched/model/quantity.hpp"
#include "model/utf8.hpp"

namespace gpusched::dra::cel::detail {
namespace {

constexpr std::string_view kNoSuchOverload = "no such overload";
constexpr std::string_view kIntOverflow = "integer overflow";
constexpr std::string_view kCostExceeded = "operation cancelled: actual cost limit exceeded";
// apimachinery quantity.go ErrFormatWrong (ParseQuantity does not trim white space).
constexpr std::string_view kQuantityFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

// ---- the device's attribute and capacity maps, viewed by domain (compile.go
// parseQualifiedName: a name splits at its first '/'; a bare id is in the driver's domain) ----

std::string_view domain_of(std::string_view key, std::string_view driver) {
  const std::size_t slash = key.find('/');
  return slash == std::string_view::npos ? driver : key.substr(0, slash);
}

std::string_view id_of(std::string_view key) {
  const std::size_t slash = key.find('/');
  return slash == std::string_view::npos ? key : key.substr(slash + 1);
}

// The entry `domain`.`id`, or nullptr. A bare key wins over `<driver>/<id>` when both exist
// (upstream builds a Go map from both, in random order).
template <typename M>
const typename M::mapped_type* find_entry(const M& map, std::string_view driver,
                                          std::string_view domain, std::string_view id) {
  if (domain.find('/') != std::string_view::npos) return nullptr;
  if (domain == driver && id.find('/') == std::string_view::npos) {
    if (auto it = map.find(id); it != map.end()) return &it->second;
  }
  std::array<char, 256> buffer{};
  std::string heap;
  std::string_view key;
  const std::size_t n = domain.size() + 1 + id.size();
  if (n <= buffer.size()) {
    std::memcpy(buffer.data(), domain.data(), domain.size());
    buffer[domain.size()] = '/';
    std::memcpy(buffer.data() + domain.size() + 1, id.data(), id.size());
    key = std::string_view(buffer.data(), n);
  } else {
    heap.append(domain).append("/").append(id);
    key = heap;
  }
  if (auto it = map.find(key); it != map.end()) return &it->second;
  return nullptr;
}

template <typename M>
bool has_domain(const M& map, std::string_view driver, std::string_view domain) {
  for (const auto& entry : map) {
    if (domain_of(entry.first, driver) == domain) return true;
  }
  return false;
}

template <typename M>
std::vector<std::string_view> domains(const M& map, std::string_view driver) {
  std::vector<std::string_view> out;
  for (const auto& entry : map) out.push_back(domain_of(entry.first, driver));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

template <typename M>
std::vector<std::string_view> ids(const M& map, std::string_view driver, std::string_view domain) {
  std::vector<std::string_view> out;
  if (domain.find('/') != std::string_view::npos) return out;
  for (const auto& entry : map) {
    if (domain_of(entry.first, driver) == domain) out.push_back(id_of(entry.first));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

constexpr std::array<std::string_view, 4> kDeviceKeys = {"allowMultipleAllocations", "attributes",
                                                         "capacity", "driver"};

struct Slot {
  Value value;
  bool ready = false;
  NodeId init = kNoNode;  // cel.bind: the initializer, evaluated on first use
};

class Evaluator {
 public:
  Evaluator(const Program& program, const DeviceView& device, Slot* slots)
      : program_(program), nodes_(program.ast.nodes), device_(device), slots_(slots) {}

  Value eval(NodeId id) {
    if (aborted_) return Value::of_error(kCostExceeded);
    if (++cost_ > kCostLimit) {
      aborted_ = true;
      return Value::of_error(kCostExceeded);
    }
    const Expr& e = nodes_[id];
    if (e.constant >= 0) return program_.constants[static_cast<std::size_t>(e.constant)];
    switch (e.kind) {
      case ExprKind::Null:
        return Value{};
      case ExprKind::Bool:
        return Value::of_bool(e.bool_value);
      case ExprKind::Int:
        return Value::of_int(e.int_value);
      case ExprKind::String:
        return Value::of_string(e.text);
      case ExprKind::Ident:
        return ident(e);
      case ExprKind::Select: {
        const Value operand = eval(e.args[0]);
        if (operand.is_error()) return operand;
        if (e.test_only) return presence(operand, e.text);
        if (operand.kind == ValueKind::Map && operand.map == MapKind::Device) {
          return device_field(e);  // resolved by the checker
        }
        return select(operand, e.text);
      }
      case ExprKind::Index: {
        const Value operand = eval(e.args[0]);
        if (operand.is_error()) return operand;
        const Value key = eval(e.args[1]);
        if (key.is_error()) return key;
        return index(operand, key);
      }
      case ExprKind::Call:
        return call(e);
      case ExprKind::List: {
        std::vector<Value> elems;
        elems.reserve(e.args.size());
        for (NodeId a : e.args) {
          Value v = eval(a);
          if (v.is_error()) return v;
          elems.push_back(v);
        }
        return Value::of_list(keep(std::move(elems)));
      }
      case ExprKind::And:
        return logical(e, false);
      case ExprKind::Or:
        return logical(e, true);
      case ExprKind::Conditional: {
        const Value c = eval(e.args[0]);
        if (c.kind != ValueKind::Bool) return c.is_error() ? c : Value::of_error(kNoSuchOverload);
        return eval(c.boolean ? e.args[1] : e.args[2]);
      }
      case ExprKind::Comprehension:
        return comprehension(e);
      case ExprKind::Unsupported:
      case ExprKind::Error:
        break;
    }
    return Value::of_error("unsupported CEL: internal error: unchecked node");
  }

  [[nodiscard]] bool aborted() const { return aborted_; }

  std::string_view keep(std::string text) { return strings_.emplace_front(std::move(text)); }
  const std::vector<Value>* keep(std::vector<Value> list) {
    return &lists_.emplace_front(std::move(list));
  }
  Value error(std::string text) { return Value::of_error(keep(std::move(text))); }

 private:
  // "no such overload: f(t1, t2)": decls.go MaybeNoSuchOverload for a guarded overload.
  Value no_such_overload(std::string_view function, std::initializer_list<Value> args) {
    std::string text = "no such overload: " + std::string(function) + "(";
    bool first = true;
    for (const Value& a : args) {
      if (!first) text += ", ";
      text += type_name(a);
      first = false;
    }
    return error(text + ")");
  }

  // %v of a map key or list index in "no such key: ..." and "index out of bounds: ...".
  std::string format_key(const Value& v) {
    switch (v.kind) {
      case ValueKind::String:
        return std::string(v.text);
      case ValueKind::Int:
        return std::to_string(v.integer);
      case ValueKind::Bool:
        return v.boolean ? "true" : "false";
      case ValueKind::Null:
        return "NULL_VALUE";
      default:
        return std::string(type_name(v));
    }
  }

  Value ident(const Expr& e) {
    if (e.ref == IdentRef::Device) return Value::of_map(MapKind::Device);
    Slot& slot = slots_[e.slot];
    if (!slot.ready) {
      // The folder's lazy accumulator (interpreter.go folder.ResolveName): cel.bind's
      // initializer runs the first time the variable is read, once.
      slot.value = eval(slot.init);
      slot.ready = true;
    }
    return slot.value;
  }

  Value attribute_value(const DeviceAttribute& a) {
    switch (a.kind) {
      case DeviceAttribute::Kind::Int:
        return Value::of_int(a.int_value);
      case DeviceAttribute::Kind::Bool:
        return Value::of_bool(a.bool_value);
      case DeviceAttribute::Kind::String:
        return Value::of_string(a.string_value);
      case DeviceAttribute::Kind::Version: {
        // Validated before evaluation, as DeviceMatches builds every value first.
        std::string err;
        if (auto v = parse_semver(a.string_value, &err)) return Value::of_semver(*v);
        return error("parse semantic version: " + err);
      }
    }
    return Value{};
  }

  Value device_field(const Expr& e) {
    switch (e.field) {
      case DeviceField::Driver:
        return Value::of_string(device_.driver);
      case DeviceField::Attributes:
        return Value::of_map(MapKind::AttributeDomains);
      case DeviceField::Capacity:
        return Value::of_map(MapKind::CapacityDomains);
      case DeviceField::AllowMultipleAllocations:
        return Value::of_bool(device_.allow_multiple_allocations.value_or(false));
      case DeviceField::None:
        break;
    }
    return map_lookup(Value::of_map(MapKind::Device), e.text);
  }

  // A field of a map (attributes.go stringQualifier over refQualify).
  Value select(const Value& operand, std::string_view field) {
    if (operand.kind == ValueKind::Map) return map_lookup(operand, field);
    if (operand.kind == ValueKind::List) {
      return error("unsupported index type 'string' in list");
    }
    return error("no such key: " + std::string(field));
  }

  Value map_lookup(const Value& map, std::string_view key) {
    switch (map.map) {
      case MapKind::Device:
        if (key == "driver") return Value::of_string(device_.driver);
        if (key == "attributes") return Value::of_map(MapKind::AttributeDomains);
        if (key == "capacity") return Value::of_map(MapKind::CapacityDomains);
        if (key == "allowMultipleAllocations") {
          return Value::of_bool(device_.allow_multiple_allocations.value_or(false));
        }
        break;
      case MapKind::AttributeDomains:
        // compile.go's mapper: an unknown domain is an empty map.
        return Value::of_map(MapKind::Attributes, key);
      case MapKind::CapacityDomains:
        return Value::of_map(MapKind::Capacities, key);
      case MapKind::Attributes:
        if (const auto* a = find_entry(*device_.attributes, device_.driver, map.text, key)) {
          return attribute_value(*a);
        }
        break;
      case MapKind::Capacities:
        if (const auto* c = find_entry(*device_.capacity, device_.driver, map.text, key)) {
          return Value::of_quantity(c->value.milli());
        }
        break;
    }
    return error("no such key: " + std::string(key));
  }

  Value index(const Value& operand, const Value& key) {
    if (operand.kind == ValueKind::Map) {
      if (key.kind == ValueKind::String) return map_lookup(operand, key.text);
      // A string-keyed map finds nothing under another key type; the domain maps' default
      // still answers (an empty map).
      if (operand.map == MapKind::AttributeDomains) return Value::of_map(MapKind::Attributes, "/");
      if (operand.map == MapKind::CapacityDomains) return Value::of_map(MapKind::Capacities, "/");
      return error("no such key: " + format_key(key));
    }
    if (operand.kind == ValueKind::List) {
      if (key.kind != ValueKind::Int) {
        return error("unsupported index type '" + std::string(type_name(key)) + "' in list");
      }
      if (key.integer < 0 || static_cast<std::uint64_t>(key.integer) >= operand.list->size()) {
        return error("index out of bounds: " + std::to_string(key.integer));
      }
      return (*operand.list)[static_cast<std::size_t>(key.integer)];
    }
    return error("no such key: " + format_key(key));
  }

  // has(operand.field): refQualify with a presence test.
  Value presence(const Value& operand, std::string_view field) {
    if (operand.kind == ValueKind::List) return error("unsupported index type 'string' in list");
    if (operand.kind != ValueKind::Map) return Value::of_bool(false);
    switch (operand.map) {
      case MapKind::Device:
        return Value::of_bool(std::find(kDeviceKeys.begin(), kDeviceKeys.end(), field) !=
                              kDeviceKeys.end());
      case MapKind::AttributeDomains:
      case MapKind::CapacityDomains:
        return Value::of_bool(true);  // the mapper's Find always answers
      case MapKind::Attributes:
        return Value::of_bool(
            find_entry(*device_.attributes, device_.driver, operand.text, field) != nullptr);
      case MapKind::Capacities:
        return Value::of_bool(find_entry(*device_.capacity, device_.driver, operand.text, field) !=
                              nullptr);
    }
    return Value::of_bool(false);
  }

  // The keys a map iterates (Go map order is random upstream; here sorted).
  std::vector<std::string_view> keys(const Value& map) {
    switch (map.map) {
      case MapKind::Device:
        return {kDeviceKeys.begin(), kDeviceKeys.end()};
      case MapKind::AttributeDomains:
        return domains(*device_.attributes, device_.driver);
      case MapKind::CapacityDomains:
        return domains(*device_.capacity, device_.driver);
      case MapKind::Attributes:
        return ids(*device_.attributes, device_.driver, map.text);
      case MapKind::Capacities:
        return ids(*device_.capacity, device_.driver, map.text);
    }
    return {};
  }

  bool map_contains(const Value& map, std::string_view key) {
    switch (map.map) {
      case MapKind::Device:
        return std::find(kDeviceKeys.begin(), kDeviceKeys.end(), key) != kDeviceKeys.end();
      case MapKind::AttributeDomains:
        // `in` uses the underlying map's Contains, not the mapper's default.
        return has_domain(*device_.attributes, device_.driver, key);
      case MapKind::CapacityDomains:
        return has_domain(*device_.capacity, device_.driver, key);
      case MapKind::Attributes:
        return find_entry(*device_.attributes, device_.driver, map.text, key) != nullptr;
      case MapKind::Capacities:
        return find_entry(*device_.capacity, device_.driver, map.text, key) != nullptr;
    }
    return false;
  }

  // ref.Val.Equal as types.Equal calls it: heterogeneous values are unequal, except that
  // apiserver's Quantity and Semver answer "no such overload" to other types.
  Value equal(const Value& a, const Value& b) {
    if (a.kind == ValueKind::Null || b.kind == ValueKind::Null) {
      return Value::of_bool(a.kind == b.kind);
    }
    switch (a.kind) {
      case ValueKind::Bool:
        return Value::of_bool(b.kind == ValueKind::Bool && a.boolean == b.boolean);
      case ValueKind::Int:
        return Value::of_bool(b.kind == ValueKind::Int && a.integer == b.integer);
      case ValueKind::String:
        return Value::of_bool(b.kind == ValueKind::String && a.text == b.text);
      case ValueKind::Quantity:
        if (b.kind != ValueKind::Quantity) return Value::of_error(kNoSuchOverload);
        return Value::of_bool(a.integer == b.integer);
      case ValueKind::Semver:
        if (b.kind != ValueKind::Semver) return Value::of_error(kNoSuchOverload);
        return Value::of_bool(compare_semver(a.semver, b.semver) == 0);
      case ValueKind::List: {
        if (b.kind != ValueKind::List || a.list->size() != b.list->size()) {
          return Value::of_bool(false);
        }
        for (std::size_t i = 0; i < a.list->size(); ++i) {
          const Value eq = equal((*a.list)[i], (*b.list)[i]);
          if (eq.kind == ValueKind::Bool && !eq.boolean) return eq;
        }
        return Value::of_bool(true);
      }
      case ValueKind::Map: {
        if (b.kind != ValueKind::Map) return Value::of_bool(false);
        const auto a_keys = keys(a);
        if (a_keys.size() != keys(b).size()) return Value::of_bool(false);
        for (std::string_view k : a_keys) {
          const bool b_finds = b.map == MapKind::AttributeDomains ||
                               b.map == MapKind::CapacityDomains || map_contains(b, k);
          if (!b_finds) return Value::of_bool(false);
          const Value eq = equal(map_lookup(a, k), map_lookup(b, k));
          if (eq.kind == ValueKind::Bool && !eq.boolean) return eq;
        }
        return Value::of_bool(true);
      }
      default:
        return Value::of_bool(false);
    }
  }

  // The comparison operators: a singleton binding over traits.Comparer.
  Value compare(Fn fn, std::string_view name, const Value& a, const Value& b) {
    int cmp = 0;
    switch (a.kind) {
      case ValueKind::Bool:
        if (b.kind != ValueKind::Bool) return Value::of_error(kNoSuchOverload);
        cmp = a.boolean == b.boolean ? 0 : a.boolean ? 1 : -1;
        break;
      case ValueKind::Int:
        if (b.kind != ValueKind::Int) return Value::of_error(kNoSuchOverload);
        cmp = a.integer < b.integer ? -1 : a.integer > b.integer ? 1 : 0;
        break;
      case ValueKind::String: {
        if (b.kind != ValueKind::String) return Value::of_error(kNoSuchOverload);
        const int c = a.text.compare(b.text);
        cmp = c < 0 ? -1 : c > 0 ? 1 : 0;
        break;
      }
      default:
        return error("no such overload: " + std::string(name));
    }
    switch (fn) {
      case Fn::Lt:
        return Value::of_bool(cmp < 0);
      case Fn::Le:
        return Value::of_bool(cmp <= 0);
      case Fn::Gt:
        return Value::of_bool(cmp > 0);
      default:
        return Value::of_bool(cmp >= 0);
    }
  }

  Value arithmetic(Fn fn, std::string_view name, const Value& a, const Value& b) {
    if (fn == Fn::Add && a.kind == ValueKind::String) {
      if (b.kind != ValueKind::String) return Value::of_error(kNoSuchOverload);
      std::string joined(a.text);
      joined += b.text;
      return Value::of_string(keep(std::move(joined)));
    }
    if (fn == Fn::Add && a.kind == ValueKind::List) {
      if (b.kind != ValueKind::List) return Value::of_error(kNoSuchOverload);
      std::vector<Value> joined(*a.list);
      joined.insert(joined.end(), b.list->begin(), b.list->end());
      return Value::of_list(keep(std::move(joined)));
    }
    if (a.kind != ValueKind::Int) return error("no such overload: " + std::string(name));
    if (b.kind != ValueKind::Int) return Value::of_error(kNoSuchOverload);
    // common/types/overflow.go.
    const std::int64_t x = a.integer;
    const std::int64_t y = b.integer;
    std::int64_t r = 0;
    switch (fn) {
      case Fn::Add:
        if (__builtin_add_overflow(x, y, &r)) return Value::of_error(kIntOverflow);
        return Value::of_int(r);
      case Fn::Sub:
        if (__builtin_sub_overflow(x, y, &r)) return Value::of_error(kIntOverflow);
        return Value::of_int(r);
      case Fn::Mul:
        if (__builtin_mul_overflow(x, y, &r)) return Value::of_error(kIntOverflow);
        return Value::of_int(r);
      case Fn::Div:
        if (y == 0) return Value::of_error("division by zero");
        if (x == std::numeric_limits<std::int64_t>::min() && y == -1) {
          return Value::of_error(kIntOverflow);
        }
        return Value::of_int(x / y);
      default:
        if (y == 0) return Value::of_error("modulus by zero");
        if (x == std::numeric_limits<std::int64_t>::min() && y == -1) {
          return Value::of_error(kIntOverflow);
        }
        return Value::of_int(x % y);
    }
  }

  Value contains(const Value& container, const Value& element) {
    if (container.kind == ValueKind::List) {
      for (const Value& v : *container.list) {
        const Value eq = equal(element, v);
        if (eq.kind == ValueKind::Bool && eq.boolean) return eq;
      }
      return Value::of_bool(false);
    }
    if (container.kind == ValueKind::Map) {
      return Value::of_bool(element.kind == ValueKind::String &&
                            map_contains(container, element.text));
    }
    return Value::of_error(kNoSuchOverload);
  }

  Value size(const Value& v) {
    switch (v.kind) {
      case ValueKind::String: {
        std::int64_t n = 0;
        for (std::size_t i = 0; i < v.text.size(); i += decode_utf8(v.text, i).length) ++n;
        return Value::of_int(n);
      }
      case ValueKind::List:
        return Value::of_int(static_cast<std::int64_t>(v.list->size()));
      case ValueKind::Map:
        return Value::of_int(static_cast<std::int64_t>(keys(v).size()));
      default:
        return Value::of_error("no such overload: size");
    }
  }

  // ext/strings.go lowerASCII/upperASCII: over runes, so invalid UTF-8 becomes U+FFFD.
  Value change_case(const Value& s, bool upper) {
    std::string out;
    out.reserve(s.text.size());
    for (std::size_t i = 0; i < s.text.size();) {
      const Utf8Char c = decode_utf8(s.text, i);
      if (!c.valid) {
        out += "\xEF\xBF\xBD";
      } else if (c.code < 0x80) {
        char ch = s.text[i];
        if (upper && ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 32);
        if (!upper && ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch + 32);
        out += ch;
      } else {
        out.append(s.text.substr(i, c.length));
      }
      i += c.length;
    }
    return Value::of_string(keep(std::move(out)));
  }

  // strings.SplitN (genSplit and explode).
  Value split(std::string_view s, std::string_view sep, std::int64_t n) {
    std::vector<Value> parts;
    if (n == 0) return Value::of_list(keep(std::move(parts)));
    if (sep.empty()) {
      std::int64_t runes = 0;
      for (std::size_t i = 0; i < s.size(); i += decode_utf8(s, i).length) ++runes;
      if (n < 0 || n > runes) n = runes;
      for (std::int64_t k = 0; k + 1 < n; ++k) {
        const std::size_t len = decode_utf8(s, 0).length;
        parts.push_back(Value::of_string(s.substr(0, len)));
        s.remove_prefix(len);
      }
      if (n > 0) parts.push_back(Value::of_string(s));
      return Value::of_list(keep(std::move(parts)));
    }
    while (n < 0 || static_cast<std::int64_t>(parts.size()) + 1 < n) {
      const std::size_t at = s.find(sep);
      if (at == std::string_view::npos) break;
      parts.push_back(Value::of_string(s.substr(0, at)));
      s.remove_prefix(at + sep.size());
    }
    parts.push_back(Value::of_string(s));
    return Value::of_list(keep(std::move(parts)));
  }

  Value parse_quantity(std::string_view text) {
    // resource.ParseQuantity takes the text as it is; gpusched's parser trims white space first.
    const bool spaced = !text.empty() && (std::isspace(static_cast<unsigned char>(text.front())) ||
                                          std::isspace(static_cast<unsigned char>(text.back())));
    std::string err;
    std::optional<Quantity> q;
    if (!spaced) q = Quantity::parse(text, &err);
    if (!q) return error(spaced ? std::string(kQuantityFormatWrong) : err);
    return Value::of_quantity(q->milli());
  }

  Value parse_version(std::string_view text, bool normalize) {
    std::string err;
    std::optional<SemverValue> v;
    if (normalize) {
      std::string storage;
      v = parse_semver_normalized(text, storage, &err);
      if (v) {
        // The prerelease view must point at text that outlives the evaluation step.
        const std::string_view kept = keep(std::move(storage));
        v = parse_semver(kept, &err);
      }
    } else {
      v = parse_semver(text, &err);
    }
    if (!v) return error(err);
    return Value::of_semver(*v);
  }

  Value call(const Expr& e) {
    const std::string_view name = e.text;
    // Strict functions: every argument is evaluated, the first error is the result.
    std::array<Value, 3> args{};
    const std::size_t n = std::min<std::size_t>(e.args.size(), args.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (e.fn == Fn::Matches && i == 1) break;  // the pattern is compiled
      args[i] = eval(e.args[i]);
      if (args[i].is_error()) return args[i];
    }
    const Value& a = args[0];
    const Value& b = args[1];
    switch (e.fn) {
      case Fn::Eq:
        return equal(a, b);
      case Fn::Ne: {
        // evalNe: anything but a true Equal is "not equal", errors included.
        const Value eq = equal(a, b);
        return Value::of_bool(!(eq.kind == ValueKind::Bool && eq.boolean));
      }
      case Fn::Lt:
      case Fn::Le:
      case Fn::Gt:
      case Fn::Ge:
        return compare(e.fn, name, a, b);
      case Fn::In:
        return contains(b, a);
      case Fn::Not:
        if (a.kind != ValueKind::Bool) return Value::of_error(kNoSuchOverload);
        return Value::of_bool(!a.boolean);
      case Fn::Neg:
        if (a.kind == ValueKind::Int) {
          if (a.integer == std::numeric_limits<std::int64_t>::min()) {
            return Value::of_error(kIntOverflow);
          }
          return Value::of_int(-a.integer);
        }
        if (a.kind == ValueKind::Bool) return Value::of_error(kNoSuchOverload);
        return error("no such overload: -_");
      case Fn::Add:
      case Fn::Sub:
      case Fn::Mul:
      case Fn::Div:
      case Fn::Mod:
        return arithmetic(e.fn, name, a, b);
      case Fn::Size:
        return size(a);
      case Fn::Contains:
      case Fn::StartsWith:
      case Fn::EndsWith: {
        if (a.kind != ValueKind::String || b.kind != ValueKind::String) {
          return Value::of_error(kNoSuchOverload);
        }
        if (e.fn == Fn::Contains) return Value::of_bool(a.text.find(b.text) != a.text.npos);
        if (e.fn == Fn::StartsWith) return Value::of_bool(a.text.starts_with(b.text));
        return Value::of_bool(a.text.ends_with(b.text));
      }
      case Fn::Matches:
        // interpreter/optimizations.go MatchesRegexOptimization.
        if (a.kind != ValueKind::String) return Value::of_error(kNoSuchOverload);
        return Value::of_bool(program_.regexes[e.regex].search(a.text));
      case Fn::LowerAscii:
      case Fn::UpperAscii:
        if (a.kind != ValueKind::String) return no_such_overload(name, {a});
        return change_case(a, e.fn == Fn::UpperAscii);
      case Fn::Split:
        if (e.args.size() == 3) {
          if (a.kind != ValueKind::String || b.kind != ValueKind::String ||
              args[2].kind != ValueKind::Int) {
            return no_such_overload(name, {a, b, args[2]});
          }
          return split(a.text, b.text, args[2].integer);
        }
        if (a.kind != ValueKind::String || b.kind != ValueKind::String) {
          return no_such_overload(name, {a, b});
        }
        return split(a.text, b.text, -1);
      case Fn::Quantity:
        if (a.kind != ValueKind::String) return no_such_overload(name, {a});
        return parse_quantity(a.text);
      case Fn::IsQuantity:
        if (a.kind != ValueKind::String) return no_such_overload(name, {a});
        return Value::of_bool(!parse_quantity(a.text).is_error());
      case Fn::Sign:
        if (a.kind != ValueKind::Quantity) return no_such_overload(name, {a});
        return Value::of_int(a.integer > 0 ? 1 : a.integer < 0 ? -1 : 0);
      case Fn::IsGreaterThan:
      case Fn::IsLessThan:
      case Fn::CompareTo: {
        int cmp = 0;
        if (a.kind == ValueKind::Quantity && b.kind == ValueKind::Quantity) {
          cmp = a.integer < b.integer ? -1 : a.integer > b.integer ? 1 : 0;
        } else if (a.kind == ValueKind::Semver && b.kind == ValueKind::Semver) {
          cmp = compare_semver(a.semver, b.semver);
        } else {
          return no_such_overload(name, {a, b});
        }
        if (e.fn == Fn::CompareTo) return Value::of_int(cmp);
        return Value::of_bool(e.fn == Fn::IsGreaterThan ? cmp == 1 : cmp == -1);
      }
      case Fn::AsInteger:
        if (a.kind != ValueKind::Quantity) return no_such_overload(name, {a});
        if (a.integer % 1000 != 0) return Value::of_error("cannot convert value to integer");
        return Value::of_int(a.integer / 1000);
      case Fn::IsInteger:
        if (a.kind != ValueKind::Quantity) return no_such_overload(name, {a});
        return Value::of_bool(a.integer % 1000 == 0);
      case Fn::Semver:
      case Fn::IsSemver: {
        const bool two = e.args.size() == 2;
        if (a.kind != ValueKind::String || (two && b.kind != ValueKind::Bool)) {
          return two ? no_such_overload(name, {a, b}) : no_such_overload(name, {a});
        }
        const Value v = parse_version(a.text, two && b.boolean);
        if (e.fn == Fn::Semver) return v;
        return Value::of_bool(!v.is_error());
      }
      case Fn::Major:
      case Fn::Minor:
      case Fn::Patch: {
        if (a.kind != ValueKind::Semver) return no_such_overload(name, {a});
        const std::uint64_t part = e.fn == Fn::Major   ? a.semver.major
                                   : e.fn == Fn::Minor ? a.semver.minor
                                                       : a.semver.patch;
        return Value::of_int(static_cast<std::int64_t>(part));
      }
      case Fn::None:
        break;
    }
    return Value::of_error("unsupported CEL: internal error: unresolved call");
  }

  // evalAnd / evalOr: the first deciding value wins wherever it is; otherwise the first error
  // (a non-bool term is "no such overload").
  Value logical(const Expr& e, bool is_or) {
    std::optional<Value> err;
    for (NodeId t : e.args) {
      const Value v = eval(t);
      if (v.kind == ValueKind::Bool) {
        if (v.boolean == is_or) return v;
      } else if (!err) {
        err = v.is_error() ? v : Value::of_error(kNoSuchOverload);
      }
    }
    if (err) return *err;
    return Value::of_bool(!is_or);
  }

  static Value combine(const Value& accu, const Value& pred, bool is_or) {
    if (accu.kind == ValueKind::Bool && accu.boolean == is_or) return accu;
    if (pred.kind == ValueKind::Bool && pred.boolean == is_or) return pred;
    if (accu.kind != ValueKind::Bool) {
      return accu.is_error() ? accu : Value::of_error(kNoSuchOverload);
    }
    if (pred.kind != ValueKind::Bool) {
      return pred.is_error() ? pred : Value::of_error(kNoSuchOverload);
    }
    return Value::of_bool(!is_or);
  }

  // The macro comprehensions (parser/macro.go makeQuantifier) and cel.bind.
  Value comprehension(const Expr& e) {
    Slot& slot = slots_[e.slot];
    if (e.comp == CompKind::Bind) {
      slot.ready = false;
      slot.init = e.args[0];
      return eval(e.args[1]);
    }
    const Value range = eval(e.args[0]);
    if (range.is_error()) return range;
    std::vector<Value> map_keys;
    const std::vector<Value>* elems = nullptr;
    if (range.kind == ValueKind::List) {
      elems = range.list;
    } else if (range.kind == ValueKind::Map) {
      for (std::string_view k : keys(range)) map_keys.push_back(Value::of_string(k));
      elems = &map_keys;
    } else {
      return error("got '" + std::string(go_type_name(range)) + "', expected iterable type");
    }
    Value accu =
        e.comp == CompKind::ExistsOne ? Value::of_int(0) : Value::of_bool(e.comp == CompKind::All);
    for (const Value& item : *elems) {
      // The loop condition: all stops at false, exists at true (not_strictly_false).
      if (e.comp == CompKind::All && accu.kind == ValueKind::Bool && !accu.boolean) break;
      if (e.comp == CompKind::Exists && accu.kind == ValueKind::Bool && accu.boolean) break;
      if (aborted_ || ++cost_ > kCostLimit) {
        aborted_ = true;
        return Value::of_error(kCostExceeded);
      }
      slot.value = item;
      slot.ready = true;
      const Value pred = eval(e.args[1]);
      if (e.comp == CompKind::ExistsOne) {
        // pred ? accu + 1 : accu
        if (pred.kind != ValueKind::Bool) {
          accu = pred.is_error() ? pred : Value::of_error(kNoSuchOverload);
        } else if (pred.boolean && !accu.is_error()) {
          accu = Value::of_int(accu.integer + 1);
        }
      } else {
        accu = combine(accu, pred, e.comp == CompKind::Exists);
      }
    }
    if (e.comp == CompKind::ExistsOne && !accu.is_error()) {
      return Value::of_bool(accu.integer == 1);
    }
    return accu;
  }

  const Program& program_;
  const std::vector<Expr>& nodes_;
  const DeviceView& device_;
  Slot* slots_;
  std::forward_list<std::string> strings_;
  std::forward_list<std::vector<Value>> lists_;
  std::uint64_t cost_ = 0;
  bool aborted_ = false;
};

// The "CEL result of type ... could not be converted to bool" texts of DeviceMatches.
std::string conversion_error(const Value& v) {
  std::string cause;
  switch (v.kind) {
    case ValueKind::String:
      cause = "unsupported native conversion from string to 'bool'";
      break;
    case ValueKind::Int:
      cause = "unsupported type conversion from 'int' to bool";
      break;
    case ValueKind::Semver:
      cause = "type conversion error from 'Semver' to 'bool'";
      break;
    case ValueKind::Quantity:
      cause = "type conversion error from 'Quantity' to 'bool'";
      break;
    case ValueKind::Null:
      cause = "type conversion error from 'null_type' to 'bool'";
      break;
    case ValueKind::List:
      cause = "type conversion error from list to 'bool'";
      break;
    default:
      cause = "type conversion error from map to 'bool'";
      break;
  }
  return "CEL result of type " + std::string(type_name(v)) +
         " could not be converted to bool: " + cause;
}

// Copies what a value points at into the program's storage.
Value persist(Program& program, Value v) {
  switch (v.kind) {
    case ValueKind::String:
    case ValueKind::Error:
      v.text = program.constant_text.emplace_back(v.text);
      break;
    case ValueKind::Semver:
      v.semver.pre = program.constant_text.emplace_back(v.semver.pre);
      break;
    case ValueKind::List: {
      std::vector<Value> elems;
      elems.reserve(v.list->size());
      for (const Value& e : *v.list) elems.push_back(persist(program, e));
      v.list = &program.constant_lists.emplace_back(std::move(elems));
      break;
    }
    default:
      break;
  }
  return v;
}

}  // namespace

Value fold_constant(Program& program, NodeId id) {
  static const AttributeMap kNoAttributes;
  static const CapacityMap kNoCapacity;
  DeviceView nothing;
  nothing.attributes = &kNoAttributes;
  nothing.capacity = &kNoCapacity;
  Evaluator evaluator(program, nothing, nullptr);
  return persist(program, evaluator.eval(id));
}

EvalResult evaluate(const Program& program, const DeviceView& device) {
  // getAttributeValue: every version attribute must parse, whether the expression reads it or
  // not (DeviceMatches converts them all before evaluating).
  for (const auto& [name, attribute] : *device.attributes) {
    if (attribute.kind != DeviceAttribute::Kind::Version) continue;
    std::string err;
    if (!parse_semver(attribute.string_value, &err)) {
      return {false, "attribute " + name + ": parse semantic version: " + err};
    }
  }
  // Variables (comprehensions, cel.bind) live in a few slots; most selectors have none.
  std::vector<Slot> slots;
  if (program.slot_count > 0) slots.resize(program.slot_count);
  Evaluator evaluator(program, device, slots.data());
  const Value result = evaluator.eval(program.ast.root);
  if (evaluator.aborted()) return {false, std::string(kCostExceeded)};
  switch (result.kind) {
    case ValueKind::Bool:
      return {result.boolean, std::nullopt};
    case ValueKind::Error:
      return {false, std::string(result.text)};
    default:
      return {false, conversion_error(result)};
  }
}

}  // namespace gpusched::dra::cel::detail
