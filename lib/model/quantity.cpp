// Mirrors k8s.io/apimachinery/pkg/api/resource/{quantity.go,suffix.go,amount.go}: the same
// scanner, suffix table, round-up rule and canonical formatting, but held as int64 milli-units
// instead of inf.Dec, so everything finer than a milli-unit rounds up to the next milli-unit
// (upstream keeps nano precision: "1n" prints "1n" there and "1m" here).
#include "gpusched/model/quantity.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace gpusched {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// quantity.go's splitREString, quoted by ErrFormatWrong.
constexpr std::string_view kErrFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kErrSuffix = "unable to parse quantity's suffix";

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

void set_error(std::string* error, std::string text) {
  if (error != nullptr) *error = std::move(text);
}

// parseQuantityString's result.
struct Scanned {
  bool positive = true;
  std::string_view num;    // integer digits, leading zeros stripped ("0" when none)
  std::string_view denom;  // fraction digits
  std::string_view suffix;
};

// parseQuantityString: sign, digits, optional fraction, then suffix letters from
// "eEinumkKMGTP", an optional sign and digits. Anything left over is ErrFormatWrong.
bool scan(std::string_view str, Scanned& out) {
  std::size_t pos = 0;
  const std::size_t end = str.size();
  if (pos < end && (str[0] == '-' || str[0] == '+')) {
    out.positive = str[0] != '-';
    ++pos;
  }
  while (pos < end && str[pos] == '0') ++pos;
  if (pos >= end) {  // nothing but a sign and zeros: zero
    out.num = "0";
    return true;
  }
  std::size_t start = pos;
  while (pos < end && is_digit(str[pos])) ++pos;
  out.num = pos == start ? std::string_view("0") : str.substr(start, pos - start);
  if (pos < end && str[pos] == '.') {
    start = ++pos;
    while (pos < end && is_digit(str[pos])) ++pos;
    out.denom = str.substr(start, pos - start);
  }
  const std::size_t suffix_start = pos;
  while (pos < end && std::string_view("eEinumkKMGTP").find(str[pos]) != std::string_view::npos) {
    ++pos;
  }
  if (pos < end && (str[pos] == '-' || str[pos] == '+')) ++pos;
  while (pos < end && is_digit(str[pos])) ++pos;
  if (pos < end) return false;
  out.suffix = str.substr(suffix_start);
  return true;
}

struct Interpreted {
  int base = 10;
  std::int64_t exponent = 0;
  QuantityFormat format = QuantityFormat::DecimalSI;
};

