// Shared<T>: copies share one value until one of them is written.
#include "gpusched/model/shared.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <sstream>
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

TEST_CASE("a shared value is a pointer; the last owner of a value frees it", "[model][shared]") {
  // Every Shared and SharedOptional field of a pod is one pointer (a million-pod replay holds a
  // dozen of them per pod, twice).
  STATIC_REQUIRE(sizeof(Shared<std::vector<int>>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(SharedOptional<std::string>) == sizeof(void*));
  STATIC_REQUIRE(sizeof(SharedText) == sizeof(void*));
  Shared<std::vector<int>> a = std::vector<int>{1, 2};
  auto b = std::make_unique<Shared<std::vector<int>>>(a);
  Shared<std::vector<int>> c = std::move(*b);  // moves the pointer: still one value, two owners
  b.reset();
  CHECK(c.shares(a));
  c.mut().push_back(3);  // another owner: c copies first
  CHECK_FALSE(c.shares(a));
  CHECK(a.size() == 2);
  const std::vector<int>* before = &a.get();
  a.mut().push_back(4);  // the only owner now: written in place
  CHECK(&a.get() == before);
  CHECK(a.get() == std::vector<int>{1, 2, 4});
  a = c;  // a's old value had no other owner: freed here (AddressSanitizer sees a leak otherwise)
  CHECK(a.shares(c));
  CHECK(a.get() == std::vector<int>{1, 2, 3});
}

TEST_CASE("a SharedText reads, compares, joins and prints as its string", "[model][shared]") {
  SharedText empty;
  CHECK(empty.empty());
  CHECK(empty == "");
  SharedText name = "default-scheduler";
  const SharedText copy = name;
  CHECK(copy.shares(name));
  CHECK(name == "default-scheduler");
  CHECK("default-scheduler" == name);
  CHECK(name == std::string("default-scheduler"));
  CHECK(name == std::string_view("default-scheduler"));
  CHECK(name != "other");
  CHECK(name == SharedText("default-scheduler"));  // equal texts, not shared
  CHECK(SharedText("a") < SharedText("b"));
  const std::string_view view = name;
  CHECK(view == "default-scheduler");
  const std::string& string = name;
  CHECK(string == "default-scheduler");
  CHECK("<" + name + ">" == "<default-scheduler>");
  CHECK(std::string("[") + name + ']' == "[default-scheduler]");
  CHECK('"' + name + std::string("\"") == "\"default-scheduler\"");
  std::ostringstream out;
  out << name;
  CHECK(out.str() == "default-scheduler");
  name = std::string_view("other");
  CHECK(name == "other");
  CHECK(copy == "default-scheduler");
  const nlohmann::json json = copy;
  CHECK(json == "default-scheduler");
  CHECK(json.get<SharedText>() == copy);
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
