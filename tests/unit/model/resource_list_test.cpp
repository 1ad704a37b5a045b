#include "gpusched/model/resource_list.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gpusched {
namespace {

struct NameRow {
  std::string name;
  bool native;
  bool hugepages;
  bool extended;
  bool scalar;
  bool integer;
  bool overcommit;
};

TEST_CASE("resource name predicates mirror v1helper", "[model][resource]") {
  const std::vector<NameRow> rows = {
      // name                          native hugep  ext    scalar int    overcommit
      {"cpu", true, false, false, false, false, true},
      {"memory", true, false, false, false, false, true},
      {"ephemeral-storage", true, false, false, false, false, true},
      {"pods", true, false, false, false, true, true},
      {"hugepages-2Mi", true, true, false, true, false, false},
      {"nvidia.com/gpu", false, false, true, true, true, false},
      {"example.com/foo", false, false, true, true, true, false},
      {"kubernetes.io/foo", true, false, false, true, false, true},
      {"scheduling.k8s.io/foo", false, false, true, true, true, false},
      {"attachable-volumes-aws-ebs", true, false, false, true, false, true},
      {"gpu", true, false, false, false, false, true},
      {"requests.example.com/foo", false, false, false, false, false, false},
      {"Example.com/foo", false, false, false, false, false, false},
      {"example.com/foo/bar", false, false, false, false, false, false},
      {"example.com/-foo", false, false, false, false, false, false},
      {"/foo", false, false, false, false, false, false},
  };
  for (const NameRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(resource::is_native(row.name) == row.native);
      CHECK(resource::is_hugepages(row.name) == row.hugepages);
      CHECK(resource::is_extended(row.name) == row.extended);
      CHECK(resource::is_scalar(row.name) == row.scalar);
      CHECK(resource::is_integer_resource(row.name) == row.integer);
      CHECK(resource::is_overcommit_allowed(row.name) == row.overcommit);
    }
  }
}

TEST_CASE("default_format: BinarySI for memory-like resources", "[model][resource]") {
  CHECK(resource::default_format("memory") == QuantityFormat::BinarySI);
  CHECK(resource::default_format("ephemeral-storage") == QuantityFormat::BinarySI);
  CHECK(resource::default_format("hugepages-1Gi") == QuantityFormat::BinarySI);
  CHECK(resource::default_format("cpu") == QuantityFormat::DecimalSI);
  CHECK(resource::default_format("nvidia.com/gpu") == QuantityFormat::DecimalSI);
}

struct QualifiedRow {
  std::string value;
  std::vector<std::string> errors;
};

TEST_CASE("qualified_name_errors mirrors validation.IsQualifiedName", "[model][resource]") {
  const std::string name_regex =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
      "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
      "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const std::vector<QualifiedRow> rows = {
      {"gpu", {}},
      {"nvidia.com/gpu", {}},
      {"My_Name.1", {}},
      {"", {"name part must be non-empty", "name part " + name_regex}},
      {"-gpu", {"name part " + name_regex}},
      {"example.com/", {"name part must be non-empty", "name part " + name_regex}},
      {"/gpu", {"prefix part must be non-empty"}},
      {std::string(64, 'a'), {"name part must be no more than 63 characters"}},
      {"Example.com/gpu",
       {"prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
        "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
        "'example.com', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
      {"a/b/c",
       {"a qualified name " + name_regex +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
  };
  for (const QualifiedRow& row : rows) {
    DYNAMIC_SECTION("'" << row.value << "'") {
      CHECK(resource::qualified_name_errors(row.value) == row.errors);
    }
  }
}

TEST_CASE("add_to sums with Quantity.Add semantics", "[model][resource]") {
  ResourceList list;
  std::string error;
  add_to(list, "memory", *Quantity::parse("1Gi", &error));
  REQUIRE(list.at("memory").to_string() == "1Gi");
  add_to(list, "memory", *Quantity::parse("512Mi", &error));
  CHECK(list.at("memory").to_string() == "1536Mi");
  add_to(list, "cpu", *Quantity::parse("250m", &error));
  add_to(list, "cpu", *Quantity::parse("750m", &error));
  CHECK(list.at("cpu").to_string() == "1");
  CHECK(list.size() == 2);
  SECTION("a zero entry takes the added quantity's format") {
    list["x"] = Quantity(0, QuantityFormat::DecimalSI);
    add_to(list, "x", *Quantity::parse("2Ki", &error));
    CHECK(list.at("x").format() == QuantityFormat::BinarySI);
    CHECK(list.at("x").to_string() == "2Ki");
  }
}

}  // namespace
}  // namespace gpusched
