#pragma once
/// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource/quantity.go) as exact
/// integer milli-units.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpusched {

/// How a quantity was written; canonical formatting keeps it, as Kubernetes does.
enum class QuantityFormat { DecimalSI, BinarySI, DecimalExponent };

/// A resource quantity held as a signed number of milli-units (1 = 1000 milli).
/// Values finer than a milli-unit round up, as Quantity.MilliValue() does.
class Quantity {
 public:
  constexpr Quantity() = default;
  constexpr explicit Quantity(std::int64_t milli, QuantityFormat format = QuantityFormat::DecimalSI)
      : milli_(milli), format_(format) {}

  /// Parses the full Kubernetes grammar: `<sign><digits>[.<digits>]<suffix>` with suffixes
  /// `n u m "" k M G T P E`, `Ki Mi Gi Ti Pi Ei`, or an exponent `e3`/`E-2`.
  /// Returns nullopt and sets `error` (Kubernetes' words) on a malformed or overflowing value.
  [[nodiscard]] static std::optional<Quantity> parse(std::string_view text, std::string* error);

  /// Whole units, e.g. Quantity(2000) -> 2.
  [[nodiscard]] static Quantity from_units(std::int64_t units,
                                           QuantityFormat format = QuantityFormat::DecimalSI);

  [[nodiscard]] constexpr std::int64_t milli() const noexcept { return milli_; }
  /// Whole units rounded up, as Quantity.Value().
  [[nodiscard]] std::int64_t value() const noexcept;
  [[nodiscard]] constexpr bool is_integer() const noexcept { return milli_ % 1000 == 0; }
  [[nodiscard]] constexpr bool is_zero() const noexcept { return milli_ == 0; }
  [[nodiscard]] constexpr QuantityFormat format() const noexcept { return format_; }

  /// Canonical text as Kubernetes prints it: "500m", "16Gi", "1", "1500", "2k", "1e3".
  [[nodiscard]] std::string to_string() const;

  /// Sum keeping the format of the first non-zero operand (Quantity.Add); saturates instead of
  /// overflowing.
  [[nodiscard]] Quantity plus(const Quantity& other) const noexcept;

  friend constexpr bool operator==(const Quantity& a, const Quantity& b) noexcept {
    return a.milli_ == b.milli_;
  }
  friend constexpr std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) noexcept {
    return a.milli_ <=> b.milli_;
  }

 private:
  std::int64_t milli_ = 0;
  QuantityFormat format_ = QuantityFormat::DecimalSI;
};

}  // namespace gpusched
