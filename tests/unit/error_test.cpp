// The error policy's two exceptions: InputError's `file:line: pointer: reason`, and the
// InternalError GPUSCHED_CHECK throws, naming the invariant and the place of the check in every
// build (this one included when it is Release, where assert() is off).
#include "gpusched/error.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

namespace gpusched {
namespace {

int half_of_even(int even) {
  GPUSCHED_CHECK(even % 2 == 0, "the number is even");
  return even / 2;
}

TEST_CASE("InputError: file, line, pointer and reason", "[error]") {
  const InputError e("s.json", "/cluster/0", "bad", 3);
  CHECK(std::string(e.what()) == "s.json:3: /cluster/0: bad");
  CHECK(std::string(InputError("count_fits", "", "the limit").what()) == "count_fits: the limit");
}

TEST_CASE("GPUSCHED_CHECK: a held invariant costs nothing else", "[error]") {
  CHECK(half_of_even(4) == 2);
}

TEST_CASE("GPUSCHED_CHECK: a broken invariant is an InternalError naming it and its place",
          "[error]") {
  unsigned line = 0;
  try {
    line = __LINE__ + 1;
    GPUSCHED_CHECK(1 + 1 == 3, "arithmetic holds");
    FAIL("GPUSCHED_CHECK let a broken invariant through");
  } catch (const InternalError& e) {
    CHECK(e.invariant() == "arithmetic holds");
    CHECK(e.line() == line);
    // Relative to the source tree: the build maps its directory away (-fmacro-prefix-map).
    CHECK(e.file() == "tests/unit/error_test.cpp");
    CHECK(std::string(e.what()) ==
          "invariant \"arithmetic holds\" broken at " + e.file() + ":" + std::to_string(line));
  }
  // A logic_error, never an InputError: it maps to exit 3, not 2.
  CHECK_THROWS_AS(half_of_even(3), std::logic_error);
  CHECK_THROWS_WITH(half_of_even(3), Catch::StartsWith("invariant \"the number is even\" broken "
                                                       "at tests/unit/error_test.cpp:"));
}

TEST_CASE("internal_error: placed where it is told", "[error]") {
  try {
    internal_error("called directly", "lib/x/y.cpp", 12);
    FAIL("internal_error returned");
  } catch (const InternalError& e) {
    CHECK(e.invariant() == "called directly");
    CHECK(e.file() == "lib/x/y.cpp");
    CHECK(e.line() == 12);
  }
}

}  // namespace
}  // namespace gpusched
