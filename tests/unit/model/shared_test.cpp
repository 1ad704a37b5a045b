// Shared<T>: copies share one value until one of them is written.
#include "gpusched/model/shared.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "gpusched/model/object_meta.hpp"

namespace gpusched {
namespace {

TEST_CASE("copies share a value until one is written", "[model][shared]") {
  Labels a{{"app", "web"}};
  Labels b = a;
  CHECK(b.shares(a));
  b["tier"] = "front";  // a map's operator[] writes: b gets its own copy first
  CHECK_FALSE(b.shares(a));
  CHECK(a.size() == 1);
  CHECK(b.size() == 2);
  CHECK(b.at("tier") == "front");
  CHECK(a.find("tier") == a.end());
  Labels c = a;
  CHECK(c == a);
  CHECK_FALSE(c == b);
  c.erase("app");
  CHECK(c.empty());
  CHECK(a.contains("app"));
}

TEST_CASE("an empty Shared reads as an empty value and mut() gives it one", "[model][shared]") {
  Shared<std::vector<int>> v;
  CHECK(v.empty());
  CHECK(v.begin() == v.end());
  Shared<std::vector<int>> w = v;
  v.push_back(1);
  CHECK(v.size() == 1);
  CHECK(w.empty());
  w.mut().push_back(2);
  CHECK(w.front() == 2);
  CHECK(v.front() == 1);
  v.clear();
  CHECK(v.empty());
  CHECK(v == Shared<std::vector<int>>{});
}

TEST_CASE("a SharedOptional reads as an optional; copies share it until one is written",
          "[model][shared]") {
  SharedOptional<std::vector<int>> none;
  CHECK_FALSE(none);
  CHECK_FALSE(none.has_value());
  CHECK(none == SharedOptional<std::vector<int>>{std::nullopt});
  SharedOptional<std::vector<int>> a = std::vector<int>{1};
  REQUIRE(a);
  CHECK(a->size() == 1);
  CHECK_FALSE(a == none);
  SharedOptional<std::vector<int>> b = a;
  b.mut().push_back(2);  // b's own copy: a keeps its value
  CHECK(a->size() == 1);
  CHECK(*b == std::vector<int>{1, 2});
  CHECK_FALSE(a == b);
  CHECK(SharedOptional<std::vector<int>>(std::vector<int>{1}) == a);  // equal values, not shared
  b.emplace(3, 7);
  CHECK(*b == std::vector<int>(3, 7));
  b.reset();
  CHECK_FALSE(b);
  CHECK(a->front() == 1);
}

TEST_CASE("JSON sees a Shared value as the value", "[model][shared]") {
  Labels labels{{"a", "1"}, {"b", "2"}};
  const nlohmann::json json = labels;
  CHECK(json == nlohmann::json{{"a", "1"}, {"b", "2"}});
  Labels back = json.get<Labels>();
  CHECK(back == labels);
}

}  // namespace
}  // namespace gpusched
