// The CEL subset of device selectors. Rows named "upstream/<name>" transcribe
// k8s.io/dynamic-resource-allocation/cel/compile_test.go at v0.36.2 (rows that need list-type
// attributes, a feature gpusched does not model, are left out or shown failing as they fail
// without it); the other rows pin cel-go's runtime semantics and error texts, NVIDIA's
// DeviceClasses and the allocator's selectors.
#include "dra/cel.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpusched::dra::cel {
namespace {

struct Dev {
  std::string driver;
  AttributeMap attributes;
  CapacityMap capacity;
  std::optional<bool> allow_multiple_allocations;
};

DeviceAttribute i(std::int64_t v) {
  return DeviceAttribute::of_int(v);
}
DeviceAttribute b(bool v) {
  return DeviceAttribute::of_bool(v);
}
DeviceAttribute s(std::string v) {
  return DeviceAttribute::of_string(std::move(v));
}
DeviceAttribute v(std::string text) {
  return DeviceAttribute::of_version(std::move(text));
}
DeviceCapacity q(std::string_view text) {
  std::string error;
  const auto parsed = Quantity::parse(text, &error);
  REQUIRE(parsed.has_value());
  return DeviceCapacity{*parsed, std::nullopt};
}

enum class Want { Match, NoMatch, RuntimeError, CompileError, Unsupported };

struct Row {
  std::string name;
  std::string expression;
  Dev device;
  Want want = Want::Match;
  std::string text = {};  ///< the exact error for RuntimeError, CompileError and Unsupported
  bool prefix = false;    ///< `text` is a prefix (syntax errors read as ANTLR's upstream)
  bool consumable_capacity = false;
};

void run(const std::vector<Row>& rows) {
  for (const Row& row : rows) {
    DYNAMIC_SECTION(row.name) {
      INFO(row.expression);
      const CompileResult compiled = compile(row.expression, Features{row.consumable_capacity});
      if (row.want == Want::CompileError || row.want == Want::Unsupported) {
        CHECK(compiled.program == nullptr);
        CHECK(compiled.unsupported == (row.want == Want::Unsupported));
        if (row.prefix) {
          CHECK(compiled.error.substr(0, row.text.size()) == row.text);
        } else {
          CHECK(compiled.error == row.text);
        }
        continue;
      }
      REQUIRE(compiled.error == "");
      REQUIRE(compiled.program != nullptr);
      const DeviceView view{row.device.driver, &row.device.attributes, &row.device.capacity,
                            row.device.allow_multiple_allocations};
      const EvalResult result = compiled.matches(view);
      if (row.want == Want::RuntimeError) {
        CHECK_FALSE(result.matches);
        REQUIRE(result.error.has_value());
        CHECK(*result.error == row.text);
      } else {
        CHECK(result.error.value_or("") == "");
        CHECK(result.matches == (row.want == Want::Match));
      }
    }
  }
}

constexpr const char* kDra = "dra.example.com";

TEST_CASE("cel: upstream compile_test.go cases", "[dra][cel]") {
  const Dev none{"", {}, {}, std::nullopt};
  const Dev dra_bool_name{kDra, {{"name", b(true)}}, {}, std::nullopt};
  const Dev dra_services{kDra, {{"services", s("some_example_value")}}, {}, std::nullopt};
  const std::vector<Row> rows = {
      {"upstream/true", "true", none, Want::Match},
      {"upstream/false", "false", none, Want::NoMatch},
      {"upstream/syntax-error", "?!", none, Want::CompileError,
       "compilation failed: ERROR: <input>:1:1: Syntax error: ", true},
      {"upstream/type-error", "1", none, Want::CompileError,
       "must evaluate to bool or the unknown type, not int"},
      {"upstream/runtime-error-lookup-identifier",
       R"(device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0")))", none,
       Want::RuntimeError, "no such key: noSuchAttr"},
      {"upstream/runtime-error-lookup-map",
       R"(device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0")))", none,
       Want::RuntimeError, "no such key: noSuchAttr"},
      {"upstream/domain-check-negative", R"("no-such-domain" in device.attributes)", none,
       Want::NoMatch},
      {"upstream/domain-check-positive",
       R"("dra.example.com" in device.attributes)",
       {"", {{"dra.example.com/something", b(true)}}, {}, std::nullopt},
       Want::Match},
      {"upstream/empty-driver-name", R"(device.driver == "")", none, Want::Match},
      {"upstream/real-driver-name",
       R"(device.driver == "dra.example.com")",
       {kDra, {}, {}, std::nullopt},
       Want::Match},
      {"upstream/driver-name-qualifier", R"(device.attributes["dra.example.com"].name)",
       dra_bool_name, Want::Match},
      {"upstream/driver-name-qualifier-map-lookup",
       R"(device.attributes["dra.example.com"]["name"])", dra_bool_name, Want::Match},
      {"upstream/bind", R"(cel.bind(dra, device.attributes["dra.example.com"], dra.name))",
       dra_bool_name, Want::Match},
      {"upstream/qualified-attribute-name",
       R"(device.attributes["other.example.com"].name)",
       {kDra, {{"other.example.com/name", b(true)}}, {}, std::nullopt},
       Want::Match},
      {"upstream/bool", R"(device.attributes["dra.example.com"].name)", dra_bool_name, Want::Match},
      {"upstream/int",
       R"(device.attributes["dra.example.com"].name > 0)",
       {kDra, {{"name", i(1)}}, {}, std::nullopt},
       Want::Match},
      {"upstream/string",
       R"(device.attributes["dra.example.com"].name == "fish")",
       {kDra, {{"name", s("fish")}}, {}, std::nullopt},
       Want::Match},
      // Without list-type attributes an attribute is google.protobuf.Any, which the checker does
      // not accept as a comprehension range (upstream runs this row with the feature on).
      {"upstream/macro-exists-on-int",
       R"(device.attributes["dra.example.com"].name.exists(x, x > 0))",
       {kDra, {{"name", i(1)}}, {}, std::nullopt},
       Want::CompileError,
       "compilation failed: ERROR: <input>:1:37: expression of type 'any' cannot be range of a "
       "comprehension (must be list, map, or dynamic)\n"
       " | device.attributes[\"dra.example.com\"].name.exists(x, x > 0)\n"
       " | ....................................^"},
      {"upstream/includes-function-undeclared-error",
       R"(device.attributes["dra.example.com"].name.includes("fish"))",
       {kDra, {}, {}, {}},
       Want::CompileError,
       "compilation failed: ERROR: <input>:1:51: undeclared reference to 'includes' (in "
       "container '')\n"
       " | device.attributes[\"dra.example.com\"].name.includes(\"fish\")\n"
       " | ..................................................^"},
      {"upstream/version",
       R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1")))",
       {kDra, {{"name", v("1.0.0")}}, {}, std::nullopt},
       Want::Match},
      {"upstream/version_v",
       R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true))",
       {kDra, {{"name", v("1.0.0")}}, {}, std::nullopt},
       Want::Match},
      {"upstream/quantity",
       R"(device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       {kDra, {}, {{"name", q("1Mi")}}, std::nullopt},
       Want::Match},
      {"upstream/check-positive",
       R"("name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       {kDra, {}, {{"name", q("1Mi")}}, std::nullopt},
       Want::Match},
      {"upstream/check-negative",
       R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       none, Want::Match},
      {"upstream/all",
       R"(
device.capacity["dra.example.com"].quantity.isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"].bool &&
device.attributes["dra.example.com"].int > 0 &&
device.attributes["dra.example.com"].string == "fish" &&
device.attributes["dra.example.com"].version.isGreaterThan(semver("0.0.1")) &&
device.capacity["dra.example.com"]["quantity"].isGreaterThan(quantity("1Ki")) &&
device.attributes["dra.example.com"]["bool"] &&
device.attributes["dra.example.com"]["int"] > 0 &&
device.attributes["dra.example.com"]["string"] == "fish" &&
device.attributes["dra.example.com"]["version"].isGreaterThan(semver("0.0.1"))
)",
       {kDra,
        {{"bool", b(true)}, {"int", i(1)}, {"string", s("fish")}, {"version", v("1.0.0")}},
        {{"quantity", q("1Mi")}},
        std::nullopt},
       Want::Match},
      {"upstream/many",
       R"(device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c)",
       {kDra, {{"a", b(true)}, {"b", b(true)}, {"c", b(true)}}, {}, std::nullopt},
       Want::Match},
      {"upstream/check_attribute_domains",
       R"(device.attributes.exists_one(x, x == "dra.example.com"))", dra_services, Want::Match},
      {"upstream/check_attribute_ids",
       R"(device.attributes["dra.example.com"].exists_one(x, x == "services"))", dra_services,
       Want::Match},
      {"upstream/split_attribute",
       R"(device.attributes["dra.example.com"].services.split("example").size() >= 2)",
       dra_services, Want::Match},
      {"upstream/regexp_attribute",
       R"(device.attributes["dra.example.com"].services.matches("[^a]?sym"))",
       {kDra, {{"services", s("asymetric")}}, {}, std::nullopt},
       Want::Match},
      {"upstream/check_capacity_domains",
       R"(device.capacity.exists_one(x, x == "dra.example.com"))",
       {kDra, {}, {{"memory", q("1Mi")}}, std::nullopt},
       Want::Match},
      {"upstream/check_capacity_ids",
       R"(device.capacity["dra.example.com"].exists_one(x, x == "memory"))",
       {kDra, {}, {{"memory", q("1Mi")}}, std::nullopt},
       Want::Match},
      {"upstream/expensive",
       "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, "
       "int('1'.find('[0-9]*')) < 100))",
       none, Want::Unsupported, "unsupported CEL: function \"int\""},
      {"upstream/allow_multiple_allocations",
       "device.allowMultipleAllocations == true",
       {kDra, {}, {}, true},
       Want::Match,
       {},
       false,
       true},
      {"upstream/allow_multiple_allocations_default",
       "device.allowMultipleAllocations == false",
       {kDra, {}, {}, std::nullopt},
       Want::Match,
       {},
       false,
       true},
      {"upstream/allow_multiple_allocations_false",
       "device.allowMultipleAllocations == false",
       {kDra, {}, {}, false},
       Want::Match,
       {},
       false,
       true},
      {"upstream/allow_multiple_allocations_disabled",
       "device.allowMultipleAllocations == false",
       {kDra, {}, {}, std::nullopt},
       Want::CompileError,
       "compilation failed: ERROR: <input>:1:7: undefined field 'allowMultipleAllocations'\n"
       " | device.allowMultipleAllocations == false\n"
       " | ......^"},
  };
  run(rows);
}

