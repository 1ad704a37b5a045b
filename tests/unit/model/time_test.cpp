#include "gpusched/model/time.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace gpusched {
namespace {

struct ParseRow {
  std::string text;
  TimeMs ms;
};

TEST_CASE("parse_duration accepts Go duration syntax", "[time]") {
  const std::vector<ParseRow> rows = {
      {"0", 0},
      {"+0", 0},
      {"-0", 0},
      {"0s", 0},
      {"-0s", 0},
      {"1s", 1000},
      {"90s", 90'000},
      {"1m30s", 90'000},
      {"2h", 7'200'000},
      {"1.5s", 1500},
      {"250ms", 250},
      {"1h2m3.5s", 3'723'500},
      {"1.5h", 5'400'000},
      {".5s", 500},
      {"1.s", 1000},
      {"1000000ns", 1},
      {"1000us", 1},
      {"1000\xC2\xB5s", 1},
      {"1000\xCE\xBCs", 1},
      {"0.001s", 1},
      {"1.000000s", 1000},
      {"+5s", 5000},
      {"1h1h", 7'200'000},
      {"0.1m", 6000},
      {"2m0s", 120'000},
      {"0000001s", 1000},
      {"2562047h", 2562047LL * 3'600'000},
      {"9223372036854ms", 9'223'372'036'854},
  };
  for (const ParseRow& row : rows) {
    DYNAMIC_SECTION(row.text) {
      std::string error;
      const auto ms = parse_duration(row.text, &error);
      INFO(error);
      REQUIRE(ms.has_value());
      CHECK(*ms == row.ms);
    }
  }
}

struct ErrorRow {
  std::string text;
  std::string error;
};

TEST_CASE("parse_duration rejects bad durations with Go's words", "[time]") {
  const std::vector<ErrorRow> rows = {
      {"", "time: invalid duration \"\""},
      {"3", "time: missing unit in duration \"3\""},
      {"1.5", "time: missing unit in duration \"1.5\""},
      {"s", "time: invalid duration \"s\""},
      {".s", "time: invalid duration \".s\""},
      {"-", "time: invalid duration \"-\""},
      {"1d", "time: unknown unit \"d\" in duration \"1d\""},
      {"1sec", "time: unknown unit \"sec\" in duration \"1sec\""},
      {"1s ", "time: unknown unit \"s \" in duration \"1s \""},
      {"1h-1m", "time: unknown unit \"h-\" in duration \"1h-1m\""},
      {"-1s", "duration \"-1s\" is negative"},
      {"1.5ms",
       "duration \"1.5ms\" is not a whole number of milliseconds: virtual time counts "
       "milliseconds"},
      {"1ns",
       "duration \"1ns\" is not a whole number of milliseconds: virtual time counts "
       "milliseconds"},
      {"1.0001s",
       "duration \"1.0001s\" is not a whole number of milliseconds: virtual time "
       "counts milliseconds"},
      {"9223372036855ms", "time: invalid duration \"9223372036855ms\""},
      {"2562048h", "time: invalid duration \"2562048h\""},
      {"9223372036854ms1ms", "time: invalid duration \"9223372036854ms1ms\""},
      {"99999999999999999999h", "time: invalid duration \"99999999999999999999h\""},
  };
  for (const ErrorRow& row : rows) {
    DYNAMIC_SECTION("'" << row.text << "'") {
      std::string error;
      CHECK_FALSE(parse_duration(row.text, &error).has_value());
      CHECK(error == row.error);
    }
  }
  CHECK_FALSE(parse_duration("x", nullptr).has_value());
}

struct FormatRow {
  TimeMs ms;
  std::string text;
};

TEST_CASE("parse_time_text refuses negative times in those words", "[time]") {
  struct Row {
    const char* text;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"-1", "negative times are not allowed, got \"-1\""},
      {"-0.5", "negative times are not allowed, got \"-0.5\""},
      {"-1s", "negative times are not allowed, got \"-1s\""},
      {"-2m30s", "negative times are not allowed, got \"-2m30s\""},
      {"-soon", "time: invalid duration \"-soon\""},
      {"--1", "time: invalid duration \"--1\""},
  };
  for (const Row& row : rows) {
    SECTION(row.text) {
      std::string error;
      CHECK_FALSE(parse_time_text(row.text, &error).has_value());
      CHECK(error == row.error);
    }
  }
  std::string error;
  CHECK(parse_time_text("-0", &error) == 0);
  CHECK(parse_time_text("-0s", &error) == 0);
}

TEST_CASE("format_duration is compact and round-trips", "[time]") {
  const std::vector<FormatRow> rows = {
      {0, "0s"},
      {1, "1ms"},
      {90, "90ms"},
      {999, "999ms"},
      {1000, "1s"},
      {1500, "1.5s"},
      {1050, "1.05s"},
      {59'999, "59.999s"},
      {60'000, "1m"},
      {90'000, "1m30s"},
      {600'000, "10m"},
      {60'500, "1m500ms"},
      {61'500, "1m1.5s"},
      {3'600'000, "1h"},
      {3'601'000, "1h1s"},
      {7'500'000, "2h5m"},
      {90'000'000, "25h"},
      {3'723'500, "1h2m3.5s"},
      {9'223'372'036'854, "2562047h47m16.854s"},
  };
  for (const FormatRow& row : rows) {
    DYNAMIC_SECTION(row.text) {
      CHECK(format_duration(row.ms) == row.text);
      std::string error;
      const auto back = parse_duration(format_duration(row.ms), &error);
      REQUIRE(back.has_value());
      CHECK(*back == row.ms);
    }
  }
}

TEST_CASE("parse_rfc3339 reads metav1.Time as the API server writes it", "[time]") {
  struct Row {
    const char* text;
    std::int64_t unix_ms;
  };
  const Row rows[] = {
      {"1970-01-01T00:00:00Z", 0},
      {"2026-11-30T04:05:06Z", 1'796'011'506'000},
      {"2026-11-30T04:05:06.250Z", 1'796'011'506'250},
      {"2026-11-30T04:05:06.250999999Z", 1'796'011'506'250},  // past milliseconds: dropped
      {"2026-11-30T05:05:06+01:00", 1'796'011'506'000},
      {"2026-11-29T23:35:06-04:30", 1'796'011'506'000},
      {"2024-02-29T00:00:00Z", 1'709'164'800'000},  // leap day
      {"1969-12-31T23:59:59Z", -1000},
      {"2026-11-30t04:05:06z", 1'796'011'506'000},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    CHECK(parse_rfc3339(row.text) == row.unix_ms);
  }
}

TEST_CASE("parse_rfc3339 refuses what metav1.Time refuses", "[time]") {
  for (const char* text :
       {"", "2026-11-30", "2026-11-30T04:05:06", "2026-11-30 04:05:06Z", "2026-02-30T00:00:00Z",
        "2026-13-01T00:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T04:60:00Z",
        "2026-11-30T04:05:06.Z", "2026-11-30T04:05:06+0100", "2026-11-30T04:05:06Zjunk",
        "0000-01-01T00:00:00Z", "2026-11-30T04:05:06.1234567890Z", "-026-11-30T04:05:06Z"}) {
    INFO(text);
    CHECK_FALSE(parse_rfc3339(text).has_value());
  }
}

TEST_CASE("format_rfc3339 writes UTC and round-trips", "[time]") {
  CHECK(format_rfc3339(0) == "1970-01-01T00:00:00Z");
  CHECK(format_rfc3339(1'796'011'506'000) == "2026-11-30T04:05:06Z");
  CHECK(format_rfc3339(1'796'011'506'250) == "2026-11-30T04:05:06.250Z");
  CHECK(format_rfc3339(-1) == "1969-12-31T23:59:59.999Z");
  for (std::int64_t ms : {std::int64_t{-86'400'001}, std::int64_t{951'782'400'000},
                          std::int64_t{253'402'300'799'999}}) {
    INFO(ms);
    CHECK(parse_rfc3339(format_rfc3339(ms)) == ms);
  }
}

}  // namespace
}  // namespace gpusched
