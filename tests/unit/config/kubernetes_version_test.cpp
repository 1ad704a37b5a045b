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
  bool dra_post_filter;
};

TEST_CASE("KubernetesVersion::parse and version-dependent behaviour", "[version]") {
  const std::vector<VersionRow> rows = {
      {"1.33", 33, -1, "1.33", false, false},
      {"v1.33.5", 33, 5, "1.33.5", false, false},
      {"1.34", 34, -1, "1.34", false, true},
      {"1.34.0", 34, 0, "1.34.0", false, true},
      {"1.34.1", 34, 1, "1.34.1", false, true},
      // First 1.34 patch with PR #135023 (CHANGELOG-1.34.md, v1.34.2).
      {"v1.34.2", 34, 2, "1.34.2", true, true},
      {"1.34.7", 34, 7, "1.34.7", true, true},
      {"1.35", 35, -1, "1.35", true, true},
      {"v1.35.0", 35, 0, "1.35.0", true, true},
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
      CHECK(v->dynamic_resources_post_filter() == row.dra_post_filter);
      CHECK(v->fit_unresolvable_when_over_allocatable() == row.dra_post_filter);
    }
  }
}

struct ErrorRow {
  std::string text;
  std::string why;
};

TEST_CASE("KubernetesVersion::parse lists the supported versions on error", "[version]") {
  const std::vector<ErrorRow> rows = {
      {"1.32", "minor release not supported"},    {"1.36.1", "minor release not supported"},
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
                         "; supported versions are 1.33, 1.34, 1.35 (optionally with a patch, "
                         "e.g. \"1.34.2\")");
    }
  }
}

TEST_CASE("KubernetesVersion defaults to 1.33 as a whole", "[version]") {
  const KubernetesVersion v;
  CHECK(v.to_string() == "1.33");
  CHECK_FALSE(v.aggregated_taint_reason());
}

}  // namespace
}  // namespace gpusched