TEST_CASE("cel: NVIDIA DeviceClasses, fake-gpu-operator and the allocator's selectors",
          "[dra][cel]") {
  constexpr const char* kGpuClass =
      "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'";
  constexpr const char* kMigClass =
      "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'";
  const Dev gpu{"gpu.nvidia.com",
                {{"type", s("gpu")},
                 {"productName", s("NVIDIA A100-SXM4-40GB")},
                 {"driverVersion", v("550.54.15")},
                 {"cudaComputeCapability", v("8.0.0")},
                 {"index", i(0)}},
                {{"memory", q("40Gi")}},
                std::nullopt};
  const Dev mig{"gpu.nvidia.com",
                {{"type", s("mig")}, {"profile", s("1g.5gb")}},
                {{"memory", q("4864Mi")}},
                std::nullopt};
  // fake-gpu-operator publishes no `type` attribute.
  const Dev fake{"gpu.nvidia.com", {{"model", s("Tesla-K80")}}, {}, std::nullopt};
  const Dev other{"other.example.com", {}, {}, std::nullopt};
  const Dev a_2gi{"driver-a", {{"type", s("X")}}, {{"memory", q("2Gi")}}, true};
  const Dev a_512mi{"driver-a", {{"type", s("Y")}}, {{"memory", q("512Mi")}}, false};
  const std::vector<Row> rows = {
      {"nvidia/gpu class on a GPU", kGpuClass, gpu, Want::Match},
      {"nvidia/gpu class on a MIG device", kGpuClass, mig, Want::NoMatch},
      {"nvidia/mig class on a MIG device", kMigClass, mig, Want::Match},
      {"nvidia/mig class on a GPU", kMigClass, gpu, Want::NoMatch},
      {"nvidia/gpu class on another driver: false && <error> is false", kGpuClass, other,
       Want::NoMatch},
      {"fake-gpu-operator/no such key: type",
       R"(device.attributes["gpu.nvidia.com"].type == "gpu")", fake, Want::RuntimeError,
       "no such key: type"},
      {"fake-gpu-operator/gpu class", kGpuClass, fake, Want::RuntimeError, "no such key: type"},
      {"nvidia/product name",
       R"(device.attributes["gpu.nvidia.com"].productName.lowerAscii().contains("a100"))", gpu,
       Want::Match},
      {"nvidia/driver version",
       R"(device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("535.0.0")))", gpu,
       Want::Match},
      {"nvidia/memory",
       R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("20Gi")) >= 0)", gpu,
       Want::Match},
      {"allocator/capacity at least 1Gi",
       R"(device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0)", a_2gi, Want::Match},
      {"allocator/capacity below 1Gi",
       R"(device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0)", a_512mi,
       Want::NoMatch},
      {"allocator/type X", R"(device.attributes["driver-a"].type == "X")", a_2gi, Want::Match},
      {"allocator/type Y is not X", R"(device.attributes["driver-a"].type == "X")", a_512mi,
       Want::NoMatch},
      {"allocator/allowMultipleAllocations",
       "device.allowMultipleAllocations == true",
       a_2gi,
       Want::Match,
       {},
       false,
       true},
      {"allocator/allowMultipleAllocations false",
       "device.allowMultipleAllocations == true",
       a_512mi,
       Want::NoMatch,
       {},
       false,
       true},
  };
  run(rows);
}

