// Recursive descent over CEL.g4 (cel-go v0.26.0), building the tree cel-go's parser.go visitor
// builds: operators as calls named like cel-go's (`_==_`, `!_`, `@in`), macros expanded
// (parser/macro.go, ext/bindings.go), nodes located where cel-go locates them (an operator, the
// '(' of a call). The first syntax error ends the parse; cel-go recovers and may report more.
#include "dra/cel_parser.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dra/cel_lexer.hpp"
#include "model/utf8.hpp"

namespace gpusched::dra::cel::detail {
namespace {

// parser.go's reservedIds: legal as field names, not as identifiers or function names.
constexpr std::array<std::string_view, 17> kReserved = {
    "as",  "break", "const",   "continue",  "else",   "for", "function", "if",   "import",
    "let", "loop",  "package", "namespace", "return", "var", "void",     "while"};

// Macros of the Kubernetes CEL environment that gpusched does not evaluate, with the argument
// counts cel-go registers them for (parser/macro.go, ext/comprehensions.go, ext/lists.go,
// cel/library.go's optional macros).
bool unsupported_macro(std::string_view name, std::size_t args) {
  if (name == "map") return args == 2 || args == 3;
  if (name == "filter" || name == "sortBy" || name == "optMap" || name == "optFlatMap") {
    return args == 2;
  }
  if (name == "all" || name == "exists" || name == "exists_one" || name == "existsOne") {
    return args == 3;
  }
  if (name == "transformList" || name == "transformMap" || name == "transformMapEntry") {
    return args == 3 || args == 4;
  }
  return false;
}

class Parser {
 public:
  Parser(std::string_view source, ParseResult& out) : src_(source), out_(out) {}

  void run() {
    std::size_t code_points = 0;
    for (std::size_t i = 0; i < src_.size(); i += decode_utf8(src_, i).length) ++code_points;
    if (code_points > kMaxCodePoints) {
      out_.errors.push_back({std::nullopt, "expression code point size exceeds limit: size: " +
                                               std::to_string(code_points) + ", limit " +
                                               std::to_string(kMaxCodePoints)});
      return;
    }
    LexResult lexed = lex(src_);
    if (lexed.error) {
      out_.errors.push_back(std::move(*lexed.error));
      return;
    }
    tokens_ = std::move(lexed.tokens);
    const NodeId root = parse_expr();
    if (!failed_ && cur().kind != Tok::End) {
      syntax_error(cur(), "extraneous input " + describe(cur()) + " expecting <EOF>");
    }
    out_.ast.root = root;
  }

 private:
  // ---- tokens ----
  const Token& cur() const { return tokens_[pos_]; }
  const Token& peek(std::size_t ahead) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& advance() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool accept(Tok kind) {
    if (cur().kind != kind) return false;
    advance();
    return true;
  }
  bool expect(Tok kind, std::string_view what) {
    if (failed_) return false;
    if (accept(kind)) return true;
    syntax_error(cur(), "mismatched input " + describe(cur()) + " expecting " + std::string(what));
    return false;
  }

  // ---- errors ----
  void syntax_error(const Token& at, std::string message) {
    if (failed_) return;
    failed_ = true;
    out_.errors.push_back({at.offset, "Syntax error: " + message});
  }
  void report(std::size_t offset, std::string message) {
    out_.errors.push_back({offset, std::move(message)});
  }
  void internal_error(std::string message) {
    if (failed_) return;
    failed_ = true;
    out_.errors.push_back({std::nullopt, std::move(message)});
  }

