#include "kueue/amount.hpp"

namespace gpusched::kueue {

namespace {

// Kueue's ResourceFormatter prints these in binary units (resource_formatter.go).
bool binary_formatted(std::string_view resource) {
  return resource == "memory" || resource == "ephemeral-storage" ||
         resource.starts_with("hugepages-");
}

}  // namespace

Amount Amount::from_quantity(std::string_view resource, const Quantity& q) {
  // A Quantity holds milli-units in an int64, so no value reaches AmountFromQuantity's
  // Unlimited thresholds (MaxInt64/1000 cpu, MaxInt64 other units) except CPU at its very top.
  if (resource == "cpu") return q.milli() >= kMax / 1000 * 1000 ? unlimited() : Amount(q.milli());
  return Amount(q.value());
}

Quantity amount_quantity(std::string_view resource, Amount a) {
  if (resource == "cpu") return Quantity(a.value());
  const std::int64_t v = a.value();
  if (!binary_formatted(resource)) return Quantity::from_units(v, QuantityFormat::DecimalSI);
  // newCanonicalQuantity: the BinarySI quantity's text is parsed again, so a value that prints
  // without a binary suffix (under 1024, or not a whole multiple of 1024) reads as DecimalSI:
  // 2000000 bytes print "2M", not "2000000".
  const bool binary_suffix = (v >= 1024 || v <= -1024) && v % 1024 == 0;
  return Quantity::from_units(v,
                              binary_suffix ? QuantityFormat::BinarySI : QuantityFormat::DecimalSI);
}

std::string amount_text(std::string_view resource, Amount a) {
  if (a.is_unlimited()) return "<unlimited>";
  return amount_quantity(resource, a).to_string();
}

}  // namespace gpusched::kueue
