// cel-go v0.26.0 checker/checker.go over the declarations of the environment compile.go builds:
// the standard library (common/stdlib/standard.go), ext.Strings(2), and the Kubernetes quantity
// and semver libraries (k8s.io/apiserver/pkg/cel/library/quantity.go, semverlib.go), plus the
// AST validators the Kubernetes base environment adds (cel/validator.go: regex literals and
// homogeneous aggregate literals).
#include "dra/cel_check.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpusched::dra::cel::detail {
namespace {

struct OverloadSpec {
  bool member = false;
  std::vector<const Type*> params;
  const Type* result = nullptr;
};

struct FunctionSpec {
  Fn fn = Fn::None;
  std::vector<OverloadSpec> overloads;
};

// The supported functions with their overloads in cel-go's declaration order.
using FunctionTable = std::map<std::string_view, FunctionSpec, std::less<>>;

const FunctionTable& functions() {
  static const FunctionTable table = [] {
    static TypeStore store;
    const Type* a = store.param("A");
    const Type* b = store.param("B");
    const Type* list_a = store.list(a);
    const Type* map_ab = store.map(a, b);
    const Type* b_t = TypeStore::boolean();
    const Type* i_t = TypeStore::integer();
    const Type* u_t = TypeStore::uint();
    const Type* d_t = TypeStore::dbl();
    const Type* s_t = TypeStore::string();
    const Type* by_t = TypeStore::bytes();
    const Type* du_t = TypeStore::duration();
    const Type* ts_t = TypeStore::timestamp();
    const Type* q_t = TypeStore::quantity();
    const Type* v_t = TypeStore::semver();
    const Type* list_s = store.list(s_t);
    auto g = [](std::vector<const Type*> params, const Type* result) {
      return OverloadSpec{false, std::move(params), result};
    };
    auto m = [](std::vector<const Type*> params, const Type* result) {
      return OverloadSpec{true, std::move(params), result};
    };
    FunctionTable all;
    FunctionTable* t = &all;
    (*t)["_==_"] = {Fn::Eq, {g({a, a}, b_t)}};
    (*t)["_!=_"] = {Fn::Ne, {g({a, a}, b_t)}};
    const std::vector<OverloadSpec> ordering = {
        g({b_t, b_t}, b_t),   g({i_t, i_t}, b_t),  g({i_t, d_t}, b_t), g({i_t, u_t}, b_t),
        g({u_t, u_t}, b_t),   g({u_t, d_t}, b_t),  g({u_t, i_t}, b_t), g({d_t, d_t}, b_t),
        g({d_t, i_t}, b_t),   g({d_t, u_t}, b_t),  g({s_t, s_t}, b_t), g({by_t, by_t}, b_t),
        g({ts_t, ts_t}, b_t), g({du_t, du_t}, b_t)};
    (*t)["_<_"] = {Fn::Lt, ordering};
    (*t)["_<=_"] = {Fn::Le, ordering};
    (*t)["_>_"] = {Fn::Gt, ordering};
    (*t)["_>=_"] = {Fn::Ge, ordering};
    (*t)["@in"] = {Fn::In, {g({a, list_a}, b_t), g({a, map_ab}, b_t)}};
    (*t)["!_"] = {Fn::Not, {g({b_t}, b_t)}};
    (*t)["-_"] = {Fn::Neg, {g({d_t}, d_t), g({i_t}, i_t)}};
    (*t)["_+_"] = {Fn::Add,
                   {g({by_t, by_t}, by_t), g({d_t, d_t}, d_t), g({du_t, du_t}, du_t),
                    g({du_t, ts_t}, ts_t), g({ts_t, du_t}, ts_t), g({i_t, i_t}, i_t),
                    g({list_a, list_a}, list_a), g({s_t, s_t}, s_t), g({u_t, u_t}, u_t)}};
    (*t)["_-_"] = {Fn::Sub,
                   {g({d_t, d_t}, d_t), g({du_t, du_t}, du_t), g({i_t, i_t}, i_t),
                    g({ts_t, du_t}, ts_t), g({ts_t, ts_t}, du_t), g({u_t, u_t}, u_t)}};
    (*t)["_*_"] = {Fn::Mul, {g({d_t, d_t}, d_t), g({i_t, i_t}, i_t), g({u_t, u_t}, u_t)}};
    (*t)["_/_"] = {Fn::Div, {g({d_t, d_t}, d_t), g({i_t, i_t}, i_t), g({u_t, u_t}, u_t)}};
    (*t)["_%_"] = {Fn::Mod, {g({i_t, i_t}, i_t), g({u_t, u_t}, u_t)}};
    (*t)["size"] = {Fn::Size,
                    {g({by_t}, i_t), m({by_t}, i_t), g({list_a}, i_t), m({list_a}, i_t),
                     g({map_ab}, i_t), m({map_ab}, i_t), g({s_t}, i_t), m({s_t}, i_t)}};
    (*t)["contains"] = {Fn::Contains, {m({s_t, s_t}, b_t)}};
    (*t)["startsWith"] = {Fn::StartsWith, {m({s_t, s_t}, b_t)}};
    (*t)["endsWith"] = {Fn::EndsWith, {m({s_t, s_t}, b_t)}};
    (*t)["matches"] = {Fn::Matches, {g({s_t, s_t}, b_t), m({s_t, s_t}, b_t)}};
    (*t)["lowerAscii"] = {Fn::LowerAscii, {m({s_t}, s_t)}};
    (*t)["upperAscii"] = {Fn::UpperAscii, {m({s_t}, s_t)}};
    (*t)["split"] = {Fn::Split, {m({s_t, s_t}, list_s), m({s_t, s_t, i_t}, list_s)}};
    (*t)["quantity"] = {Fn::Quantity, {g({s_t}, q_t)}};
    (*t)["isQuantity"] = {Fn::IsQuantity, {g({s_t}, b_t)}};
    (*t)["sign"] = {Fn::Sign, {g({q_t}, i_t)}};
    (*t)["isGreaterThan"] = {Fn::IsGreaterThan, {m({q_t, q_t}, b_t), m({v_t, v_t}, b_t)}};
    (*t)["isLessThan"] = {Fn::IsLessThan, {m({q_t, q_t}, b_t), m({v_t, v_t}, b_t)}};
    (*t)["compareTo"] = {Fn::CompareTo, {m({q_t, q_t}, i_t), m({v_t, v_t}, i_t)}};
    (*t)["asInteger"] = {Fn::AsInteger, {m({q_t}, i_t)}};
    (*t)["isInteger"] = {Fn::IsInteger, {m({q_t}, b_t)}};
    (*t)["semver"] = {Fn::Semver, {g({s_t}, v_t), g({s_t, b_t}, v_t)}};
    (*t)["isSemver"] = {Fn::IsSemver, {g({s_t}, b_t), g({s_t, b_t}, b_t)}};
    (*t)["major"] = {Fn::Major, {m({v_t}, i_t)}};
    (*t)["minor"] = {Fn::Minor, {m({v_t}, i_t)}};
    (*t)["patch"] = {Fn::Patch, {m({v_t}, i_t)}};
    return all;
  }();
  return table;
}

// Functions the Kubernetes environment declares (cel-go's standard library and extensions,
// apiserver's libraries) that gpusched does not evaluate.
constexpr std::array kDeclaredUnsupported = std::to_array<std::string_view>(
    {// standard.go: conversions, type(), time accessors
     "int", "uint", "double", "string", "bytes", "bool", "dyn", "type", "duration", "timestamp",
     "getFullYear", "getMonth", "getDayOfYear", "getDayOfMonth", "getDate", "getDayOfWeek",
     "getHours", "getMinutes", "getSeconds", "getMilliseconds",
     // ext/strings.go (version 2)
     "charAt", "indexOf", "lastIndexOf", "replace", "substring", "trim", "join", "format",
     // ext/lists.go (version 3) and apiserver's lists.go
     "slice", "flatten", "sort", "reverse", "distinct", "isSorted", "sum", "min", "max",
     // apiserver regex.go, urls.go, ip.go, cidr.go, format.go
     "find", "findAll", "url", "isURL", "getScheme", "getHost", "getHostname", "getPort",
     "getEscapedPath", "getQuery", "ip", "isIP", "family", "isUnspecified", "isLoopback",
     "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast", "cidr", "isCIDR",
     "containsIP", "containsCIDR", "prefixLength", "masked", "validate",
     // apiserver authz.go
     "path", "group", "serviceAccount", "resource", "subresource", "namespace", "name", "check",
     "allowed", "reason", "errored", "error", "fieldSelector", "labelSelector",
     // cel/library.go optional values
     "value", "hasValue", "or", "orValue", "unwrapOpt",
     // apiserver quantity.go: floating point and arithmetic
     "asApproximateFloat", "add", "sub"});

// The same for namespaced names (called as `ns.f(...)`).
constexpr std::array kNamespacedUnsupported = std::to_array<std::string_view>({
    "strings.quote",
    "sets.contains",
    "sets.equivalent",
    "sets.intersects",
    "lists.range",
    "optional.of",
    "optional.ofNonZeroValue",
    "optional.none",
    "optional.unwrap",
    "ip.isCanonical",
    "format.named",
    "format.dns1123Label",
    "format.dns1123Subdomain",
    "format.dns1035Label",
    "format.qualifiedName",
    "format.dns1123LabelPrefix",
    "format.dns1123SubdomainPrefix",
    "format.dns1035LabelPrefix",
    "format.labelValue",
    "format.uri",
    "format.uuid",
    "format.byte",
    "format.date",
    "format.datetime",
});

// Type names that are identifiers of the environment (type values), which gpusched leaves out.
constexpr std::array kTypeNames = std::to_array<std::string_view>({
    "bool",
    "bytes",
    "double",
    "int",
    "list",
    "map",
    "null_type",
    "string",
    "type",
    "uint",
    "optional_type",
    "google.protobuf.Duration",
    "google.protobuf.Timestamp",
    "google.protobuf.Any",
    "google.protobuf.Value",
    "kubernetes.Quantity",
    "kubernetes.Semver",
    "kubernetes.DRADevice",
});

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

class Checker {
 public:
  Checker(Ast& ast, const Features& features, TypeStore& store, CheckResult& out)
      : ast_(ast), features_(features), store_(store), out_(out) {}