  // ---- nodes ----
  NodeId add(Expr e) {
    int depth = 1;
    for (NodeId a : e.args) {
      if (a != kNoNode) depth = std::max(depth, depths_[a] + 1);
    }
    if (depth > kMaxRecursionDepth) {
      internal_error("expression recursion limit exceeded: " + std::to_string(kMaxRecursionDepth));
    }
    out_.ast.nodes.push_back(std::move(e));
    depths_.push_back(depth);
    return static_cast<NodeId>(out_.ast.nodes.size() - 1);
  }
  NodeId node(ExprKind kind, std::size_t offset, std::vector<NodeId> args = {}) {
    Expr e;
    e.kind = kind;
    e.offset = static_cast<std::uint32_t>(offset);
    e.args = std::move(args);
    return add(std::move(e));
  }
  NodeId error_node(std::size_t offset) { return node(ExprKind::Error, offset); }
  NodeId call(std::string_view function, std::size_t offset, std::vector<NodeId> args,
              bool member = false) {
    Expr e;
    e.kind = ExprKind::Call;
    e.offset = static_cast<std::uint32_t>(offset);
    e.text = out_.ast.keep(std::string(function));
    e.args = std::move(args);
    e.member = member;
    return add(std::move(e));
  }
  NodeId unsupported(std::size_t offset, std::string message, std::vector<NodeId> args = {}) {
    out_.unsupported.push_back({offset, message});
    Expr e;
    e.kind = ExprKind::Unsupported;
    e.offset = static_cast<std::uint32_t>(offset);
    e.text = out_.ast.keep(std::move(message));
    e.args = std::move(args);
    return add(std::move(e));
  }
  const Expr& at(NodeId id) const { return out_.ast.nodes[id]; }

  // ---- grammar ----
  // expr: conditionalOr ('?' conditionalOr ':' expr)?
  NodeId parse_expr() {
    if (failed_) return error_node(cur().offset);
    if (++depth_ > kMaxRecursionDepth) {
      internal_error("expression recursion limit exceeded: " + std::to_string(kMaxRecursionDepth));
      --depth_;
      return error_node(cur().offset);
    }
    NodeId e = parse_or();
    if (!failed_ && cur().kind == Tok::Question) {
      const std::size_t offset = advance().offset;
      const NodeId truthy = parse_or();
      expect(Tok::Colon, "':'");
      const NodeId falsy = parse_expr();
      e = node(ExprKind::Conditional, offset, {e, truthy, falsy});
    }
    --depth_;
    return e;
  }

  // conditionalOr / conditionalAnd: flattened into one n-ary node, located at the first operator.
  NodeId parse_or() {
    NodeId first = parse_and();
    if (failed_ || cur().kind != Tok::Or) return first;
    const std::size_t offset = cur().offset;
    std::vector<NodeId> terms{first};
    while (!failed_ && accept(Tok::Or)) terms.push_back(parse_and());
    return node(ExprKind::Or, offset, std::move(terms));
  }

  NodeId parse_and() {
    NodeId first = parse_relation();
    if (failed_ || cur().kind != Tok::And) return first;
    const std::size_t offset = cur().offset;
    std::vector<NodeId> terms{first};
    while (!failed_ && accept(Tok::And)) terms.push_back(parse_relation());
    return node(ExprKind::And, offset, std::move(terms));
  }

  NodeId parse_relation() {
    NodeId lhs = parse_add();
    while (!failed_) {
      std::string_view fn;
      switch (cur().kind) {
        case Tok::Lt:
          fn = "_<_";
          break;
        case Tok::Le:
          fn = "_<=_";
          break;
        case Tok::Gt:
          fn = "_>_";
          break;
        case Tok::Ge:
          fn = "_>=_";
          break;
        case Tok::Eq:
          fn = "_==_";
          break;
        case Tok::Ne:
          fn = "_!=_";
          break;
        case Tok::In:
          fn = "@in";
          break;
        default:
          return lhs;
      }
      const std::size_t offset = advance().offset;
      const NodeId rhs = parse_add();
      lhs = call(fn, offset, {lhs, rhs});
    }
    return lhs;
  }

  NodeId parse_add() {
    NodeId lhs = parse_mul();
    while (!failed_ && (cur().kind == Tok::Plus || cur().kind == Tok::Minus)) {
      const std::string_view fn = cur().kind == Tok::Plus ? "_+_" : "_-_";
      const std::size_t offset = advance().offset;
      const NodeId rhs = parse_mul();
      lhs = call(fn, offset, {lhs, rhs});
    }
    return lhs;
  }

