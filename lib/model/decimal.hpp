#pragma once
// Numbers written in text: whole numbers, and fixed-point decimals (prices and scales kept as
// integers of a fixed number of decimals).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpusched {

/// A whole decimal number from `min` to `max`, the text nothing else (a leading '-' is allowed,
/// no '+', no spaces); nullopt otherwise.
[[nodiscard]] std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t min,
                                                        std::int64_t max);

/// "2.5" with 6 decimals -> 2500000. Non-negative, at most `decimals` decimals and 9 digits
/// before the point; nullopt otherwise.
[[nodiscard]] std::optional<std::int64_t> parse_decimal(std::string_view text, int decimals);

/// 2500000 with 6 decimals -> "2.5": no trailing zeros, no point for a whole number.
[[nodiscard]] std::string decimal_text(std::int64_t value, int decimals);

/// A double with `decimals` decimals, as the C locale writes it ("41.30"), whatever the
/// process's locale.
[[nodiscard]] std::string fixed_text(double value, int decimals);

/// 4812 -> "4,812": a count for people, its digits in groups of three.
[[nodiscard]] std::string grouped_count(std::uint64_t count);

}  // namespace gpusched
