// Kueue v0.19.2's quota arithmetic (pkg/resources/amount_test.go) and its quantity texts
// (pkg/resources/resource_formatter.go, resource_formatter_test.go).
// Not transcribed: TestAmountFromQuantity's "1E" and "10P" CPU and "10E" memory cases (a
// quantity gpusched cannot hold in int64 milli-units is an input error before Kueue sees it),
// TestAmountAsApproximateFloat64 (fair sharing, not modelled) and the formatter's registered
// binary resources (DRA device class mappings, not modelled).

#include <cstdint>
#include <limits>
#include <string>

#include <catch2/catch.hpp>

#include "kueue/amount.hpp"
#include "unit/kueue/kueue_test_support.hpp"

namespace gpusched::kueue {
namespace {

using testing::qty;

constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMinInt64 = std::numeric_limits<std::int64_t>::min();

}  // namespace

TEST_CASE("TestAmountFromQuantity", "[kueue][amount]") {
  CHECK(Amount::from_quantity("cpu", qty("2")) == Amount(2'000));   // cpu small value preserved
  CHECK(Amount::from_quantity("cpu", qty("500m")) == Amount(500));  // cpu sub-cpu preserved
  CHECK(Amount::from_quantity("cpu", qty("1P")) ==
        Amount(1'000'000'000'000'000'000));  // no overflow
  CHECK(Amount::from_quantity("memory", qty("512Mi")) == Amount(512 * testing::Mi));
  CHECK(Amount::from_quantity("example.com/gpu", qty("8")) == Amount(8));
}

TEST_CASE("TestAmountArithmetic", "[kueue][amount]") {
  SECTION("Add propagates Unlimited") {
    CHECK((Amount(5) + Amount::unlimited()).is_unlimited());
  }
  SECTION("Add saturates on bounded overflow becomes Unlimited") {
    CHECK((Amount(kMaxInt64 - 5) + Amount(100)).is_unlimited());
  }
  SECTION("Sub of Unlimited stays Unlimited") {
    CHECK((Amount::unlimited() - Amount(1000)).is_unlimited());
  }
  SECTION("Cmp - Unlimited greater than any bounded") {
    CHECK(Amount::unlimited() > Amount(kMaxInt64 - 1));
    CHECK(Amount(kMaxInt64 - 1) < Amount::unlimited());
  }
  SECTION("Cmp - two Unlimited equal") {
    CHECK(Amount::unlimited() == Amount::unlimited());
  }
  SECTION("Sub Unlimited minus Unlimited yields zero") {
    const Amount got = Amount::unlimited() - Amount::unlimited();
    CHECK_FALSE(got.is_unlimited());
    CHECK(got.value() == 0);
  }
  SECTION("Sub bounded minus Unlimited yields MinInt64") {
    CHECK((Amount(1000) - Amount::unlimited()).value() == kMinInt64);
  }
  SECTION("AddInt64 saturates") {
    CHECK((Amount(kMaxInt64 - 1) + Amount(100)).value() == kMaxInt64);
  }
}

// TestNilResourceFormatterUsesDefaultFormatting: a resource nobody registered as binary prints
// in decimal.
TEST_CASE("TestNilResourceFormatterUsesDefaultFormatting", "[kueue][amount]") {
  CHECK(amount_text("gpu.memory", Amount(9984LL * 1024 * 1024)) == "10468982784");
}

// Not an upstream case: ResourceQuantity's texts. cpu is NewMilliQuantity; memory,
// ephemeral-storage and hugepages-* go through newCanonicalQuantity (BinarySI, printed and parsed
// again), everything else is NewQuantity(DecimalSI); Unlimited prints "<unlimited>".
TEST_CASE("Kueue: ResourceQuantity's texts", "[kueue][amount]") {
  CHECK(amount_text("cpu", Amount(1500)) == "1500m");
  CHECK(amount_text("cpu", Amount(2000)) == "2");
  CHECK(amount_text("memory", Amount(testing::Mi)) == "1Mi");
  CHECK(amount_text("memory", Amount(10'240'000)) == "10000Ki");
  CHECK(amount_text("memory", Amount(2'000'000)) == "2M");
  CHECK(amount_text("memory", Amount(3'000'000'000)) == "3G");
  CHECK(amount_text("memory", Amount(1000)) == "1k");
  CHECK(amount_text("memory", Amount(1536)) == "1536");
  CHECK(amount_text("ephemeral-storage", Amount(2 * testing::Gi)) == "2Gi");
  CHECK(amount_text("hugepages-2Mi", Amount(4 * testing::Mi)) == "4Mi");
  CHECK(amount_text("example.com/gpu", Amount(2'000'000)) == "2M");
  CHECK(amount_text("example.com/gpu", Amount(3)) == "3");
  CHECK(amount_text("memory", Amount::unlimited()) == "<unlimited>");
}

}  // namespace gpusched::kueue