  NodeId parse_mul() {
    NodeId lhs = parse_unary();
    while (!failed_ &&
           (cur().kind == Tok::Star || cur().kind == Tok::Slash || cur().kind == Tok::Percent)) {
      const std::string_view fn = cur().kind == Tok::Star    ? "_*_"
                                  : cur().kind == Tok::Slash ? "_/_"
                                                             : "_%_";
      const std::size_t offset = advance().offset;
      const NodeId rhs = parse_unary();
      lhs = call(fn, offset, {lhs, rhs});
    }
    return lhs;
  }

  // unary: member | '!'+ member | '-'+ member. An even number of operators cancels out, as
  // parser.go's visitLogicalNot and visitNegate do; a single '-' before a number literal is the
  // literal's sign (CEL.g4's `literal: sign=MINUS? NUM_INT`).
  NodeId parse_unary() {
    if (failed_) return error_node(cur().offset);
    if (cur().kind == Tok::Not || cur().kind == Tok::Minus) {
      const Tok op = cur().kind;
      const std::size_t offset = cur().offset;
      std::size_t count = 0;
      while (cur().kind == op) {
        advance();
        ++count;
      }
      const bool number =
          cur().kind == Tok::Int || cur().kind == Tok::Uint || cur().kind == Tok::Double;
      if (op == Tok::Minus && number && count == 1) return parse_member(offset);
      const NodeId operand = parse_member(std::nullopt);
      if (count % 2 == 0) return operand;
      return call(op == Tok::Not ? "!_" : "-_", offset, {operand});
    }
    return parse_member(std::nullopt);
  }

  static bool is_qualified_name(const Ast& ast, NodeId id) {
    const Expr& e = ast.nodes[id];
    if (e.kind == ExprKind::Ident) return true;
    return e.kind == ExprKind::Select && !e.test_only && is_qualified_name(ast, e.args[0]);
  }

  // member: primary ('.' IDENT | '.' IDENT '(' args ')' | '[' expr ']')*
  NodeId parse_member(std::optional<std::size_t> sign) {
    NodeId e = parse_primary(sign);
    while (!failed_) {
      if (cur().kind == Tok::Dot) {
        const std::size_t dot = advance().offset;
        if (cur().kind == Tok::Question) {
          advance();
          if (cur().kind == Tok::Ident || cur().kind == Tok::EscapedIdent) advance();
          e = unsupported(dot, "optional field selection \".?\"", {e});
          continue;
        }
        if (cur().kind == Tok::EscapedIdent) {
          const std::string text = advance().text;
          e = unsupported(dot, "escaped field name " + text, {e});
          continue;
        }
        if (cur().kind != Tok::Ident) {
          syntax_error(cur(), "mismatched input " + describe(cur()) + " expecting IDENTIFIER");
          return e;
        }
        const Token& name = advance();
        if (cur().kind == Tok::LParen) {
          const std::size_t open = advance().offset;
          std::vector<NodeId> args = parse_args();
          e = member_call(name.text, name.offset, e, std::move(args), open);
        } else {
          Expr sel;
          sel.kind = ExprKind::Select;
          sel.offset = static_cast<std::uint32_t>(dot);
          sel.text = out_.ast.keep(name.text);
          sel.args = {e};
          e = add(std::move(sel));
        }
      } else if (cur().kind == Tok::LBracket) {
        const std::size_t open = advance().offset;
        const bool optional = accept(Tok::Question);
        const NodeId index = parse_expr();
        expect(Tok::RBracket, "']'");
        e = optional ? unsupported(open, "optional index \"[?\"", {e, index})
                     : node(ExprKind::Index, open, {e, index});
      } else if (cur().kind == Tok::LBrace && is_qualified_name(out_.ast, e)) {
        const std::size_t open = cur().offset;
        parse_braces(/*map_literal=*/false);
        e = unsupported(open, "message construction");
      } else {
        break;
      }
    }
    return e;
  }

  // exprList: expr (',' expr)*, after '(' up to and including ')'.
  std::vector<NodeId> parse_args() {
    std::vector<NodeId> args;
    if (accept(Tok::RParen)) return args;
    while (!failed_) {
      args.push_back(parse_expr());
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RParen, "')'");
    return args;
  }