TEST_CASE("cel: error absorption, equality, ordering, in and has", "[dra][cel]") {
  const Dev d{kDra,
              {{"i", i(1)},
               {"s", s("x")},
               {"t", b(true)},
               {"v", v("1.2.3")},
               {"other.example.com/o", i(7)},
               {"dra.example.com/q", s("qualified")}},
              {{"memory", q("1Gi")}},
              std::nullopt};
  constexpr const char* kErr = R"(device.attributes["dra.example.com"].missing)";
  const std::string err = kErr;
  const std::vector<Row> rows = {
      {"absorb/false && error", "false && " + err, d, Want::NoMatch},
      {"absorb/error && false", err + " && false", d, Want::NoMatch},
      {"absorb/true || error", "true || " + err, d, Want::Match},
      {"absorb/error || true", err + " || true", d, Want::Match},
      {"absorb/error && true", err + " && true", d, Want::RuntimeError, "no such key: missing"},
      {"absorb/true && error", "true && " + err, d, Want::RuntimeError, "no such key: missing"},
      {"absorb/error || false", err + " || false", d, Want::RuntimeError, "no such key: missing"},
      {"absorb/the first error wins",
       R"(device.attributes["dra.example.com"].a || device.attributes["dra.example.com"].b)", d,
       Want::RuntimeError, "no such key: a"},
      {"absorb/not of an error", "!" + err, d, Want::RuntimeError, "no such key: missing"},
      {"absorb/a string term is no such overload",
       R"(device.attributes["dra.example.com"].s && true)", d, Want::RuntimeError,
       "no such overload"},
      {"absorb/a string term absorbed by false",
       R"(device.attributes["dra.example.com"].s && false)", d, Want::NoMatch},
      {"absorb/ternary picks a branch", "device.driver == 'x' ? " + err + " : true", d,
       Want::Match},
      {"absorb/ternary on a string", R"(device.attributes["dra.example.com"].s ? true : false)", d,
       Want::RuntimeError, "no such overload"},
      {"equality/int attribute vs string is false",
       R"(device.attributes["dra.example.com"].i == "1")", d, Want::NoMatch},
      {"equality/string attribute != int is true", R"(device.attributes["dra.example.com"].s != 1)",
       d, Want::Match},
      {"equality/semver == string is no such overload",
       R"(device.attributes["dra.example.com"].v == "1.2.3")", d, Want::RuntimeError,
       "no such overload"},
      {"equality/semver != string is true (evalNe)",
       R"(device.attributes["dra.example.com"].v != "1.2.3")", d, Want::Match},
      {"equality/string == semver is false", R"("1.2.3" == device.attributes["dra.example.com"].v)",
       d, Want::NoMatch},
      {"equality/semver == semver",
       R"(device.attributes["dra.example.com"].v == semver("1.2.3+build.1"))", d, Want::Match},
      {"equality/quantities by value", R"(quantity("1Gi") == quantity("1024Mi"))", d, Want::Match},
      {"equality/lists", R"(["a", "b"] == ["a", "b"] && [1] != [2] && [] == [])", d, Want::Match},
      {"equality/null", "null == null", d, Want::Match},
      {"equality/static type mismatch", "device.driver == 1", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied "
       "to '(string, int)'\n"
       " | device.driver == 1\n"
       " | ..............^"},
      {"equality/string vs null", "device.driver == null", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied "
       "to '(string, null)'\n"
       " | device.driver == null\n"
       " | ..............^"},
      {"ordering/ints",
       R"(device.attributes["dra.example.com"].i < 2 && 3 >= 3 && 2 > 1 && 1 <= 1)", d,
       Want::Match},
      {"ordering/strings", R"("abc" < "abd" && "b" > "abc" && "" <= "a")", d, Want::Match},
      {"ordering/bools", "false < true", d, Want::Match},
      {"ordering/string attribute < int", R"(device.attributes["dra.example.com"].s < 1)", d,
       Want::RuntimeError, "no such overload"},
      {"ordering/semver attribute < int", R"(device.attributes["dra.example.com"].v < 1)", d,
       Want::RuntimeError, "no such overload: _<_"},
      {"ordering/semvers have no <", R"(semver("1.0.0") < semver("2.0.0"))", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:17: found no matching overload for '_<_' applied "
       "to '(kubernetes.Semver, kubernetes.Semver)'\n"
       " | semver(\"1.0.0\") < semver(\"2.0.0\")\n"
       " | ................^"},
      {"ordering/static string < int", R"("a" < 1)", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:5: found no matching overload for '_<_' applied "
       "to '(string, int)'\n"
       " | \"a\" < 1\n"
       " | ....^"},
      {"in/list", R"(device.attributes["dra.example.com"].s in ["x", "y"])", d, Want::Match},
      {"in/list negative", R"("z" in ["x", "y"])", d, Want::NoMatch},
      {"in/driver domain from bare names", R"("dra.example.com" in device.attributes)", d,
       Want::Match},
      {"in/other domain", R"("other.example.com" in device.attributes)", d, Want::Match},
      {"in/ids of a domain", R"("o" in device.attributes["other.example.com"])", d, Want::Match},
      {"in/qualified name in the driver's domain", R"("q" in device.attributes["dra.example.com"])",
       d, Want::Match},
      {"in/capacity", R"("memory" in device.capacity["dra.example.com"])", d, Want::Match},
      {"in/missing capacity", R"("memory" in device.capacity["other.example.com"])", d,
       Want::NoMatch},
      {"has/attribute present", R"(has(device.attributes["dra.example.com"].i))", d, Want::Match},
      {"has/attribute absent", R"(has(device.attributes["dra.example.com"].missing))", d,
       Want::NoMatch},
      {"has/any domain (the mapper's default answers)", "has(device.attributes.nodomain)", d,
       Want::Match},
      {"has/device field", "has(device.driver)", d, Want::Match},
      {"has/on a string attribute", R"(has(device.attributes["dra.example.com"].s.x))", d,
       Want::NoMatch},
      {"has/not a selection", "has(device)", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n"
       " | has(device)\n"
       " | ....^"},
      {"select/on a string attribute", R"(device.attributes["dra.example.com"].s.x == 1)", d,
       Want::RuntimeError, "no such key: x"},
      {"select/a dyn result", R"(device.attributes["dra.example.com"].s.x)", d, Want::CompileError,
       "must evaluate to bool or the unknown type, not dyn"},
      {"select/on a string attribute, compared",
       R"(cel.bind(x, device.attributes["dra.example.com"].s.x, x == 1))", d, Want::RuntimeError,
       "no such key: x"},
  };
  run(rows);
}