  void run() {
    if (ast_.root == kNoNode) return;
    types_.assign(ast_.nodes.size(), nullptr);
    const Type* root = visit(ast_.root);
    out_.output = substitute(mappings_, store_, root, true);
    if (out_.errors.empty()) validate_lists();
    out_.slot_count = slots_;
  }

 private:
  struct Variable {
    std::string_view name;
    const Type* type;
    std::uint32_t slot;
  };

  Expr& node(NodeId id) { return ast_.nodes[id]; }

  void error(std::size_t offset, std::string message) {
    out_.errors.push_back({offset, std::move(message)});
  }
  void unsupported(std::size_t offset, std::string message) {
    out_.unsupported.push_back({offset, std::move(message)});
  }

  const Type* fresh() { return store_.param("_var" + std::to_string(type_vars_++)); }

  bool assignable(const Type* t1, const Type* t2) {
    Mapping copy = mappings_;
    if (!is_assignable(copy, t1, t2)) return false;
    mappings_ = std::move(copy);
    return true;
  }

  // The dotted name an expression of identifiers and selections spells
  // (containers.ToQualifiedName).
  std::optional<std::string> qualified_name(NodeId id) {
    const Expr& e = node(id);
    if (e.kind == ExprKind::Ident) return std::string(e.text);
    if (e.kind == ExprKind::Select && !e.test_only) {
      auto prefix = qualified_name(e.args[0]);
      if (prefix) return *prefix + "." + std::string(e.text);
    }
    return std::nullopt;
  }