// suffixer.interpret. An exponent beyond int32 is refused, as upstream now does (quantity_test.go
// TestInterpretExponentInt32Bounds) instead of silently truncating it.
bool interpret(std::string_view s, Interpreted& out) {
  struct Entry {
    std::string_view suffix;
    int base;
    int exponent;
  };
  static constexpr Entry kTable[] = {
      {"", 10, 0},   {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},  {"M", 10, 6},
      {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18}, {"Ki", 2, 10}, {"Mi", 2, 20},
      {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60},
  };
  for (const Entry& e : kTable) {
    if (e.suffix == s) {
      out = {e.base, e.exponent,
             e.base == 2 ? QuantityFormat::BinarySI : QuantityFormat::DecimalSI};
      return true;
    }
  }
  if (s.size() < 2 || (s[0] != 'e' && s[0] != 'E')) return false;
  // strconv.ParseInt(s[1:], 10, 64) with the int32 bound applied.
  std::string_view digits = s.substr(1);
  bool negative = false;
  if (digits[0] == '+' || digits[0] == '-') {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return false;
  std::int64_t value = 0;
  for (char c : digits) {
    if (!is_digit(c)) return false;
    value = value * 10 + (c - '0');
    if (value > std::numeric_limits<std::int32_t>::max()) return false;
  }
  out = {10, negative ? -value : value, QuantityFormat::DecimalExponent};
  return true;
}

/// The common forms, digits and a suffix of the table (no sign, fraction or exponent), in integer
/// arithmetic: what the general path gives for them without its digit strings, which double
/// twenty times for "Mi". Nullopt leaves the text to the general path (and its errors).
std::optional<Quantity> parse_plain(std::string_view text) {
  constexpr std::size_t kMaxDigits = 15;  // below 10^15: a product's overflow is checked below
  std::size_t digits = 0;
  std::int64_t units = 0;
  while (digits < text.size() && is_digit(text[digits])) {
    if (digits == kMaxDigits) return std::nullopt;
    units = units * 10 + (text[digits] - '0');
    ++digits;
  }
  const std::string_view rest = text.substr(digits);
  Interpreted suffix;
  if (digits == 0 || rest.size() > 2 || !interpret(rest, suffix) ||
      suffix.format == QuantityFormat::DecimalExponent)
    return std::nullopt;
  std::int64_t factor = 1000;  // milli per unit
  if (suffix.base == 10) {
    if (suffix.exponent < -3) return std::nullopt;  // n, u: rounded by the general path
    factor = 1;
    for (std::int64_t i = 0; i < suffix.exponent + 3; ++i) {
      if (__builtin_mul_overflow(factor, std::int64_t{10}, &factor)) return std::nullopt;
    }
  } else {
    for (std::int64_t i = 0; i < suffix.exponent; ++i) {
      if (__builtin_mul_overflow(factor, std::int64_t{2}, &factor)) return std::nullopt;
    }
  }
  std::int64_t milli = 0;
  if (__builtin_mul_overflow(units, factor, &milli)) return std::nullopt;
  QuantityFormat format = suffix.format;
  if (format == QuantityFormat::BinarySI && milli != 0 && milli < 1000) {
    format = QuantityFormat::DecimalSI;
  }
  return Quantity(milli, format);
}

// Multiplies a decimal digit string by 2, in place.
void double_digits(std::string& digits) {
  int carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const int d = (*it - '0') * 2 + carry;
    *it = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  if (carry != 0) digits.insert(digits.begin(), static_cast<char>('0' + carry));
}

// ceil(digits * 10^shift) for a non-negative decimal digit string; nullopt past int64.
std::optional<std::int64_t> scale_round_up(std::string_view digits, std::int64_t shift) {
  const auto first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return 0;
  digits.remove_prefix(first);
  std::string_view whole = digits;
  bool remainder = false;
  if (shift < 0) {
    const auto drop = static_cast<std::uint64_t>(-shift);
    if (drop >= digits.size()) {
      whole = {};
      remainder = true;  // non-zero digits all fall below the milli-unit
    } else {
      whole = digits.substr(0, digits.size() - drop);
      remainder = digits.substr(whole.size()).find_first_not_of('0') != std::string_view::npos;
    }
    shift = 0;
  }
  std::int64_t value = 0;
  for (char c : whole) {
    if (value > (kMax - (c - '0')) / 10) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  for (std::int64_t i = 0; i < shift; ++i) {
    if (value > kMax / 10) return std::nullopt;
    value *= 10;
  }
  if (remainder) {
    if (value == kMax) return std::nullopt;
    ++value;
  }
  return value;
}

// Suffix for a power of ten that is a multiple of 3 (suffix.go's decimal table).
std::string_view decimal_suffix(std::int64_t exponent) {
  switch (exponent) {
    case -3:
      return "m";
    case 3:
      return "k";
    case 6:
      return "M";
    case 9:
      return "G";
    case 12:
      return "T";
    case 15:
      return "P";
    case 18:
      return "E";
    default:
      return "";
  }
}

std::string_view binary_suffix(int exponent) {
  static constexpr std::string_view kSuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  return kSuffixes[exponent];
}

std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

}  // namespace

std::optional<Quantity> Quantity::parse(std::string_view text, std::string* error) {
  // Values reach us from JSON, where Quantity.UnmarshalJSON trims surrounding white space
  // before ParseQuantity.
  const auto first = text.find_first_not_of(" \t\n\v\f\r");
  text = first == std::string_view::npos
             ? std::string_view()
             : text.substr(first, text.find_last_not_of(" \t\n\v\f\r") - first + 1);
  if (text.empty()) {
    set_error(error, std::string(kErrFormatWrong));
    return std::nullopt;
  }
  if (std::optional<Quantity> plain = parse_plain(text)) return plain;
  Scanned scanned;
  if (!scan(text, scanned)) {
    set_error(error, std::string(kErrFormatWrong));
    return std::nullopt;
  }
  Interpreted suffix;
  if (!interpret(scanned.suffix, suffix)) {
    set_error(error, std::string(kErrSuffix));
    return std::nullopt;
  }
  std::string digits(scanned.num);
  digits += scanned.denom;
  std::int64_t shift = 3 - static_cast<std::int64_t>(scanned.denom.size());
  if (suffix.base == 10) {
    shift += suffix.exponent;
  } else {
    for (std::int64_t i = 0; i < suffix.exponent; ++i) double_digits(digits);
  }
  const std::optional<std::int64_t> milli = scale_round_up(digits, shift);
  if (!milli) {
    set_error(error, "quantity \"" + std::string(text) +
                         "\" is too large: gpusched holds at most 9223372036854775807m");
    return std::nullopt;
  }
  QuantityFormat format = suffix.format;
  // A binary quantity strictly between -1 and 1 switches to DecimalSI, as ParseQuantity does.
  if (format == QuantityFormat::BinarySI && *milli != 0 && *milli < 1000) {
    format = QuantityFormat::DecimalSI;
  }
  return Quantity(scanned.positive ? *milli : -*milli, format);
}

Quantity Quantity::from_units(std::int64_t units, QuantityFormat format) {
  if (units > kMax / 1000) return Quantity(kMax, format);
  if (units < kMin / 1000) return Quantity(kMin, format);
  return Quantity(units * 1000, format);
}

std::int64_t Quantity::value() const noexcept {
  // ScaledValue(0): rounds away from zero.
  const std::int64_t whole = milli_ / 1000;
  if (milli_ % 1000 == 0) return whole;
  return milli_ > 0 ? whole + 1 : whole - 1;
}

std::string Quantity::to_string() const {
  if (milli_ == 0) return "0";
  const bool negative = milli_ < 0;
  std::uint64_t mantissa = magnitude(milli_);
  std::string sign = negative ? "-" : "";

  QuantityFormat format = format_;
  // CanonicalizeBytes: BinarySI only for whole values of magnitude 1024 and up.
  if (format == QuantityFormat::BinarySI && (mantissa < 1024 * 1000 || mantissa % 1000 != 0)) {
    format = QuantityFormat::DecimalSI;
  }
  if (format == QuantityFormat::BinarySI) {
    std::uint64_t units = mantissa / 1000;
    int exponent = 0;
    while (units % 1024 == 0 && exponent < 6) {
      units /= 1024;
      ++exponent;
    }
    return sign + std::to_string(units) + std::string(binary_suffix(exponent));
  }
  // AsCanonicalBytes: move factors of ten into the exponent, then lower the exponent back to a
  // multiple of three. The milli exponent (-3) is the floor, so no fractional digits appear.
  std::int64_t exponent = -3;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  while (exponent % 3 != 0) {
    mantissa *= 10;
    --exponent;
  }
  std::string suffix;
  if (format == QuantityFormat::DecimalExponent) {
    if (exponent != 0) suffix = "e" + std::to_string(exponent);
  } else {
    suffix = decimal_suffix(exponent);
  }
  return sign + std::to_string(mantissa) + suffix;
}

Quantity Quantity::plus(const Quantity& other) const noexcept {
  // Quantity.Add: a zero receiver takes the other operand's format.
  const QuantityFormat format = milli_ == 0 ? other.format_ : format_;
  std::int64_t sum = 0;
  if (__builtin_add_overflow(milli_, other.milli_, &sum)) sum = other.milli_ > 0 ? kMax : kMin;
  return Quantity(sum, format);
}

}  // namespace gpusched
