#include "gpusched/model/quantity.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gpusched {
namespace {

constexpr std::string_view kFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kSuffix = "unable to parse quantity's suffix";

Quantity must_parse(std::string_view text) {
  std::string error;
  const auto q = Quantity::parse(text, &error);
  INFO(text << ": " << error);
  REQUIRE(q.has_value());
  return *q;
}

struct ParseRow {
  std::string input;
  std::int64_t milli;
  QuantityFormat format;
  std::string canonical;
};

TEST_CASE("Quantity::parse values, formats and canonical text", "[model][quantity]") {
  using F = QuantityFormat;
  // Rows from apimachinery quantity_test.go TestQuantityParse / TestQuantityParseEmit /
  // TestQuantityString, converted to milli-units (upstream keeps nano precision; here anything
  // finer than 1m rounds up to 1m).
  const std::vector<ParseRow> rows = {
      {"0", 0, F::DecimalSI, "0"},
      {"0n", 0, F::DecimalSI, "0"},
      {"0u", 0, F::DecimalSI, "0"},
      {"0m", 0, F::DecimalSI, "0"},
      {"0Ki", 0, F::BinarySI, "0"},
      {"0k", 0, F::DecimalSI, "0"},
      {"0Mi", 0, F::BinarySI, "0"},
      {"0Gi", 0, F::BinarySI, "0"},
      {"0Ti", 0, F::BinarySI, "0"},
      {"0T", 0, F::DecimalSI, "0"},
      {"1", 1000, F::DecimalSI, "1"},
      {"1Ki", 1024'000, F::BinarySI, "1Ki"},
      {"8Ki", 8 * 1024'000, F::BinarySI, "8Ki"},
      {"7Mi", 7LL * 1024 * 1024'000, F::BinarySI, "7Mi"},
      {"6Gi", 6LL * 1024 * 1024 * 1024'000, F::BinarySI, "6Gi"},
      {"5Ti", 5LL * 1024 * 1024 * 1024 * 1024'000, F::BinarySI, "5Ti"},
      {"4Pi", 4LL * 1024 * 1024 * 1024 * 1024 * 1024'000, F::BinarySI, "4Pi"},
      {"10Ti", 10LL * 1024 * 1024 * 1024 * 1024'000, F::BinarySI, "10Ti"},
      {"100Ti", 100LL * 1024 * 1024 * 1024 * 1024'000, F::BinarySI, "100Ti"},
      {"5n", 1, F::DecimalSI, "1m"},
      {"4u", 1, F::DecimalSI, "1m"},
      {"3m", 3, F::DecimalSI, "3m"},
      {"9", 9000, F::DecimalSI, "9"},
      {"8k", 8'000'000, F::DecimalSI, "8k"},
      {"50k", 50'000'000, F::DecimalSI, "50k"},
      {"7M", 7'000'000'000, F::DecimalSI, "7M"},
      {"6G", 6'000'000'000'000, F::DecimalSI, "6G"},
      {"5T", 5'000'000'000'000'000, F::DecimalSI, "5T"},
      {"40T", 40'000'000'000'000'000, F::DecimalSI, "40T"},
      {"300T", 300'000'000'000'000'000, F::DecimalSI, "300T"},
      {"2P", 2'000'000'000'000'000'000, F::DecimalSI, "2P"},
      {"1E-3", 1, F::DecimalExponent, "1e-3"},
      {"1e3", 1'000'000, F::DecimalExponent, "1e3"},
      {"1E6", 1'000'000'000, F::DecimalExponent, "1e6"},
      {"1e9", 1'000'000'000'000, F::DecimalExponent, "1e9"},
      {"1E12", 1'000'000'000'000'000, F::DecimalExponent, "1e12"},
      {"1e15", 1'000'000'000'000'000'000, F::DecimalExponent, "1e15"},
      {"1e14", 100'000'000'000'000'000, F::DecimalExponent, "100e12"},
      {"1e13", 10'000'000'000'000'000, F::DecimalExponent, "10e12"},
      {"100.035k", 100'035'000, F::DecimalSI, "100035"},
      {"0.001", 1, F::DecimalSI, "1m"},
      {"0.0005k", 500, F::DecimalSI, "500m"},
      {"0.005", 5, F::DecimalSI, "5m"},
      {"0.05", 50, F::DecimalSI, "50m"},
      {"0.5", 500, F::DecimalSI, "500m"},
      {"0.00050k", 500, F::DecimalSI, "500m"},
      {"0.00500", 5, F::DecimalSI, "5m"},
      {"0.05000", 50, F::DecimalSI, "50m"},
      {"0.50000", 500, F::DecimalSI, "500m"},
      {"0.5e0", 500, F::DecimalExponent, "500e-3"},
      {"0.5e-1", 50, F::DecimalExponent, "50e-3"},
      {"0.5e-2", 5, F::DecimalExponent, "5e-3"},
      {"10.035M", 10'035'000'000, F::DecimalSI, "10035k"},
      {"1.2e3", 1'200'000, F::DecimalExponent, "1200"},
      {"1.3E+6", 1'300'000'000, F::DecimalExponent, "1300e3"},
      {"1.40e9", 1'400'000'000'000, F::DecimalExponent, "1400e6"},
      {"1.53E12", 1'530'000'000'000'000, F::DecimalExponent, "1530e9"},
      {"1.6e15", 1'600'000'000'000'000'000, F::DecimalExponent, "1600e12"},
      {"9.01", 9010, F::DecimalSI, "9010m"},
      {"8.1k", 8'100'000, F::DecimalSI, "8100"},
      {"7.123456M", 7'123'456'000, F::DecimalSI, "7123456"},
      {"6.987654321G", 6'987'654'321'000, F::DecimalSI, "6987654321"},
      {"5.444T", 5'444'000'000'000'000, F::DecimalSI, "5444G"},
      {"40.1T", 40'100'000'000'000'000, F::DecimalSI, "40100G"},
      {"300.2T", 300'200'000'000'000'000, F::DecimalSI, "300200G"},
      {"2.5P", 2'500'000'000'000'000'000, F::DecimalSI, "2500T"},
      // Things that round up (upstream to 1n, here to 1m).
      {"3.001n", 1, F::DecimalSI, "1m"},
      {"1.1E-9", 1, F::DecimalExponent, "1e-3"},
      {"0.0000000001", 1, F::DecimalSI, "1m"},
      {"0.0000000005", 1, F::DecimalSI, "1m"},
      {"0.00000000050", 1, F::DecimalSI, "1m"},
      {"0.5e-9", 1, F::DecimalExponent, "1e-3"},
      {"0.9n", 1, F::DecimalSI, "1m"},
      {"0.00000012345", 1, F::DecimalSI, "1m"},
      {"1.0001", 1001, F::DecimalSI, "1001m"},
      {"0.1m", 1, F::DecimalSI, "1m"},
      {"1n", 1, F::DecimalSI, "1m"},
      // Fractional binary values.
      {"100.035Ki", 102'435'840, F::BinarySI, "102435840m"},
      {"0.5Mi", 524'288'000, F::BinarySI, "512Ki"},
      {"0.05Gi", 53'687'091'200, F::BinarySI, "53687091200m"},
      {"0.025Ti", 27'487'790'694'400, F::BinarySI, "27487790694400m"},
      // "Things written by trolls".
      {"0.000000000001Ki", 1, F::DecimalSI, "1m"},
      {".001", 1, F::DecimalSI, "1m"},
      {".0001k", 100, F::DecimalSI, "100m"},
      {"1.", 1000, F::DecimalSI, "1"},
      {"1.G", 1'000'000'000'000, F::DecimalSI, "1G"},
      {".", 0, F::DecimalSI, "0"},
      {"-", 0, F::DecimalSI, "0"},
      // TestQuantityParseEmit.
      {"1Mi", 1024LL * 1024'000, F::BinarySI, "1Mi"},
      {"1Gi", 1024LL * 1024 * 1024'000, F::BinarySI, "1Gi"},
      {"1024Mi", 1024LL * 1024 * 1024'000, F::BinarySI, "1Gi"},
      {"1000M", 1'000'000'000'000, F::DecimalSI, "1G"},
      {".001Ki", 1024, F::BinarySI, "1024m"},
      // The brief's examples and everyday values.
      {"500m", 500, F::DecimalSI, "500m"},
      {"1.5", 1500, F::DecimalSI, "1500m"},
      {"1500", 1'500'000, F::DecimalSI, "1500"},
      {"1000", 1'000'000, F::DecimalSI, "1k"},
      {"2000000", 2'000'000'000, F::DecimalSI, "2M"},
      {"16Gi", 16LL * 1024 * 1024 * 1024'000, F::BinarySI, "16Gi"},
      {"1.5Gi", 1536LL * 1024 * 1024'000, F::BinarySI, "1536Mi"},
      {"1536", 1'536'000, F::DecimalSI, "1536"},
      {"100m", 100, F::DecimalSI, "100m"},
      {"+8", 8000, F::DecimalSI, "8"},
      {"-1", -1000, F::DecimalSI, "-1"},
      {"-500m", -500, F::DecimalSI, "-500m"},
      {"-1Gi", -1024LL * 1024 * 1024'000, F::BinarySI, "-1Gi"},
      {"-1.5Gi", -1536LL * 1024 * 1024'000, F::BinarySI, "-1536Mi"},
      {"1025Mi", 1025LL * 1024 * 1024'000, F::BinarySI, "1025Mi"},
      {" 2 ", 2000, F::DecimalSI, "2"},  // UnmarshalJSON trims white space
  };
  for (const ParseRow& row : rows) {
    DYNAMIC_SECTION(row.input) {
      const Quantity q = must_parse(row.input);
      CHECK(q.milli() == row.milli);
      CHECK(q.format() == row.format);
      CHECK(q.to_string() == row.canonical);
      // Canonical text parses back to the same value and text.
      const Quantity again = must_parse(q.to_string());
      CHECK(again == q);
      CHECK(again.to_string() == row.canonical);
    }
  }
}

struct ErrorRow {
  std::string input;
  std::string_view error;
};

TEST_CASE("Quantity::parse rejects malformed text in Kubernetes' words", "[model][quantity]") {
  // Invalid inputs from TestQuantityParse, with the error each hits in ParseQuantity.
  const std::vector<ErrorRow> rows = {
      {"", kFormatWrong},
      {"1.1.M", kFormatWrong},
      {"1+1.0M", kFormatWrong},
      {"0.1mi", kSuffix},
      {"0.1am", kFormatWrong},
      {"aoeu", kFormatWrong},
      {".5i", kSuffix},
      {"1i", kSuffix},
      {"-3.01i", kSuffix},
      {"-3.01e-", kSuffix},
      {"1e4294967297", kSuffix},
      {"1e", kSuffix},
      {"10mm", kSuffix},
      {"1GG", kSuffix},
      {"200i", kSuffix},
      {"1ki", kSuffix},
      {"1KB", kFormatWrong},
      {"1 Gi", kFormatWrong},
      {"Non-Numeric", kFormatWrong},
      {"1a", kFormatWrong},
  };
  for (const ErrorRow& row : rows) {
    DYNAMIC_SECTION("'" << row.input << "'") {
      std::string error;
      CHECK_FALSE(Quantity::parse(row.input, &error).has_value());
      CHECK(error == row.error);
    }
  }
}

TEST_CASE("Quantity::parse refuses values beyond int64 milli-units", "[model][quantity]") {
  const std::vector<std::string> rows = {
      "1E",   "12E", "1.01E", "9Ei", "3Ei", "9223372036854775807Ki", "9223372036854776",
      "1e16", "-1E"};
  for (const std::string& input : rows) {
    DYNAMIC_SECTION(input) {
      std::string error;
      CHECK_FALSE(Quantity::parse(input, &error).has_value());
      CHECK(error ==
            "quantity \"" + input + "\" is too large: gpusched holds at most 9223372036854775807m");
    }
  }
  SECTION("the largest value that fits") {
    const Quantity q = must_parse("9223372036854775807m");
    CHECK(q.milli() == std::numeric_limits<std::int64_t>::max());
    CHECK(q.to_string() == "9223372036854775807m");
  }
  SECTION("a null error pointer is allowed") {
    CHECK_FALSE(Quantity::parse("x", nullptr));
  }
}

struct StringRow {
  std::string name;
  Quantity q;
  std::string text;
};

TEST_CASE("Quantity::to_string canonical forms", "[model][quantity]") {
  using F = QuantityFormat;
  // TestQuantityString rows representable in milli-units.
  const std::vector<StringRow> rows = {
      {"1Gi", Quantity(1024LL * 1024 * 1024'000, F::BinarySI), "1Gi"},
      {"300Mi", Quantity(300LL * 1024 * 1024'000, F::BinarySI), "300Mi"},
      {"6Ki", Quantity(6 * 1024'000, F::BinarySI), "6Ki"},
      {"1001Gi", Quantity(1001LL * 1024 * 1024 * 1024'000, F::BinarySI), "1001Gi"},
      {"1Ti", Quantity(1024LL * 1024 * 1024 * 1024'000, F::BinarySI), "1Ti"},
      {"binary 5", Quantity(5000, F::BinarySI), "5"},
      {"binary 500m", Quantity(500, F::BinarySI), "500m"},
      {"1G", Quantity(1'000'000'000'000, F::DecimalSI), "1G"},
      {"1m", Quantity(1, F::DecimalSI), "1m"},
      {"80m", Quantity(80, F::DecimalSI), "80m"},
      {"1080m", Quantity(1080, F::DecimalSI), "1080m"},
      {"300M", Quantity(300'000'000'000, F::DecimalSI), "300M"},
      {"1T", Quantity(1'000'000'000'000'000, F::DecimalSI), "1T"},
      {"1234567M", Quantity(1'234'567'000'000'000, F::DecimalSI), "1234567M"},
      {"binary 1234567m", Quantity(1'234'567, F::BinarySI), "1234567m"},
      {"3k", Quantity(3'000'000, F::DecimalSI), "3k"},
      {"binary 1025", Quantity(1'025'000, F::BinarySI), "1025"},
      {"binary 2000", Quantity(2'000'000, F::BinarySI), "2000"},
      {"binary -2000", Quantity(-2'000'000, F::BinarySI), "-2000"},
      {"binary -1024", Quantity(-1'024'000, F::BinarySI), "-1Ki"},
      {"binary 1023", Quantity(1'023'000, F::BinarySI), "1023"},
      {"zero decimal", Quantity(0, F::DecimalSI), "0"},
      {"zero binary", Quantity(0, F::BinarySI), "0"},
      {"zero exponent", Quantity(0, F::DecimalExponent), "0"},
      {"1e9", Quantity(1'000'000'000'000, F::DecimalExponent), "1e9"},
      {"1e-3", Quantity(1, F::DecimalExponent), "1e-3"},
      {"80e-3", Quantity(80, F::DecimalExponent), "80e-3"},
      {"300e6", Quantity(300'000'000'000, F::DecimalExponent), "300e6"},
      {"1e12", Quantity(1'000'000'000'000'000, F::DecimalExponent), "1e12"},
      {"3e3", Quantity(3'000'000, F::DecimalExponent), "3e3"},
      {"-9010m (TestQuantityNeg)", Quantity(-9010, F::DecimalSI), "-9010m"},
      {"most negative", Quantity(std::numeric_limits<std::int64_t>::min(), F::DecimalSI),
       "-9223372036854775808m"},
  };
  for (const StringRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(row.q.to_string() == row.text);
    }
  }
}

TEST_CASE("Quantity::value rounds away from zero", "[model][quantity]") {
  CHECK(must_parse("1500m").value() == 2);
  CHECK(must_parse("2").value() == 2);
  CHECK(must_parse("1m").value() == 1);
  CHECK(must_parse("-1500m").value() == -2);
  CHECK(must_parse("0").value() == 0);
  CHECK(must_parse("1.5").is_integer() == false);
  CHECK(must_parse("3").is_integer());
  CHECK(Quantity().is_zero());
}

TEST_CASE("Quantity::from_units", "[model][quantity]") {
  CHECK(Quantity::from_units(2).milli() == 2000);
  CHECK(Quantity::from_units(2).format() == QuantityFormat::DecimalSI);
  CHECK(Quantity::from_units(1024, QuantityFormat::BinarySI).to_string() == "1Ki");
  CHECK(Quantity::from_units(std::numeric_limits<std::int64_t>::max()).milli() ==
        std::numeric_limits<std::int64_t>::max());
  CHECK(Quantity::from_units(std::numeric_limits<std::int64_t>::min()).milli() ==
        std::numeric_limits<std::int64_t>::min());
}

struct PlusRow {
  std::string name;
  std::string a;
  std::string b;
  std::string sum;
};

TEST_CASE("Quantity::plus keeps the first non-zero operand's format", "[model][quantity]") {
  const std::vector<PlusRow> rows = {
      // TestQuantityAddZeroPreservesSuffix.
      {"100m + 0", "100m", "0", "100m"},
      {"0 + 100m", "0", "100m", "100m"},
      {"1Gi + 0", "1Gi", "0", "1Gi"},
      {"0 + 1Gi", "0", "1Gi", "1Gi"},
      {"binary + decimal", "1Ki", "1024", "2Ki"},
      {"decimal + binary", "1024", "1Ki", "2048"},
      {"milli sums", "500m", "1500m", "2"},
      {"binary sums", "512Mi", "512Mi", "1Gi"},
      {"negative", "1", "-3", "-2"},
  };
  for (const PlusRow& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(must_parse(row.a).plus(must_parse(row.b)).to_string() == row.sum);
    }
  }
  SECTION("zero binary plus decimal takes the decimal format") {
    const Quantity zero(0, QuantityFormat::BinarySI);
    CHECK(zero.plus(must_parse("2k")).format() == QuantityFormat::DecimalSI);
  }
  SECTION("saturates") {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    CHECK(Quantity(kMax).plus(Quantity(1)).milli() == kMax);
    CHECK(Quantity(kMin).plus(Quantity(-1)).milli() == kMin);
    CHECK(Quantity(kMax).plus(Quantity(-1)).milli() == kMax - 1);
  }
}

TEST_CASE("Quantity comparison ignores format", "[model][quantity]") {
  // TestQuantityCmp.
  CHECK(must_parse("0") == must_parse("0"));
  CHECK(must_parse("100m") > must_parse("50m"));
  CHECK(must_parse("50m") < must_parse("100m"));
  CHECK(must_parse("9000T") > must_parse("100Gi"));
  CHECK(must_parse("1Ki") == must_parse("1024"));
  CHECK(must_parse("1k") != must_parse("1Ki"));
}

}  // namespace
}  // namespace gpusched

namespace gpusched {
namespace {

TEST_CASE("Quantity: plain digits and a suffix parse as the general path does",
          "[model][quantity]") {
  // A leading '+' sends the same text down the general (decimal string) path.
  const std::vector<std::string> numbers = {
      "0",    "1",    "7",    "10",   "100", "500",  "999",
      "1000", "1023", "1024", "0007", "110", "4096", "123456789012345"};
  const std::vector<std::string> suffixes = {"",   "n",  "u",  "m",  "k",  "M",  "G",
                                             "T",  "P",  "E",  "Ki", "Mi", "Gi", "Ti",
                                             "Pi", "Ei", "e3", "E2", "x",  "mi", "KI"};
  for (const std::string& number : numbers) {
    for (const std::string& suffix : suffixes) {
      const std::string text = number + suffix;
      INFO(text);
      std::string plain_error;
      std::string general_error;
      const std::optional<Quantity> plain = Quantity::parse(text, &plain_error);
      const std::optional<Quantity> general = Quantity::parse("+" + text, &general_error);
      REQUIRE(plain.has_value() == general.has_value());
      if (plain) {
        CHECK(plain->milli() == general->milli());
        CHECK(plain->format() == general->format());
        CHECK(plain->to_string() == general->to_string());
      } else {
        // The same error; one that quotes the text quotes it with the '+'.
        if (const auto at = general_error.find("\"+"); at != std::string::npos)
          general_error.erase(at + 1, 1);
        CHECK(plain_error == general_error);
      }
    }
  }
}

}  // namespace
}  // namespace gpusched
