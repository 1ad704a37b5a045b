// PodInfoPool: stable addresses, reused slots, and a drain that hands each live pod over once.
#include "framework/pod_info_pool.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

namespace gpusched {
namespace {

TEST_CASE("the pool keeps addresses across slabs and reuses freed slots", "[framework][pool]") {
  PodInfoPool pool;
  std::vector<PodInfo*> pods;
  for (int i = 0; i < 300; ++i) {  // several slabs: 64, 128, 256...
    PodInfo& info = pool.create();
    info.pod.metadata.name = "p" + std::to_string(i);
    pods.push_back(&info);
  }
  CHECK(pool.size() == 300);
  for (int i = 0; i < 300; ++i) CHECK(pods[i]->pod.metadata.name == "p" + std::to_string(i));
  pool.destroy(*pods[10]);
  pool.destroy(*pods[200]);
  CHECK(pool.size() == 298);
  PodInfo& reused = pool.create();
  CHECK((&reused == pods[10] || &reused == pods[200]));
  CHECK(reused.pod.metadata.name.empty());  // a fresh object in the old slot
  reused.pod.metadata.name = "again";
  CHECK(pool.size() == 299);
}

TEST_CASE("draining hands every live pod over once and empties the pool", "[framework][pool]") {
  PodInfoPool pool;
  std::vector<PodInfo*> created;
  for (int i = 0; i < 1500; ++i) {  // across the doubling slabs
    created.push_back(&pool.create());
    created.back()->pod.metadata.name = "p" + std::to_string(i);
  }
  std::set<std::string> live;
  for (int i = 0; i < 1500; ++i) {
    if (i % 3 == 0) {
      pool.destroy(*created[i]);  // removed pods are not handed over
    } else {
      live.insert("p" + std::to_string(i));
    }
  }
  std::multiset<std::string> handed;
  pool.drain([&](PodInfo& info) { handed.insert(std::move(info.pod.metadata.name)); });
  CHECK(handed.size() == live.size());
  CHECK(std::set<std::string>(handed.begin(), handed.end()) == live);
  CHECK(pool.size() == 0);
  // The pool works again after a drain.
  pool.create().pod.metadata.name = "after";
  std::vector<std::string> again;
  pool.drain([&](PodInfo& info) { again.push_back(info.pod.metadata.name); });
  CHECK(again == std::vector<std::string>{"after"});
}

TEST_CASE("large slabs, mapped pages of their own, keep addresses, reuse slots and drain",
          "[framework][pool]") {
  // The doubling slabs hold 64 + 128 + ... + 1024 = 1,984 pods; the pods after them live in
  // slabs of 8 MiB mapped from the operating system, two of them here.
  PodInfoPool pool;
  const int count = 1984 + static_cast<int>((std::size_t{8} << 20) / sizeof(PodInfo)) + 100;
  std::vector<PodInfo*> created;
  for (int i = 0; i < count; ++i) {
    created.push_back(&pool.create());
    created.back()->pod.metadata.name = "p" + std::to_string(i);
  }
  for (int i = 0; i < count; i += 997)
    CHECK(created[i]->pod.metadata.name == "p" + std::to_string(i));
  pool.destroy(*created[count - 50]);  // in the second large slab
  PodInfo& reused = pool.create();
  CHECK(&reused == created[count - 50]);
  reused.pod.metadata.name = "again";
  std::size_t handed = 0;
  bool again = false;
  pool.drain([&](PodInfo& info) {
    ++handed;
    again = again || info.pod.metadata.name == "again";
  });
  CHECK(handed == static_cast<std::size_t>(count));
  CHECK(again);
  CHECK(pool.size() == 0);
}

}  // namespace
}  // namespace gpusched