  const Variable* lookup(std::string_view name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->name == name) return &*it;
    }
    return nullptr;
  }

  // Whether the root identifier of a qualified name is a declared variable.
  bool rooted_in_variable(NodeId id) {
    const Expr* e = &node(id);
    while (e->kind == ExprKind::Select) e = &node(e->args[0]);
    return e->kind == ExprKind::Ident && (e->text == "device" || lookup(e->text) != nullptr);
  }

  const Type* visit(NodeId id) {
    Expr& e = node(id);
    const Type* t = visit_kind(id, e);
    types_[id] = t;
    return t;
  }

  const Type* visit_kind(NodeId id, Expr& e) {
    switch (e.kind) {
      case ExprKind::Null:
        return TypeStore::null();
      case ExprKind::Bool:
        return TypeStore::boolean();
      case ExprKind::Int:
        return TypeStore::integer();
      case ExprKind::String:
        return TypeStore::string();
      case ExprKind::Ident:
        return visit_ident(e);
      case ExprKind::Select:
        return visit_select(id, e);
      case ExprKind::Index:
        return resolve_operator(e, "_[_]", {visit(e.args[0]), visit(e.args[1])});
      case ExprKind::Call:
        return visit_call(e);
      case ExprKind::List:
        return visit_list(e);
      case ExprKind::And:
      case ExprKind::Or:
        return visit_logical(e);
      case ExprKind::Conditional: {
        std::vector<const Type*> args;
        for (NodeId a : e.args) args.push_back(visit(a));
        return resolve_operator(e, "_?_:_", std::move(args));
      }
      case ExprKind::Comprehension:
        return visit_comprehension(e);
      case ExprKind::Unsupported:
        for (NodeId a : e.args) visit(a);
        return TypeStore::dyn();
      case ExprKind::Error:
        return TypeStore::error();
    }
    return TypeStore::error();
  }

  const Type* visit_ident(Expr& e) {
    if (const Variable* v = lookup(e.text)) {
      e.ref = IdentRef::Local;
      e.slot = v->slot;
      return v->type;
    }
    if (e.text == "device") {
      e.ref = IdentRef::Device;
      return TypeStore::device();
    }
    if (contains(kTypeNames, e.text)) {
      unsupported(e.offset, "type name \"" + std::string(e.text) + "\"");
      return TypeStore::dyn();
    }
    error(e.offset, "undeclared reference to '" + std::string(e.text) + "' (in container '')");
    return TypeStore::error();
  }

  const Type* device_field(std::string_view field, Expr& e) {
    if (field == "driver") {
      e.field = DeviceField::Driver;
      return TypeStore::string();
    }
    if (field == "attributes") {
      e.field = DeviceField::Attributes;
      return store_.map(TypeStore::string(), store_.map(TypeStore::string(), TypeStore::any()));
    }
    if (field == "capacity") {
      e.field = DeviceField::Capacity;
      return store_.map(TypeStore::string(),
                        store_.map(TypeStore::string(), TypeStore::quantity()));
    }
    if (field == "allowMultipleAllocations" && features_.consumable_capacity) {
      e.field = DeviceField::AllowMultipleAllocations;
      return TypeStore::boolean();
    }
    return nullptr;
  }

  const Type* visit_select(NodeId id, Expr& e) {
    // checkSelect: a qualified name that is a declared identifier (here only type names).
    if (!e.test_only) {
      if (auto name = qualified_name(id);
          name && contains(kTypeNames, *name) && !rooted_in_variable(id)) {
        unsupported(e.offset, "type name \"" + *name + "\"");
        return TypeStore::dyn();
      }
    }
    const Type* operand = substitute(mappings_, store_, visit(e.args[0]), false);
    const Type* result = TypeStore::error();
    switch (operand->kind) {
      case TypeKind::Map:
        result = operand->second;
        break;
      case TypeKind::Struct:
        if (operand->name == "kubernetes.DRADevice") {
          if (const Type* field = device_field(e.text, e)) result = field;
        }
        if (result->kind == TypeKind::Error) {
          error(e.offset, "undefined field '" + std::string(e.text) + "'");
        }
        break;
      case TypeKind::TypeParam:
        assignable(TypeStore::dyn(), operand);
        result = TypeStore::dyn();
        break;
      default:
        if (!is_dyn_or_error(operand)) {
          error(e.offset, "type '" + format_cel(operand) + "' does not support field selection");
        }
        result = TypeStore::dyn();
        break;
    }
    if (e.test_only) return TypeStore::boolean();
    return substitute(mappings_, store_, result, false);
  }

  const Type* visit_logical(Expr& e) {
    bool failed = false;
    for (NodeId a : e.args) {
      const Type* t = visit(a);
      if (!assignable(t, TypeStore::boolean())) {
        error(node(a).offset, "expected type 'bool' but found '" +
                                  format_cel(substitute(mappings_, store_, t, true)) + "'");
        failed = true;
      }
    }
    return failed ? TypeStore::error() : TypeStore::boolean();
  }

  const Type* visit_list(Expr& e) {
    const Type* elems = nullptr;
    for (NodeId a : e.args) {
      const Type* t = visit(a);
      if (elems == nullptr) {
        elems = t;
      } else if (assignable(elems, t)) {
        elems = most_general(elems, t);
      } else {
        error(node(a).offset,
              "expected type '" + format_cel(elems) + "' but found '" + format_cel(t) + "'");
        elems = TypeStore::error();
      }
    }
    lists_.push_back(&e);
    return store_.list(elems == nullptr ? fresh() : elems);
  }

  const Type* visit_comprehension(Expr& e) {
    const std::uint32_t slot = slots_++;
    e.slot = slot;
    if (e.comp == CompKind::Bind) {
      const Type* init = visit(e.args[0]);
      scopes_.push_back({e.text, init, slot});
      const Type* body = visit(e.args[1]);
      scopes_.pop_back();
      return substitute(mappings_, store_, body, false);
    }
    const Type* range = substitute(mappings_, store_, visit(e.args[0]), false);
    const Type* var = TypeStore::error();
    switch (range->kind) {
      case TypeKind::List:
        var = range->first;
        break;
      case TypeKind::Map:
        var = range->first;
        break;
      case TypeKind::Dyn:
      case TypeKind::Error:
      case TypeKind::TypeParam:
        assignable(TypeStore::dyn(), range);
        var = TypeStore::dyn();
        break;
      default:
        error(node(e.args[0]).offset, "expression of type '" + format_cel(range) +
                                          "' cannot be range of a comprehension (must be list, "
                                          "map, or dynamic)");
        break;
    }
    scopes_.push_back({e.text, var, slot});
    const Type* pred = visit(e.args[1]);
    scopes_.pop_back();
    if (e.comp == CompKind::ExistsOne) {
      // The step is `pred ? accu + 1 : accu`.
      (void)resolve_operator(e, "_?_:_", {pred, TypeStore::integer(), TypeStore::integer()});
      return TypeStore::boolean();
    }
    // The step is `accu && pred` (all) or `accu || pred` (exists).
    if (!assignable(pred, TypeStore::boolean())) {
      error(node(e.args[1]).offset, "expected type 'bool' but found '" +
                                        format_cel(substitute(mappings_, store_, pred, true)) +
                                        "'");
    }
    return TypeStore::boolean();
  }

  // Overload resolution (checker.go resolveOverload): every overload whose parameters accept
  // the arguments contributes; differing result types make the result dyn.
  const Type* resolve(const Expr& e, std::string_view name, const FunctionSpec& spec,
                      std::vector<const Type*> args, bool member) {
    const Type* result = nullptr;
    for (const OverloadSpec& o : spec.overloads) {
      if (o.member != member || o.params.size() != args.size()) continue;
      Mapping instance;
      for (const Type* p : o.params) bind_params(instance, p);
      bind_params(instance, o.result);
      Mapping candidate = mappings_;
      bool ok = true;
      for (std::size_t i = 0; i < args.size() && ok; ++i) {
        ok = is_assignable(candidate, args[i], substitute(instance, store_, o.params[i], false));
      }
      if (!ok) continue;
      mappings_ = std::move(candidate);
      const Type* r =
          substitute(mappings_, store_, substitute(instance, store_, o.result, false), false);
      if (result == nullptr) {
        result = r;
      } else if (!is_dyn(result) && !exact(r, result)) {
        result = TypeStore::dyn();
      }
    }
    if (result != nullptr) return result;
    std::string signature;
    std::size_t first = 0;
    if (member) {
      signature = format_cel(substitute(mappings_, store_, args[0], true)) + ".";
      first = 1;
    }
    signature += "(";
    for (std::size_t i = first; i < args.size(); ++i) {
      if (i > first) signature += ", ";
      signature += format_cel(substitute(mappings_, store_, args[i], true));
    }
    signature += ")";
    error(e.offset, "found no matching overload for '" + std::string(name) + "' applied to '" +
                        signature + "'");
    return TypeStore::error();
  }

  // Gives each type parameter of an overload a fresh type variable.
  void bind_params(Mapping& instance, const Type* t) {
    switch (t->kind) {
      case TypeKind::TypeParam:
        if (instance.find(t) == nullptr) instance.add(t, fresh());
        break;
      case TypeKind::List:
        bind_params(instance, t->first);
        break;
      case TypeKind::Map:
        bind_params(instance, t->first);
        bind_params(instance, t->second);
        break;
      default:
        break;
    }
  }

  const Type* resolve_operator(Expr& e, std::string_view name, std::vector<const Type*> args) {
    static const FunctionSpec index = [] {
      static TypeStore store;
      const Type* a = store.param("A");
      const Type* b = store.param("B");
      return FunctionSpec{Fn::None,
                          {OverloadSpec{false, {store.list(a), TypeStore::integer()}, a},
                           OverloadSpec{false, {store.map(a, b), a}, b}}};
    }();
    static const FunctionSpec conditional = [] {
      static TypeStore store;
      const Type* a = store.param("A");
      return FunctionSpec{Fn::None, {OverloadSpec{false, {TypeStore::boolean(), a, a}, a}}};
    }();
    if (name == "_[_]") return resolve(e, name, index, std::move(args), false);
    if (name == "_?_:_") return resolve(e, name, conditional, std::move(args), false);
    const FunctionSpec& spec = functions().at(name);
    e.fn = spec.fn;
    return resolve(e, name, spec, std::move(args), false);
  }

  const Type* visit_call(Expr& e) {
    const std::string_view name = e.text;
    // A namespaced function `ns.f(...)` (checker.go checkCall tries qualified names first).
    if (e.member) {
      if (auto prefix = qualified_name(e.args[0])) {
        const std::string full = *prefix + "." + std::string(name);
        if (contains(kNamespacedUnsupported, full)) {
          for (std::size_t i = 1; i < e.args.size(); ++i) visit(e.args[i]);
          unsupported(e.offset, "function \"" + full + "\"");
          return TypeStore::dyn();
        }
      }
    }
    std::vector<const Type*> args;
    for (NodeId a : e.args) args.push_back(visit(a));
    const auto& table = functions();
    const auto it = table.find(name);
    if (it == table.end()) {
      if (contains(kDeclaredUnsupported, name)) {
        unsupported(e.offset, "function \"" + std::string(name) + "\"");
        return TypeStore::dyn();
      }
      error(e.offset, "undeclared reference to '" + std::string(name) + "' (in container '')");
      return TypeStore::error();
    }
    e.fn = it->second.fn;
    const Type* result = resolve(e, name, it->second, std::move(args), e.member);
    if (e.fn == Fn::Matches && result->kind != TypeKind::Error) check_pattern(e);
    return result;
  }

  // cel/validator.go ValidateRegexLiterals checks the first non-receiver argument; the matches
  // optimizer (interpreter/optimizations.go) compiles argument 1 of the call, the pattern.
  void check_pattern(Expr& e) {
    const std::size_t validated = e.member ? 1 : 0;
    const Expr& checked = node(e.args[validated]);
    if (!e.member && checked.kind == ExprKind::String) {
      Regex scratch;
      std::string message;
      const Regex::Status status = Regex::compile(checked.text, scratch, message);
      if (status == Regex::Status::Invalid) {
        out_.validation_errors.push_back({checked.offset, "invalid matches argument"});
      } else if (status == Regex::Status::Unsupported) {
        unsupported(checked.offset, message);
        return;
      }
    }
    const Expr& pattern = node(e.args[1]);
    if (pattern.kind != ExprKind::String) {
      unsupported(pattern.offset, "matches() with a pattern that is not a string literal");
      return;
    }
    Regex regex;
    std::string message;
    switch (Regex::compile(pattern.text, regex, message)) {
      case Regex::Status::Ok:
        e.regex = static_cast<std::uint32_t>(out_.regexes.size());
        out_.regexes.push_back(std::move(regex));
        return;
      case Regex::Status::Unsupported:
        unsupported(pattern.offset, message);
        return;
      case Regex::Status::Invalid:
        if (e.member) {
          out_.validation_errors.push_back({pattern.offset, "invalid matches argument"});
        } else {
          // Not validated (the validator looked at argument 0): Program() fails instead.
          if (!out_.program_error) out_.program_error = "program instantiation failed: " + message;
        }
        return;
    }
  }

  // cel/validator.go homogeneousAggregateLiteralValidator: list elements of one type.
  void validate_lists() {
    for (const Expr* list : lists_) {
      const Type* first = nullptr;
      for (NodeId a : list->args) {
        const Type* t = substitute(mappings_, store_, types_[a], true);
        if (first == nullptr) {
          first = t;
        } else if (!exact(first, t)) {
          out_.validation_errors.push_back(
              {node(a).offset,
               "expected type '" + format_cel(first) + "' but found '" + format_cel(t) + "'"});
          break;
        }
      }
    }
  }

  Ast& ast_;
  const Features& features_;
  TypeStore& store_;
  CheckResult& out_;
  Mapping mappings_;
  std::vector<Variable> scopes_;
  std::vector<const Type*> types_;
  std::vector<const Expr*> lists_;
  std::uint32_t slots_ = 0;
  int type_vars_ = 0;
};

}  // namespace

CheckResult check(Ast& ast, const Features& features, TypeStore& store) {
  CheckResult out;
  Checker(ast, features, store, out).run();
  return out;
}

}  // namespace gpusched::dra::cel::detail