  // A map literal or a message's fields, from '{' through '}': parsed for syntax only.
  void parse_braces(bool map_literal) {
    advance();  // '{'
    while (!failed_ && cur().kind != Tok::RBrace) {
      accept(Tok::Question);
      if (map_literal) {
        parse_expr();
      } else if (cur().kind == Tok::Ident || cur().kind == Tok::EscapedIdent) {
        advance();
      } else {
        syntax_error(cur(), "mismatched input " + describe(cur()) + " expecting IDENTIFIER");
        return;
      }
      expect(Tok::Colon, "':'");
      parse_expr();
      if (!accept(Tok::Comma)) break;
    }
    expect(Tok::RBrace, "'}'");
  }

  NodeId int_literal(const Token& token, std::optional<std::size_t> sign) {
    // parser.go visitInt: strconv.ParseInt of the sign and digits, base 16 after "0x".
    std::string_view digits = token.text;
    int base = 10;
    if (digits.size() > 2 && digits[0] == '0' && digits[1] == 'x') {
      base = 16;
      digits.remove_prefix(2);
    }
    std::uint64_t magnitude = 0;
    bool overflow = false;
    for (char c : digits) {
      const std::uint64_t d = c <= '9'   ? static_cast<std::uint64_t>(c - '0')
                              : c <= 'F' ? static_cast<std::uint64_t>(c - 'A' + 10)
                                         : static_cast<std::uint64_t>(c - 'a' + 10);
      if (magnitude >
          (std::numeric_limits<std::uint64_t>::max() - d) / static_cast<std::uint64_t>(base)) {
        overflow = true;
        break;
      }
      magnitude = magnitude * static_cast<std::uint64_t>(base) + d;
    }
    const std::uint64_t limit =
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (sign ? 1u : 0u);
    const std::size_t offset = sign ? *sign : token.offset;
    if (overflow || magnitude > limit) {
      report(offset, "invalid int literal");
      return error_node(offset);
    }
    Expr e;
    e.kind = ExprKind::Int;
    e.offset = static_cast<std::uint32_t>(offset);
    e.int_value =
        sign ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
    return add(std::move(e));
  }

  NodeId parse_primary(std::optional<std::size_t> sign) {
    if (failed_) return error_node(cur().offset);
    const Token& t = cur();
    switch (t.kind) {
      case Tok::Dot: {
        const std::size_t offset = advance().offset;
        if (cur().kind != Tok::Ident) {
          syntax_error(cur(), "mismatched input " + describe(cur()) + " expecting IDENTIFIER");
          return error_node(offset);
        }
        const std::string name = advance().text;
        if (cur().kind == Tok::LParen) {
          advance();
          parse_args();
        }
        return unsupported(offset, "leading-dot name \"." + name + "\"");
      }
      case Tok::Ident: {
        const Token& name = advance();
        if (std::find(kReserved.begin(), kReserved.end(), name.text) != kReserved.end()) {
          report(name.offset, "reserved identifier: " + name.text);
        }
        if (cur().kind == Tok::LParen) {
          const std::size_t open = advance().offset;
          std::vector<NodeId> args = parse_args();
          return global_call(name.text, std::move(args), open);
        }
        Expr e;
        e.kind = ExprKind::Ident;
        e.offset = name.offset;
        e.text = out_.ast.keep(name.text);
        return add(std::move(e));
      }
      case Tok::LParen: {
        advance();
        const NodeId e = parse_expr();
        expect(Tok::RParen, "')'");
        return e;
      }
      case Tok::LBracket: {
        const std::size_t offset = advance().offset;
        std::vector<NodeId> elems;
        bool optional = false;
        while (!failed_ && cur().kind != Tok::RBracket) {
          optional = accept(Tok::Question) || optional;
          elems.push_back(parse_expr());
          if (!accept(Tok::Comma)) break;
        }
        expect(Tok::RBracket, "']'");
        if (optional) return unsupported(offset, "optional list element \"?\"", std::move(elems));
        return node(ExprKind::List, offset, std::move(elems));
      }
      case Tok::LBrace: {
        const std::size_t offset = t.offset;
        parse_braces(/*map_literal=*/true);
        return unsupported(offset, "map literal");
      }
      case Tok::Int:
        return int_literal(advance(), sign);
      case Tok::Uint: {
        const Token& lit = advance();
        return unsupported(lit.offset, "unsigned integer literal \"" + lit.text + "\"");
      }
      case Tok::Double: {
        const Token& lit = advance();
        return unsupported(sign ? *sign : lit.offset,
                           "double literal \"" + std::string(sign ? "-" : "") + lit.text + "\"");
      }
      case Tok::Bytes: {
        const Token& lit = advance();
        return unsupported(lit.offset, "bytes literal");
      }
      case Tok::String: {
        const Token& lit = advance();
        Expr e;
        e.kind = ExprKind::String;
        e.offset = lit.offset;
        e.text = out_.ast.keep(lit.text);
        return add(std::move(e));
      }
      case Tok::True:
      case Tok::False: {
        Expr e;
        e.kind = ExprKind::Bool;
        e.offset = advance().offset;
        e.bool_value = t.kind == Tok::True;
        return add(std::move(e));
      }
      case Tok::Null:
        return node(ExprKind::Null, advance().offset);
      default:
        syntax_error(t, "mismatched input " + describe(t) + " expecting an expression");
        return error_node(t.offset);
    }
  }

