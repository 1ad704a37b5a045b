// PodsByKey: the order a std::set with key_less keeps, through adds, removals and reused slots.
#include "gpusched/framework/pod_index.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <set>
#include <string>
#include <vector>

#include "framework/pod_info_pool.hpp"
#include "gpusched/framework/rng.hpp"

namespace gpusched {
namespace {

struct KeyOrder {
  bool operator()(const PodInfo* a, const PodInfo* b) const {
    return key_less(a->pod.metadata, b->pod.metadata);
  }
};

std::vector<const PodInfo*> walk(const PodsByKey& index) {
  return {index.begin(), index.end()};
}

/// A pod of `name` in "default", the `sequence`-th added.
PodInfo& named(PodInfoPool& pool, const std::string& name, std::uint64_t sequence) {
  PodInfo& pod = pool.create();
  pod.pod.metadata.namespace_ = "default";
  pod.pod.metadata.name = name;
  pod.sequence = sequence;
  return pod;
}

TEST_CASE("PodsByKey walks its pods in key order as a std::set would, across changes",
          "[framework][pod_index]") {
  // Namespaces where "a-b/..." sorts before "a/..." ('-' < '/') and "a/..." before "ab/...",
  // and names that tie on their first 32 key bytes (a Deployment's pods), so both the prefix
  // and the full comparison decide.
  const std::array<std::string, 6> namespaces = {
      "default", "a", "a-b", "ab", "kube-system", "a-namespace-longer-than-thirty-two-bytes"};
  const std::array<std::string, 4> stems = {"p", "web-7d9f8b6c5-", "trainer-worker-replica-", ""};
  PodInfoPool pool;
  PodsByKey index;
  std::set<const PodInfo*, KeyOrder> expected;
  std::set<std::string> live_keys;
  std::vector<PodInfo*> live;
  Rng rng(11);
  std::uint64_t sequence = 0;
  int compared = 0;
  for (int step = 0; step < 4000; ++step) {
    if (live.empty() || rng.intn(10) < 7) {
      const std::string& ns = namespaces[static_cast<std::size_t>(rng.intn(6))];
      const std::string name =
          stems[static_cast<std::size_t>(rng.intn(4))] + "x" + std::to_string(rng.intn(300));
      if (!live_keys.insert(ns + "/" + name).second) continue;
      PodInfo& pod = named(pool, name, ++sequence);
      pod.pod.metadata.namespace_ = ns;
      index.insert(pod);
      expected.insert(&pod);
      live.push_back(&pod);
    } else {
      // Taken out and destroyed: the pool hands the slot to a later pod, of another name.
      const auto at = static_cast<std::size_t>(rng.intn(static_cast<std::int64_t>(live.size())));
      PodInfo* pod = live[at];
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(at));
      index.erase(*pod);
      expected.erase(pod);
      live_keys.erase(pod->pod.metadata.namespace_ + "/" + pod->pod.metadata.name);
      pool.destroy(*pod);
    }
    REQUIRE(index.size() == expected.size());
    // Read now and then: after one change, after a few, after many.
    if (step % 97 == 0 || step % 13 == 5 || step < 20) {
      REQUIRE(walk(index) == std::vector<const PodInfo*>(expected.begin(), expected.end()));
      ++compared;
    }
  }
  CHECK(compared > 300);
  CHECK(walk(index) == std::vector<const PodInfo*>(expected.begin(), expected.end()));
  CHECK(index.size() > 100);
  index.clear();
  CHECK(index.empty());
  CHECK(walk(index).empty());
}

TEST_CASE("PodsByKey forgets a pod taken out before it was ever read, and takes its name again",
          "[framework][pod_index]") {
  PodInfoPool pool;
  PodsByKey index;
  PodInfo& first = named(pool, "same", 1);
  index.insert(first);
  index.erase(first);
  pool.destroy(first);
  // The same slot, the same name, a new pod.
  PodInfo& second = named(pool, "same", 2);
  CHECK(&second == &first);
  index.insert(second);
  PodInfo& other = named(pool, "other", 3);
  index.insert(other);
  CHECK(walk(index) == std::vector<const PodInfo*>{&other, &second});
  CHECK(index.size() == 2);
}

TEST_CASE("PodsByKey orders many pods added before its first read in place, then merges more",
          "[framework][pod_index]") {
  // The first read puts the pods added so far in order within their own list (long cycles of
  // the permutation: the names come in a shuffled order); a later read merges new pods in; a
  // cleared index starts over.
  PodInfoPool pool;
  PodsByKey index;
  std::set<const PodInfo*, KeyOrder> expected;
  Rng rng(5);
  std::vector<int> numbers(3000);
  for (int i = 0; i < 3000; ++i) numbers[static_cast<std::size_t>(i)] = i;
  for (std::size_t i = numbers.size(); i > 1; --i) {
    std::swap(numbers[i - 1],
              numbers[static_cast<std::size_t>(rng.intn(static_cast<std::int64_t>(i)))]);
  }
  std::uint64_t sequence = 0;
  const auto add = [&](int number) {
    PodInfo& pod = named(pool, "worker-" + std::to_string(number), ++sequence);
    index.insert(pod);
    expected.insert(&pod);
  };
  for (std::size_t i = 0; i < 2000; ++i) add(numbers[i]);
  index.settle_when_grown();  // 2,000 added to none in order: sorted now
  CHECK(walk(index) == std::vector<const PodInfo*>(expected.begin(), expected.end()));
  for (std::size_t i = 2000; i < 2500; ++i) add(numbers[i]);
  index.settle_when_grown();  // 500 added to 2,000: left for the next read
  for (std::size_t i = 2500; i < numbers.size(); ++i) add(numbers[i]);
  CHECK(walk(index) == std::vector<const PodInfo*>(expected.begin(), expected.end()));
  CHECK(index.size() == 3000);
  index.clear();
  expected.clear();
  for (int i = 40; i > 0; --i) add(i);
  CHECK(walk(index) == std::vector<const PodInfo*>(expected.begin(), expected.end()));
  CHECK(index.size() == 40);
}

}  // namespace
}  // namespace gpusched
