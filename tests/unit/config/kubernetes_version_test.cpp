#include "gpusched/config/kubernetes_version.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gpusched {
namespace {

struct VersionRow {
  std::string text;
  int minor;
  int patch;
  std::string canonical;
  bool aggregated_taint_reason;
  bool fit_unresolvable;
  bool clears_nomination_without_post_filter;
  bool failure_keeps_nomination_with_expectation;
  bool balanced_allocation_scores_change;
};

TEST_CASE("KubernetesVersion::parse and version-dependent behaviour", "[version]") {
  const std::vector<VersionRow> rows = {
      {"1.33", 33, -1, "1.33", false, false, false, false, false},
      {"v1.33.5", 33, 5, "1.33.5", false, false, false, false, false},
      {"1.34", 34, -1, "1.34", false, true, false, true, false},
      {"1.34.0", 34, 0, "1.34.0", false, true, false, true, false},
      {"1.34.1", 34, 1, "1.34.1", false, true, false, true, false},
      // First 1.34 patch with PR #135023 (CHANGELOG-1.34.md, v1.34.2).
      {"v1.34.2", 34, 2, "1.34.2", true, true, false, true, false},
      {"1.34.7", 34, 7, "1.34.7", true, true, false, true, false},
      {"1.35", 35, -1, "1.35", true, true, true, false, false},
      {"v1.35.0", 35, 0, "1.35.0", true, true, true, false, false},
      {"1.36", 36, -1, "1.36", true, true, true, false, true},
      {"v1.36.2", 36, 2, "1.36.2", true, true, true, false, true},
  };
  for (const VersionRow& row : rows) {
    DYNAMIC_SECTION(row.text) {
      std::string error;
      const auto v = KubernetesVersion::parse(row.text, &error);
      INFO(error);
      REQUIRE(v.has_value());
      CHECK(v->minor == row.minor);
      CHECK(v->patch == row.patch);
      CHECK(v->to_string() == row.canonical);
      CHECK(v->aggregated_taint_reason() == row.aggregated_taint_reason);
      CHECK(v->fit_unresolvable_when_over_allocatable() == row.fit_unresolvable);
      CHECK(v->clears_nomination_without_post_filter() ==
            row.clears_nomination_without_post_filter);
      CHECK(v->failure_keeps_nomination_with_expectation() ==
            row.failure_keeps_nomination_with_expectation);
      CHECK(v->balanced_allocation_scores_change() == row.balanced_allocation_scores_change);
    }
  }
}

struct ErrorRow {
  std::string text;
  std::string why;
};

TEST_CASE("KubernetesVersion::parse lists the supported versions on error", "[version]") {
  const std::vector<ErrorRow> rows = {
      {"1.32", "minor release not supported"},    {"1.37.1", "minor release not supported"},
      {"2.34", "expected 1.<minor>[.<patch>]"},   {"", "expected 1.<minor>[.<patch>]"},
      {"1.", "expected 1.<minor>[.<patch>]"},     {"1.34.", "expected 1.<minor>[.<patch>]"},
      {"1.34.x", "expected 1.<minor>[.<patch>]"}, {"1.34.2.1", "expected 1.<minor>[.<patch>]"},
      {"1.-34", "expected 1.<minor>[.<patch>]"},  {"V1.34", "expected 1.<minor>[.<patch>]"},
      {"1.34 ", "expected 1.<minor>[.<patch>]"},
  };
  for (const ErrorRow& row : rows) {
    DYNAMIC_SECTION("'" << row.text << "'") {
      std::string error;
      CHECK_FALSE(KubernetesVersion::parse(row.text, &error).has_value());
      CHECK(error == "unsupported Kubernetes version \"" + row.text + "\": " + row.why +
                         "; supported versions are 1.33, 1.34, 1.35, 1.36 (optionally with a "
                         "patch, e.g. \"1.34.2\")");
    }
  }
}

// The default follows what managed clusters run (docs/kubernetes-versions.md): 1.36 in December
// 2026.
TEST_CASE("KubernetesVersion defaults to 1.36 as a whole", "[version]") {
  const KubernetesVersion v;
  CHECK(v.to_string() == "1.36");
  CHECK(v.balanced_allocation_scores_change());
}

}  // namespace
}  // namespace gpusched
