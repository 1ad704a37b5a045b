// CycleState copies are values, as upstream's CycleState.Clone() makes them, shared until either
// side writes a slot.
#include "gpusched/framework/cycle_state.hpp"

#include <catch2/catch.hpp>
#include <memory>
#include <utility>

namespace gpusched {
namespace {

struct Counter final : StateData {
  explicit Counter(int v) : value(v) {}
  [[nodiscard]] std::unique_ptr<StateData> clone() const override {
    return std::make_unique<Counter>(*this);
  }
  int value;
};

TEST_CASE("CycleState: a copy shares the data until either side writes", "[framework]") {
  CycleState original(3);
  original.set(1, std::make_unique<Counter>(1));
  original.skip_filter(2);
  CycleState copy = original;
  CHECK(copy.get<Counter>(1) == original.get<Counter>(1));
  CHECK(copy.get<Counter>(0) == nullptr);
  CHECK(copy.filter_skipped(2));

  copy.get_mut<Counter>(1)->value = 2;
  CHECK(original.get<Counter>(1)->value == 1);
  CHECK(copy.get<Counter>(1)->value == 2);
  // Shared no more: the original writes in place, and the copy does not see it.
  const Counter* before = original.get<Counter>(1);
  original.get_mut<Counter>(1)->value = 3;
  CHECK(original.get<Counter>(1) == before);
  CHECK(copy.get<Counter>(1)->value == 2);
}

TEST_CASE("CycleState: scratch assignment, clear_data, set to null and moves", "[framework]") {
  CycleState original(2);
  original.set(0, std::make_unique<Counter>(5));
  CycleState scratch;
  scratch = original;
  CHECK(scratch.get<Counter>(0)->value == 5);
  scratch.clear_data();
  CHECK(scratch.get<Counter>(0) == nullptr);
  // The scratch let go: the original's write needs no clone.
  const Counter* data = original.get<Counter>(0);
  CHECK(original.get_mut<Counter>(0) == data);

  CycleState moved = std::move(original);
  CHECK(moved.get<Counter>(0) == data);
  original = moved;  // a moved-from state takes an assignment
  CHECK(original.get<Counter>(0)->value == 5);
  moved.set(0, nullptr);
  const CycleState copy = moved;
  CHECK(copy.get<Counter>(0) == nullptr);
  CHECK(original.get<Counter>(0)->value == 5);
}

}  // namespace
}  // namespace gpusched