TEST_CASE("cel: quantities and semantic versions", "[dra][cel]") {
  const Dev d{kDra,
              {{"v", v("1.2.3")}, {"pre", v("1.0.0-rc.1")}},
              {{"memory", q("80Gi")}, {"cores", q("1500m")}},
              std::nullopt};
  const Dev bad_version{kDra, {{"driverVersion", v("550.54")}, {"i", i(1)}}, {}, std::nullopt};
  const Dev bad_qualified{kDra, {{"gpu.nvidia.com/driverVersion", v("1.02.3")}}, {}, std::nullopt};
  const std::vector<Row> rows = {
      {"quantity/binary above decimal", R"(quantity("1Gi").compareTo(quantity("1G")) == 1)", d,
       Want::Match},
      {"quantity/decimal equal", R"(quantity("1000M").compareTo(quantity("1G")) == 0)", d,
       Want::Match},
      {"quantity/binary equal", R"(quantity("1024Mi").compareTo(quantity("1Gi")) == 0)", d,
       Want::Match},
      {"quantity/k below Ki", R"(quantity("1k").compareTo(quantity("1Ki")) == -1)", d, Want::Match},
      {"quantity/fraction", R"(quantity("1.5Gi").isGreaterThan(quantity("1536Mi")))", d,
       Want::NoMatch},
      {"quantity/milli", R"(quantity("500m").isLessThan(quantity("1")))", d, Want::Match},
      {"quantity/capacity",
       R"(device.capacity["dra.example.com"].memory.isGreaterThan(quantity("40Gi")))", d,
       Want::Match},
      {"quantity/asInteger", R"(quantity("2k").asInteger() == 2000)", d, Want::Match},
      {"quantity/asInteger of a fraction",
       R"(device.capacity["dra.example.com"].cores.asInteger() == 1)", d, Want::RuntimeError,
       "cannot convert value to integer"},
      {"quantity/isInteger", R"(!device.capacity["dra.example.com"].cores.isInteger())", d,
       Want::Match},
      {"quantity/sign", R"(sign(quantity("-1")) == -1 && sign(quantity("0")) == 0)", d,
       Want::Match},
      {"quantity/isQuantity", R"(isQuantity("1Gi") && !isQuantity("1Gb") && !isQuantity(" 1"))", d,
       Want::Match},
      {"quantity/malformed", R"(quantity("1Gb").isGreaterThan(quantity("1")))", d,
       Want::RuntimeError,
       "quantities must match the regular expression "
       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"quantity/bad suffix", R"(quantity("1Mk").isGreaterThan(quantity("1")))", d,
       Want::RuntimeError, "unable to parse quantity's suffix"},
      {"quantity/a bad literal absorbed", R"(false && quantity("x").isGreaterThan(quantity("1")))",
       d, Want::NoMatch},
      {"quantity/add is outside the subset", R"(quantity("1").add(quantity("1")) == quantity("2"))",
       d, Want::Unsupported, "unsupported CEL: function \"add\""},
      {"quantity/compareTo with a semver",
       R"(device.attributes["dra.example.com"].v.compareTo(quantity("1")) == 0)", d,
       Want::RuntimeError, "no such overload: compareTo(kubernetes.Semver, kubernetes.Quantity)"},
      {"semver/compareTo",
       R"(semver("1.2.3").compareTo(semver("1.2.3")) == 0 && semver("1.2.3").compareTo(semver("2.0.0")) == -1 && semver("1.2.3").compareTo(semver("0.1.2")) == 1)",
       d, Want::Match},
      {"semver/attribute", R"(device.attributes["dra.example.com"].v.isLessThan(semver("1.10.0")))",
       d, Want::Match},
      {"semver/parts",
       R"(semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3)",
       d, Want::Match},
      {"semver/pre-release below release",
       R"(device.attributes["dra.example.com"].pre.isLessThan(semver("1.0.0")))", d, Want::Match},
      {"semver/pre-release order",
       R"(semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1")) && semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta")) && semver("1.0.0-beta.2").isLessThan(semver("1.0.0-beta.11")) && semver("1.0.0-rc.1").isLessThan(semver("1.0.0")))",
       d, Want::Match},
      {"semver/build metadata is ignored", R"(semver("1.0.0+a").compareTo(semver("1.0.0+b")) == 0)",
       d, Want::Match},
      {"semver/isSemver",
       R"(isSemver("1.0.0") && !isSemver("1.0") && isSemver("v1.0", true) && !isSemver("v1.0"))", d,
       Want::Match},
      {"semver/normalize",
       R"(semver("01.01.01", true).patch() == 1 && semver("1.0", true) == semver("1.0.0"))", d,
       Want::Match},
      {"semver/short version", R"(semver("1.0-rc", true).major() == 1)", d, Want::RuntimeError,
       "short version cannot contain PreRelease/Build meta data"},
      {"semver/missing parts", R"(semver("1.0").major() == 1)", d, Want::RuntimeError,
       "No Major.Minor.Patch elements found"},
      {"semver/leading zeroes", R"(semver("01.0.0").major() == 1)", d, Want::RuntimeError,
       "Major number must not contain leading zeroes \"01\""},
      {"semver/prerelease characters", R"(semver("1.0.0-a_b").major() == 1)", d, Want::RuntimeError,
       "Invalid character(s) found in prerelease \"a_b\""},
      {"semver/version attribute that does not parse", "true", bad_version, Want::RuntimeError,
       "attribute driverVersion: parse semantic version: No Major.Minor.Patch elements found"},
      {"semver/qualified version attribute that does not parse", "true", bad_qualified,
       Want::RuntimeError,
       "attribute gpu.nvidia.com/driverVersion: parse semantic version: Minor number must not "
       "contain leading zeroes \"02\""},
  };
  run(rows);
}

