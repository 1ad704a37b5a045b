#pragma once
// The syntax tree of one selector expression: what the parser builds (macros already expanded,
// as cel-go's parser expands them) and the checker annotates for evaluation.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::dra::cel::detail {

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = 0xFFFFFFFFu;

enum class ExprKind : std::uint8_t {
  Null,
  Bool,
  Int,
  String,
  Ident,
  Select,         ///< args[0].text; test_only for has()
  Index,          ///< args[0][args[1]]
  Call,           ///< text(args...); member: args[0] is the receiver
  List,           ///< [args...]
  And,            ///< args[0] && args[1] && ... (cel-go balances these; the result is the same)
  Or,             ///< args[0] || args[1] || ...
  Conditional,    ///< args[0] ? args[1] : args[2]
  Comprehension,  ///< exists/all/exists_one: args = {range, predicate}; bind: {init, body}
  Unsupported,    ///< a construct outside the subset; text is the message
  Error,          ///< a node that failed to parse (its error is already reported)
};

enum class CompKind : std::uint8_t { All, Exists, ExistsOne, Bind };

/// The implementation the checker resolved a call to.
enum class Fn : std::uint8_t {
  None,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  In,
  Not,
  Neg,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Size,
  Contains,
  StartsWith,
  EndsWith,
  Matches,
  LowerAscii,
  UpperAscii,
  Split,
  Quantity,
  IsQuantity,
  Sign,
  IsGreaterThan,
  IsLessThan,
  CompareTo,
  AsInteger,
  IsInteger,
  Semver,
  IsSemver,
  Major,
  Minor,
  Patch,
};

/// What an identifier names once checked.
enum class IdentRef : std::uint8_t { Device, Local };

/// A field of the `device` variable, resolved when the operand's static type is the device.
enum class DeviceField : std::uint8_t {
  None,
  Driver,
  Attributes,
  Capacity,
  AllowMultipleAllocations,
};

struct Expr {
  ExprKind kind = ExprKind::Error;
  std::uint32_t offset = 0;  ///< the byte cel-go locates this node at (an operator, a '(')
  bool bool_value = false;
  std::int64_t int_value = 0;
  std::string_view text;  ///< literal, identifier, field, function, variable or message
  std::vector<NodeId> args;
  bool test_only = false;  ///< Select: has()
  bool member = false;     ///< Call: receiver style
  CompKind comp = CompKind::All;

  // Checker annotations.
  Fn fn = Fn::None;
  IdentRef ref = IdentRef::Device;
  DeviceField field = DeviceField::None;
  std::uint32_t slot = 0;      ///< Ident (Local), Comprehension: the variable's slot
  std::uint32_t regex = 0;     ///< Matches: index into Program::regexes
  std::int32_t constant = -1;  ///< >= 0: the node folds to Program::constants[constant]
};

struct Ast {
  std::deque<std::string> strings;  ///< storage for Expr::text (stable addresses)
  std::vector<Expr> nodes;
  NodeId root = kNoNode;

  std::string_view keep(std::string text) { return strings.emplace_back(std::move(text)); }
};

}  // namespace gpusched::dra::cel::detail
