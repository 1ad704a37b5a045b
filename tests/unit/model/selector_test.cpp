#include "gpusched/model/selector.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gpusched {
namespace {

struct SelectorRow {
  std::string name;
  LabelSelector selector;
  Labels labels;
  bool matches;
};

TEST_CASE("LabelSelector::matches follows metav1 semantics", "[model][selector]") {
  using Op = SelectorOperator;
  const Labels app_web{{"app", "web"}, {"tier", "front"}};
  const std::vector<SelectorRow> rows = {
      {"empty selector matches everything", {}, app_web, true},
      {"empty selector matches no labels", {}, {}, true},
      {"matchLabels equal", {{{"app", "web"}}, {}}, app_web, true},
      {"matchLabels different value", {{{"app", "db"}}, {}}, app_web, false},
      {"matchLabels missing key", {{{"zone", "a"}}, {}}, app_web, false},
      {"matchLabels all must hold", {{{"app", "web"}, {"tier", "back"}}, {}}, app_web, false},
      {"In hit", {{}, {{"app", Op::In, {"db", "web"}}}}, app_web, true},
      {"In miss", {{}, {{"app", Op::In, {"db"}}}}, app_web, false},
      {"In absent label", {{}, {{"zone", Op::In, {"a"}}}}, app_web, false},
      {"NotIn other value", {{}, {{"app", Op::NotIn, {"db"}}}}, app_web, true},
      {"NotIn listed value", {{}, {{"app", Op::NotIn, {"web"}}}}, app_web, false},
      {"NotIn absent label matches", {{}, {{"zone", Op::NotIn, {"a"}}}}, app_web, true},
      {"Exists present", {{}, {{"app", Op::Exists, {}}}}, app_web, true},
      {"Exists absent", {{}, {{"zone", Op::Exists, {}}}}, app_web, false},
      {"DoesNotExist absent", {{}, {{"zone", Op::DoesNotExist, {}}}}, app_web, true},
      {"DoesNotExist present", {{}, {{"app", Op::DoesNotExist, {}}}}, app_web, false},
      {"labels and expressions ANDed",
       {{{"app", "web"}}, {{"tier", Op::In, {"back"}}}},
       app_web,
       false},
      {"In without values is invalid: selects nothing",
       {{}, {{"app", Op::In, {}}}},
       app_web,
       false},
      {"NotIn without values is invalid", {{}, {{"zone", Op::NotIn, {}}}}, app_web, false},
      {"Gt is not a label selector operator", {{}, {{"app", Op::Gt, {"1"}}}}, app_web, false},
  };
  for (const SelectorRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(row.selector.matches(row.labels) == row.matches);
    }
  }
}

TEST_CASE("LabelSelector::empty", "[model][selector]") {
  CHECK(LabelSelector{}.empty());
  CHECK_FALSE(LabelSelector{{{"a", "b"}}, {}}.empty());
  CHECK_FALSE(LabelSelector{{}, {{"a", SelectorOperator::Exists, {}}}}.empty());
}

}  // namespace
}  // namespace gpusched