TEST_CASE("cel: strings, lists, macros, bind and arithmetic", "[dra][cel]") {
  const Dev d{kDra,
              {{"name", s("NVIDIA A100-SXM4-40GB")},
               {"i", i(3)},
               {"j", i(4)},
               {"k", s("kk")},
               {"v", v("1.0.0")}},
              {},
              std::nullopt};
  const std::string name = R"(device.attributes["dra.example.com"].name)";
  const std::vector<Row> rows = {
      {"string/lowerAscii", name + R"(.lowerAscii() == "nvidia a100-sxm4-40gb")", d, Want::Match},
      {"string/upperAscii", R"("héllo".upperAscii() == "HéLLO")", d, Want::Match},
      {"string/startsWith endsWith contains",
       name + R"(.startsWith("NVIDIA") && )" + name + R"(.endsWith("GB") && )" + name +
           R"(.contains("A100"))",
       d, Want::Match},
      {"string/size counts code points", R"("héllo".size() == 5 && size("abc") == 3)", d,
       Want::Match},
      {"string/concatenation", R"(device.driver + "/x" == "dra.example.com/x")", d, Want::Match},
      {"string/split", R"("a,b,,c".split(",") == ["a", "b", "", "c"])", d, Want::Match},
      {"string/split with a limit",
       R"("a,b,c".split(",", 2) == ["a", "b,c"] && "a,b".split(",", 0) == [])", d, Want::Match},
      {"string/split into characters", R"("héj".split("") == ["h", "é", "j"])", d, Want::Match},
      {"string/escapes", R"("\x41\u00e9\101\n" == 'Aé' + "A\n" && r"\d" == "\\d")", d, Want::Match},
      {"string/triple quotes", R"("""a"b""" == 'a"b' && '''x''' == "x")", d, Want::Match},
      {"string/lowerAscii of an int",
       R"(device.attributes["dra.example.com"].i.lowerAscii() == "")", d, Want::RuntimeError,
       "no such overload: lowerAscii(int)"},
      {"string/contains on an int", R"(device.attributes["dra.example.com"].i.contains("1"))", d,
       Want::RuntimeError, "no such overload"},
      {"string/size of an int", R"(size(device.attributes["dra.example.com"].i) == 1)", d,
       Want::RuntimeError, "no such overload: size"},
      {"regex/unanchored", R"("abc".matches("b") && !"abc".matches("^b"))", d, Want::Match},
      {"regex/classes", name + R"(.matches("^NVIDIA A[0-9]{3}-SXM\\d-\\d+GB$"))", d, Want::Match},
      {"regex/alternation",
       R"("h100".matches("^(a100|h100)$") && !"h200".matches("^(a100|h100)$"))", d, Want::Match},
      {"regex/$ is the end of the text", R"(!"a\nb".matches("a$") && "a\nb".matches("(?m)a$"))", d,
       Want::Match},
      {"regex/dot and newline", R"(!"a\nb".matches("a.b") && "a\nb".matches("(?s)a.b"))", d,
       Want::Match},
      {"regex/case folding", R"("A100".matches("(?i)^a100$") && !"A100".matches("^a100$"))", d,
       Want::Match},
      {"regex/counted repetition", R"("aaa".matches("^a{2,3}$") && !"aaaa".matches("^a{2,3}$"))", d,
       Want::Match},
      {"regex/negated class matches a newline", R"("\n".matches("^[^a]$"))", d, Want::Match},
      {"regex/word boundary", R"("a b".matches("\\bb\\b") && !"ab".matches("\\bb"))", d,
       Want::Match},
      {"regex/posix class", R"("x9".matches("^[[:alpha:]][[:digit:]]$"))", d, Want::Match},
      {"regex/invalid literal", R"(device.driver.matches("[a"))", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:23: invalid matches argument\n"
       " | device.driver.matches(\"[a\")\n"
       " | ......................^"},
      {"regex/nested repetition", R"(device.driver.matches("a**"))", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:23: invalid matches argument\n"
       " | device.driver.matches(\"a**\")\n"
       " | ......................^"},
      {"regex/unicode classes are outside the subset", R"(device.driver.matches("\\pL"))", d,
       Want::Unsupported, "unsupported CEL: regular expression feature \\p in \"\\pL\""},
      {"regex/a pattern from the device is outside the subset", R"("x".matches(device.driver))", d,
       Want::Unsupported, "unsupported CEL: matches() with a pattern that is not a string literal"},
      {"list/index", R"(["a", "b"][1] == "b")", d, Want::Match},
      {"list/index out of bounds", R"(["a", "b"][2] == "b")", d, Want::RuntimeError,
       "index out of bounds: 2"},
      {"list/size and concatenation", R"(([1] + [2, 3]).size() == 3)", d, Want::Match},
      {"list/mixed element types", R"([1, "a"].size() == 2)", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n"
       " | [1, \"a\"].size() == 2\n"
       " | ....^"},
      {"macro/all over ids", R"(device.attributes["dra.example.com"].all(k, k.size() >= 1))", d,
       Want::Match},
      {"macro/exists over a list", "[1, 2, 3].exists(x, x == 2)", d, Want::Match},
      {"macro/exists absorbs an error",
       R"(["name", "missing"].exists(k, device.attributes["dra.example.com"][k] == "NVIDIA A100-SXM4-40GB"))",
       d, Want::Match},
      {"macro/exists keeps an error",
       R"(["missing", "name"].exists(k, device.attributes["dra.example.com"][k] == "x"))", d,
       Want::RuntimeError, "no such key: missing"},
      {"macro/all stops at false",
       R"(["i", "missing"].all(k, device.attributes["dra.example.com"][k] == 0))", d,
       Want::NoMatch},
      {"macro/exists_one", "[1, 2, 3].exists_one(x, x > 2) && ![1, 2, 3].existsOne(x, x > 1)", d,
       Want::Match},
      {"macro/exists_one with an error",
       R"(["i", "missing"].exists_one(k, device.attributes["dra.example.com"][k] == 3))", d,
       Want::RuntimeError, "no such key: missing"},
      {"macro/not a simple name", "[1].exists(1, true)", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:12: argument must be a simple name\n"
       " | [1].exists(1, true)\n"
       " | ...........^"},
      {"macro/over an attribute value", R"(device.attributes["dra.example.com"].k.exists(c, true))",
       d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:37: expression of type 'any' cannot be range of a "
       "comprehension (must be list, map, or dynamic)\n"
       " | device.attributes[\"dra.example.com\"].k.exists(c, true)\n"
       " | ....................................^"},
      {"macro/over a dyn value that is a string",
       R"((device.attributes["dra.example.com"].k + device.attributes["dra.example.com"].k).exists(c, true))",
       d, Want::RuntimeError, "got 'types.String', expected iterable type"},
      {"macro/over a dyn value that is an int",
       R"((-device.attributes["dra.example.com"].i).exists(c, true))", d, Want::RuntimeError,
       "got 'types.Int', expected iterable type"},
      {"macro/predicate must be bool", "[1].all(x, x)", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:12: expected type 'bool' but found 'int'\n"
       " | [1].all(x, x)\n"
       " | ...........^"},
      {"bind/lazy initializer",
       R"(cel.bind(x, device.attributes["dra.example.com"].missing, false))", d, Want::NoMatch},
      {"bind/initializer error when read",
       R"(cel.bind(x, device.attributes["dra.example.com"].missing, x))", d, Want::RuntimeError,
       "no such key: missing"},
      {"bind/shadows device", "cel.bind(device, 1, device == 1)", d, Want::Match},
      {"bind/nested",
       R"(cel.bind(a, device.attributes["dra.example.com"], cel.bind(b, a.i + a.j, b == 7 && [1, 2].all(x, cel.bind(c, x * b, c >= 7)))))",
       d, Want::Match},
      {"bind/not a simple name", "cel.bind(1, 2, true)", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:10: cel.bind() variable names must be simple "
       "identifiers\n"
       " | cel.bind(1, 2, true)\n"
       " | .........^"},
      {"int/arithmetic", "1 + 2 * 3 - 4 / 2 % 3 == 5 && -(-3) == 3 && 0x10 == 16", d, Want::Match},
      {"int/literal bounds", "-9223372036854775808 < 9223372036854775807", d, Want::Match},
      {"int/literal overflow", "9223372036854775808 > 0", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:1: invalid int literal\n"
       " | 9223372036854775808 > 0\n"
       " | ^"},
      {"int/addition overflow",
       R"(device.attributes["dra.example.com"].i + 9223372036854775807 > 0)", d, Want::RuntimeError,
       "integer overflow"},
      {"int/division by zero", R"(10 / (device.attributes["dra.example.com"].i - 3) == 0)", d,
       Want::RuntimeError, "division by zero"},
      {"int/modulus by zero", R"(10 % (device.attributes["dra.example.com"].i - 3) == 0)", d,
       Want::RuntimeError, "modulus by zero"},
      {"int/negation overflow", "-(-9223372036854775808) == 0", d, Want::RuntimeError,
       "integer overflow"},
      {"int/string + int", R"(device.attributes["dra.example.com"].k + 1 == 1)", d,
       Want::RuntimeError, "no such overload"},
  };
  run(rows);
}

TEST_CASE("cel: unsupported constructs, compile errors and limits", "[dra][cel]") {
  const Dev d{kDra, {{"s", s("x")}, {"v", v("1.0.0")}}, {}, std::nullopt};
  const std::string deep_parens = std::string(300, '(') + "true" + std::string(300, ')');
  const std::string huge = "true || " + std::string(100000, ' ') + "false";
  std::string cost = "true";
  for (int level = 0; level < 6; ++level) {
    cost = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].all(x" + std::to_string(level) + ", " + cost + ")";
  }
  const std::vector<Row> rows = {
      {"unsupported/timestamp",
       R"(timestamp("2024-01-01T00:00:00Z") < timestamp("2025-01-01T00:00:00Z"))", d,
       Want::Unsupported, "unsupported CEL: function \"timestamp\""},
      {"unsupported/conversion", R"(string(device.attributes["dra.example.com"].v) == "1.0.0")", d,
       Want::Unsupported, "unsupported CEL: function \"string\""},
      {"unsupported/map macro", "[1, 2].map(x, x * 2) == [2, 4]", d, Want::Unsupported,
       "unsupported CEL: macro \"map\""},
      {"unsupported/filter macro", "[1, 2].filter(x, x > 1).size() == 1", d, Want::Unsupported,
       "unsupported CEL: macro \"filter\""},
      {"unsupported/two-variable comprehension",
       R"(device.attributes["dra.example.com"].all(k, v, k != ""))", d, Want::Unsupported,
       "unsupported CEL: macro \"all\""},
      {"unsupported/double literal", "1.5 > 1", d, Want::Unsupported,
       "unsupported CEL: double literal \"1.5\""},
      {"unsupported/uint literal", "1u > 0u", d, Want::Unsupported,
       "unsupported CEL: unsigned integer literal \"1u\""},
      {"unsupported/bytes literal", R"(b"abc".size() == 3)", d, Want::Unsupported,
       "unsupported CEL: bytes literal"},
      {"unsupported/map literal", R"({"a": 1}["a"] == 1)", d, Want::Unsupported,
       "unsupported CEL: map literal"},
      {"unsupported/optional selection", R"(device.attributes.?x.hasValue())", d, Want::Unsupported,
       "unsupported CEL: optional field selection \".?\""},
      {"unsupported/type name", "type(1) == int", d, Want::Unsupported,
       "unsupported CEL: function \"type\""},
      {"unsupported/type value", "device.driver == string", d, Want::Unsupported,
       "unsupported CEL: type name \"string\""},
      {"unsupported/namespaced function", R"(strings.quote("a") == "\"a\"")", d, Want::Unsupported,
       "unsupported CEL: function \"strings.quote\""},
      {"unsupported/message construction", "Foo{a: 1} == null", d, Want::Unsupported,
       "unsupported CEL: message construction"},
      {"unsupported/leading dot", ".device.driver == \"x\"", d, Want::Unsupported,
       "unsupported CEL: leading-dot name \".device\""},
      {"unsupported/first one named", R"(device.driver.indexOf("a") == 1.0)", d, Want::Unsupported,
       "unsupported CEL: function \"indexOf\""},
      {"error/undeclared function", "foo(1)", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:4: undeclared reference to 'foo' (in container "
       "'')\n"
       " | foo(1)\n"
       " | ...^"},
      {"error/undeclared variable", "x == 1", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n"
       " | x == 1\n"
       " | ^"},
      {"error/undefined field", R"(device.drivr == "x")", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:7: undefined field 'drivr'\n"
       " | device.drivr == \"x\"\n"
       " | ......^"},
      {"error/several, sorted", "y == 1 && x == 2", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:1: undeclared reference to 'y' (in container '')\n"
       " | y == 1 && x == 2\n"
       " | ^\n"
       "ERROR: <input>:1:11: undeclared reference to 'x' (in container '')\n"
       " | y == 1 && x == 2\n"
       " | ..........^"},
      {"error/second line", "device.driver == 'a' &&\n  device.drivr == 'b'", d, Want::CompileError,
       "compilation failed: ERROR: <input>:2:9: undefined field 'drivr'\n"
       " |   device.drivr == 'b'\n"
       " | ........^"},
      {"error/non-bool operand of &&", "device.driver && true", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:7: expected type 'bool' but found 'string'\n"
       " | device.driver && true\n"
       " | ......^"},
      {"error/not of a string", "!device.driver", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:1: found no matching overload for '!_' applied to "
       "'(string)'\n"
       " | !device.driver\n"
       " | ^"},
      {"error/member overload", R"(device.driver.isGreaterThan(quantity("1")))", d,
       Want::CompileError,
       "compilation failed: ERROR: <input>:1:28: found no matching overload for 'isGreaterThan' "
       "applied to 'string.(kubernetes.Quantity)'\n"
       " | device.driver.isGreaterThan(quantity(\"1\"))\n"
       " | ...........................^"},
      {"error/reserved identifier", "if == 1", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:1: reserved identifier: if\n"
       " | if == 1\n"
       " | ^"},
      {"error/unterminated string", "device.driver == \"abc", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:18: Syntax error: ", true},
      {"error/trailing tokens", "true false", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:6: Syntax error: ", true},
      {"error/single =", "device.driver = 'x'", d, Want::CompileError,
       "compilation failed: ERROR: <input>:1:15: Syntax error: token recognition error at: '='",
       true},
      {"result/string", "device.driver", d, Want::CompileError,
       "must evaluate to bool or the unknown type, not string"},
      {"result/map", R"(device.attributes["dra.example.com"])", d, Want::CompileError,
       "must evaluate to bool or the unknown type, not map(string, google.protobuf.Any)"},
      {"result/quantity", R"(quantity("1"))", d, Want::CompileError,
       "must evaluate to bool or the unknown type, not kubernetes.Quantity"},
      {"result/list", "[true]", d, Want::CompileError,
       "must evaluate to bool or the unknown type, not list(bool)"},
      {"result/a string attribute at runtime", R"(device.attributes["dra.example.com"].s)", d,
       Want::RuntimeError,
       "CEL result of type string could not be converted to bool: unsupported native "
       "conversion from string to 'bool'"},
      {"result/a version attribute at runtime", R"(device.attributes["dra.example.com"].v)", d,
       Want::RuntimeError,
       "CEL result of type kubernetes.Semver could not be converted to bool: type conversion "
       "error from 'Semver' to 'bool'"},
      {"limit/nesting", deep_parens, d, Want::CompileError,
       "compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250"},
      {"limit/size", huge, d, Want::CompileError,
       "compilation failed: ERROR: <input>:-1:0: expression code point size exceeds limit: "
       "size: 100013, limit 100000"},
      {"limit/cost", cost, d, Want::RuntimeError,
       "operation cancelled: actual cost limit exceeded"},
  };
  run(rows);
}

TEST_CASE("cel: Cache compiles each expression once", "[dra][cel]") {
  Cache cache(Features{});
  const CompileResult& first = cache.get_or_compile("device.driver == 'a'");
  const CompileResult& again = cache.get_or_compile("device.driver == 'a'");
  CHECK(&first == &again);
  CHECK(first.program != nullptr);
  const CompileResult& bad = cache.get_or_compile("device.driver == 1");
  CHECK(bad.program == nullptr);
  CHECK(bad.error.rfind("compilation failed: ", 0) == 0);
  CHECK(cache.size() == 2);

  const AttributeMap attributes;
  const CapacityMap capacity;
  const DeviceView a{"a", &attributes, &capacity, std::nullopt};
  const DeviceView b{"b", &attributes, &capacity, std::nullopt};
  CHECK(first.matches(a).matches);
  CHECK_FALSE(first.matches(b).matches);
  CHECK_FALSE(first.matches(b).error.has_value());

  // The features are part of the environment: without consumable capacity the field is unknown.
  Cache plain(Features{});
  Cache consumable(Features{true});
  CHECK(plain.get_or_compile("device.allowMultipleAllocations").program == nullptr);
  CHECK(consumable.get_or_compile("device.allowMultipleAllocations").program != nullptr);
}

}  // namespace
}  // namespace gpusched::dra::cel
