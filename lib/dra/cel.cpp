// compiler.CompileCELExpression and CompilationResult.DeviceMatches
// (k8s.io/dynamic-resource-allocation/cel/compile.go at v0.36.2) over gpusched's own parser,
// checker and evaluator of the CEL subset device selectors use.
#include "dra/cel.hpp"

#include <algorithm>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dra/cel_check.hpp"
#include "dra/cel_parser.hpp"
#include "dra/cel_program.hpp"
#include "dra/cel_source.hpp"
#include "dra/cel_types.hpp"

namespace gpusched::dra::cel {
namespace {

constexpr std::string_view kUnsupported = "unsupported CEL: ";
constexpr std::string_view kCompilationFailed = "compilation failed: ";

CompileResult failure(std::string error, bool unsupported) {
  CompileResult r;
  r.error = std::move(error);
  r.unsupported = unsupported;
  return r;
}

bool is_literal(const detail::Expr& e) {
  return e.constant >= 0 || e.kind == detail::ExprKind::Null || e.kind == detail::ExprKind::Bool ||
         e.kind == detail::ExprKind::Int || e.kind == detail::ExprKind::String;
}

// Folds what depends on no variable: lists of literals (as cel-go's maybeBuildListLiteral) and
// the quantity/semver constructors and predicates over literals, so that `quantity("1Gi")` is
// parsed once rather than per device. A literal that does not parse folds to its error, which
// evaluation then returns exactly as the call would.
void fold(Program& program, detail::NodeId id) {
  using detail::ExprKind;
  using detail::Fn;
  for (detail::NodeId a : program.ast.nodes[id].args) fold(program, a);
  const detail::Expr& e = program.ast.nodes[id];
  bool foldable = false;
  if (e.kind == ExprKind::List) {
    foldable = true;
  } else if (e.kind == ExprKind::Call) {
    foldable = e.fn == Fn::Quantity || e.fn == Fn::IsQuantity || e.fn == Fn::Semver ||
               e.fn == Fn::IsSemver;
  }
  if (!foldable) return;
  for (detail::NodeId a : e.args) {
    if (!is_literal(program.ast.nodes[a])) return;
  }
  const detail::Value v = detail::fold_constant(program, id);
  program.ast.nodes[id].constant = static_cast<std::int32_t>(program.constants.size());
  program.constants.push_back(v);
}

CompileResult compile_unchecked(std::string_view expression, const Features& features) {
  detail::ParseResult parsed = detail::parse(expression);
  if (!parsed.errors.empty()) {
    return failure(std::string(kCompilationFailed) +
                       detail::display_errors(expression, std::move(parsed.errors)),
                   false);
  }
  detail::TypeStore store;
  detail::CheckResult checked = detail::check(parsed.ast, features, store);

  // Outside the subset: refused before the checker's verdict, which cannot be trusted past an
  // unknown construct. The first construct in the text is named.
  std::vector<detail::UnsupportedNote> notes = std::move(parsed.unsupported);
  notes.insert(notes.end(), checked.unsupported.begin(), checked.unsupported.end());
  if (!notes.empty()) {
    const auto first =
        std::min_element(notes.begin(), notes.end(),
                         [](const auto& a, const auto& b) { return a.offset < b.offset; });
    return failure(std::string(kUnsupported) + first->message, true);
  }
  if (!checked.errors.empty()) {
    return failure(std::string(kCompilationFailed) +
                       detail::display_errors(expression, std::move(checked.errors)),
                   false);
  }
  if (!checked.validation_errors.empty()) {
    return failure(std::string(kCompilationFailed) +
                       detail::display_errors(expression, std::move(checked.validation_errors)),
                   false);
  }
  // compile.go: the result must be bool or the unknown type (AnyType; DynType only with list
  // attributes, a feature gpusched does not model).
  const detail::TypeKind out = checked.output->kind;
  if (out != detail::TypeKind::Bool && out != detail::TypeKind::Any) {
    return failure(
        "must evaluate to bool or the unknown type, not " + detail::type_string(checked.output),
        false);
  }
  if (checked.program_error) return failure(*checked.program_error, false);

  auto program = std::make_shared<Program>();
  program->ast = std::move(parsed.ast);
  program->slot_count = checked.slot_count;
  program->regexes = std::move(checked.regexes);
  fold(*program, program->ast.root);
  CompileResult result;
  result.program = std::move(program);
  return result;
}

}  // namespace

EvalResult CompileResult::matches(const DeviceView& device) const {
  try {
    return detail::evaluate(*program, device);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    return {false, std::string("internal error: ") + e.what()};
  }
}

CompileResult compile(std::string_view expression, const Features& features) {
  try {
    return compile_unchecked(expression, features);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    return failure(std::string(kUnsupported) + "internal error: " + e.what(), true);
  }
}

const CompileResult& Cache::get_or_compile(std::string_view expression) {
  if (auto it = entries_.find(expression); it != entries_.end()) return it->second;
  return entries_.emplace(std::string(expression), compile(expression, features_)).first->second;
}

}  // namespace gpusched::dra::cel