  // parser/macro.go MakeHas; other global names are plain calls.
  NodeId global_call(const std::string& name, std::vector<NodeId> args, std::size_t open) {
    if (name == "has" && args.size() == 1) {
      const Expr& arg = at(args[0]);
      if (arg.kind != ExprKind::Select || arg.test_only) {
        report(arg.offset, "invalid argument to has() macro");
        return error_node(open);
      }
      Expr e;
      e.kind = ExprKind::Select;
      e.offset = static_cast<std::uint32_t>(open);
      e.text = arg.text;
      e.args = arg.args;
      e.test_only = true;
      return add(std::move(e));
    }
    return call(name, open, std::move(args));
  }

  // parser/macro.go makeQuantifier: the iteration variable must be a simple name.
  std::optional<std::string_view> iteration_variable(NodeId arg) {
    const Expr& e = at(arg);
    if (e.kind != ExprKind::Ident) {
      report(e.offset, "argument must be a simple name");
      return std::nullopt;
    }
    if (e.text == "__result__") {
      report(e.offset, "iteration variable overwrites accumulator variable");
      return std::nullopt;
    }
    return e.text;
  }

  NodeId member_call(const std::string& name, std::size_t name_offset, NodeId target,
                     std::vector<NodeId> args, std::size_t open) {
    if (args.size() == 2 &&
        (name == "all" || name == "exists" || name == "exists_one" || name == "existsOne")) {
      const auto var = iteration_variable(args[0]);
      if (!var) return error_node(open);
      Expr e;
      e.kind = ExprKind::Comprehension;
      e.offset = static_cast<std::uint32_t>(open);
      e.comp = name == "all"      ? CompKind::All
               : name == "exists" ? CompKind::Exists
                                  : CompKind::ExistsOne;
      e.text = *var;
      e.args = {target, args[1]};
      return add(std::move(e));
    }
    if (name == "bind" && args.size() == 3 && at(target).kind == ExprKind::Ident &&
        at(target).text == "cel") {
      // ext/bindings.go celBind.
      const Expr& var = at(args[0]);
      if (var.kind != ExprKind::Ident) {
        report(var.offset, "cel.bind() variable names must be simple identifiers");
        return error_node(open);
      }
      Expr e;
      e.kind = ExprKind::Comprehension;
      e.offset = static_cast<std::uint32_t>(open);
      e.comp = CompKind::Bind;
      e.text = var.text;
      e.args = {args[1], args[2]};
      return add(std::move(e));
    }
    if (unsupported_macro(name, args.size())) {
      args.insert(args.begin(), target);
      return unsupported(name_offset, "macro \"" + name + "\"", std::move(args));
    }
    args.insert(args.begin(), target);
    return call(name, open, std::move(args), /*member=*/true);
  }

  std::string_view src_;
  ParseResult& out_;
  std::vector<Token> tokens_;
  std::vector<int> depths_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;
};

}  // namespace

ParseResult parse(std::string_view source) {
  ParseResult out;
  Parser(source, out).run();
  return out;
}

}  // namespace gpusched::dra::cel::detail
