#include "devices/gpu_allocator.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace gpusched::devices {
namespace {

GpuTopology must_preset(std::string_view name, int count) {
  std::string error;
  auto topology = GpuTopology::preset(name, count, &error);
  INFO(error);
  REQUIRE(topology.has_value());
  return std::move(*topology);
}

// An nvidia-smi matrix of `count` GPUs: SYS everywhere but the listed pairs.
GpuTopology with_links(int count, const std::vector<std::tuple<int, int, std::string>>& links) {
  const auto n = static_cast<std::size_t>(count);
  std::vector<std::vector<std::string>> cells(n, std::vector<std::string>(n, "SYS"));
  for (std::size_t i = 0; i < n; ++i) cells[i][i] = "X";
  for (const auto& [a, b, cell] : links) {
    cells[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = cell;
    cells[static_cast<std::size_t>(b)][static_cast<std::size_t>(a)] = cell;
  }
  std::string error;
  auto topology = GpuTopology::from_matrix(cells, &error);
  INFO(error);
  REQUIRE(topology.has_value());
  return std::move(*topology);
}

// go-gpuallocator gpuallocator/common_test.go NewDGX1VoltaNode: NVLinks plus PCIe levels.
GpuTopology dgx1_volta() {
  return with_links(8, {{0, 1, "NV1+PIX"},
                        {0, 2, "NV1+PHB"},
                        {0, 3, "NV2+PHB"},
                        {0, 4, "NV2+SYS"},
                        {1, 2, "NV2+PHB"},
                        {1, 3, "NV1+PHB"},
                        {1, 5, "NV2+SYS"},
                        {2, 3, "NV2+PIX"},
                        {2, 6, "NV1+SYS"},
                        {3, 7, "NV1+SYS"},
                        {4, 5, "NV1+PIX"},
                        {4, 6, "NV1+PHB"},
                        {4, 7, "NV2+PHB"},
                        {5, 6, "NV2+PHB"},
                        {5, 7, "NV1+PHB"},
                        {6, 7, "NV2+PIX"}});
}

// common_test.go NewDGX1PascalNode.
GpuTopology dgx1_pascal() {
  return with_links(8, {{0, 1, "NV1+PHB"},
                        {0, 2, "NV1+PIX"},
                        {0, 3, "NV1+PHB"},
                        {0, 4, "NV1+SYS"},
                        {1, 2, "NV1+PHB"},
                        {1, 3, "NV1+PIX"},
                        {1, 5, "NV1+SYS"},
                        {2, 3, "NV1+PHB"},
                        {2, 6, "NV1+SYS"},
                        {3, 7, "NV1+SYS"},
                        {4, 5, "NV1+PHB"},
                        {4, 6, "NV1+PIX"},
                        {4, 7, "NV1+PHB"},
                        {5, 6, "NV1+PHB"},
                        {5, 7, "NV1+PIX"},
                        {6, 7, "NV1+PHB"}});
}

// common_test.go New4xRTX8000Node: NVLink bridges 0-3 and 1-2 with no PCIe entry upstream;
// here the bare NV2 cells get SYS (different NUMA groups), 10 more on both bridges, which
// changes no choice.
GpuTopology rtx8000x4() {
  return with_links(4, {{0, 1, "NODE"}, {2, 3, "NODE"}, {0, 3, "NV2"}, {1, 2, "NV2"}});
}

struct PolicyRow {
  std::string name;
  std::vector<int> available;
  std::vector<int> required;
  int size;
  std::vector<int> expected;
};

void check_rows(const GpuTopology& topology, const std::vector<PolicyRow>& rows) {
  for (const auto& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(best_effort_allocate(topology, row.available, row.required, row.size) == row.expected);
    }
  }
}

std::vector<int> all(int count) {
  std::vector<int> gpus;
  for (int i = 0; i < count; ++i) gpus.push_back(i);
  return gpus;
}

TEST_CASE("best_effort_allocate on pcie-2socket", "[devices][gpu_allocator]") {
  // Pair scores: PIX pairs 0-1, 2-3, 4-5, 6-7 score 50, the rest of a quad (PXB) 40, across
  // sockets (SYS) 10.
  const GpuTopology topology = must_preset("pcie-2socket", 8);
  check_rows(topology,
             {
                 // size 1 never looks at the topology: the first available GPU.
                 {"1 of 8", all(8), {}, 1, {0}},
                 {"1 with GPU 0 taken", {1, 2, 3, 4, 5, 6, 7}, {}, 1, {1}},
                 // Every best partition pairs the PIX pairs (4 x 50); the first found is
                 // [[0 1] [2 3] [4 5] [6 7]] and its first best set wins.
                 {"2 of 8", all(8), {}, 2, {0, 1}},
                 {"4 of 8", all(8), {}, 4, {0, 1, 2, 3}},
                 {"8 of 8", all(8), {}, 8, all(8)},
                 // GPUs 1 and 2 taken: the best partition is [[0 3] [4 5] [6 7]] (40 + 50 +
                 // 50); its best set is the first PIX pair, 4-5, not the PXB leftovers 0-3.
                 {"2 with 1 and 2 taken", {0, 3, 4, 5, 6, 7}, {}, 2, {4, 5}},
                 // [[0 3 pad pad] [4 5 6 7]] (40 + 180) beats every split of socket 1.
                 {"4 with 1 and 2 taken", {0, 3, 4, 5, 6, 7}, {}, 4, {4, 5, 6, 7}},
                 // gpu-sharing.md §2.4 worked picks: GPU 1 stays with its padding, and 2-3,
                 // the first whole pair, wins.
                 {"2 with GPU 0 taken", {1, 2, 3, 4, 5, 6, 7}, {}, 2, {2, 3}},
                 {"4 with GPU 0 taken", {1, 2, 3, 4, 5, 6, 7}, {}, 4, {4, 5, 6, 7}},
                 // [[0 2 3 5] [6 7 pad pad]] (160 + 50) ties [[0 5 6 7] [2 3 pad pad]]; the
                 // first in enumeration order wins.
                 {"4 from two fragments", {0, 2, 3, 5, 6, 7}, {}, 4, {0, 2, 3, 5}},
             });
}

TEST_CASE("best_effort_allocate pads to a multiple of the size", "[devices][gpu_allocator]") {
  const GpuTopology topology = must_preset("pcie-2socket", 8);
  check_rows(topology,
             {
                 // One nil: [[0 1 2] [3 4 pad] [5 6 7]] (130 + 10 + 130); the first best set.
                 {"3 of 8", all(8), {}, 3, {0, 1, 2}},
                 // Two nils, which may only share a set: [[0 1 2 3 pad] [4 5 6 7 pad]] (520)
                 // is skipped, [[0 1 2 3 4] [5 6 7 pad pad]] (300 + 130) wins.
                 {"5 of 8", all(8), {}, 5, {0, 1, 2, 3, 4}},
                 {"6 of 8", all(8), {}, 6, {0, 1, 2, 3, 4, 5}},
                 {"7 of 8", all(8), {}, 7, {0, 1, 2, 3, 4, 5, 6}},
                 // [[1 2 3] [4 5 6] [7 pad pad]]: GPU 1 stays with 2-3, GPU 7 with the padding.
                 {"3 of 7", {1, 2, 3, 4, 5, 6, 7}, {}, 3, {1, 2, 3}},
                 // [[1 pad pad pad pad pad] [2 3 4 5 6 7]] (0 + 390).
                 {"6 of 7", {1, 2, 3, 4, 5, 6, 7}, {}, 6, {2, 3, 4, 5, 6, 7}},
                 // Two nils: every triple here scores 60, so the first partition,
                 // [[0 3 5] [6 pad pad]], wins.
                 {"3 of 4 scattered", {0, 3, 5, 6}, {}, 3, {0, 3, 5}},
             });
}

TEST_CASE("best_effort_allocate with required devices", "[devices][gpu_allocator]") {
  const GpuTopology topology = must_preset("pcie-2socket", 8);
  check_rows(topology,
             {
                 {"4 needs its PIX partner", all(8), {4}, 2, {4, 5}},
                 {"1 needs its quad", all(8), {1}, 4, {0, 1, 2, 3}},
                 {"a pair across sockets", all(8), {3, 4}, 2, {3, 4}},
                 {"5 joins its socket's best three", all(8), {5}, 3, {5, 6, 7}},
                 // The partition must hold a set with 3; [[0 3] [4 5] [6 7]] is best.
                 {"3 with 1 and 2 taken", {0, 3, 4, 5, 6, 7}, {3}, 2, {0, 3}},
                 {"size 1 returns the required GPU", all(8), {6}, 1, {6}},
                 // No padding: [[0 3 4] [5 6 7]] (60 + 130) is the first of four partitions
                 // scoring 190; its better set is 5-6-7. Requiring 3 picks the other.
                 {"3 with 1 and 2 taken", {0, 3, 4, 5, 6, 7}, {}, 3, {5, 6, 7}},
                 {"3 with 1 and 2 taken, 3 required", {0, 3, 4, 5, 6, 7}, {3}, 3, {0, 3, 4}},
                 {"all required", all(8), {0, 2, 4, 6}, 4, {0, 2, 4, 6}},
             });
}

TEST_CASE("best_effort_allocate guards", "[devices][gpu_allocator]") {
  const GpuTopology topology = must_preset("pcie-2socket", 8);
  check_rows(topology, {
                           {"size 0", all(8), {}, 0, {}},
                           {"negative size", all(8), {}, -2, {}},
                           {"more than available", {0, 1, 2}, {}, 4, {}},
                           {"required larger than size", all(8), {0, 1, 2}, 2, {}},
                           {"required not available", {1, 2, 3}, {0}, 2, {}},
                           {"required not available, size 1", {1, 2, 3}, {0}, 1, {}},
                           {"nothing available", {}, {}, 1, {}},
                           // Input order and repeats do not matter: gpusched sorts.
                           {"unsorted with repeats", {7, 5, 6, 4, 4}, {}, 2, {4, 5}},
                       });
}

TEST_CASE("best_effort_allocate when the padded set scores best", "[devices][gpu_allocator]") {
  // 5 GPUs, size 3: [[0 1 2] [3 4 pad]] (30 + 110) is the first of four partitions scoring
  // 140, and its padded set 3-4 (one NVLink) outscores 0-1-2. Upstream returns [3 4 nil] and
  // the plugin's GetPreferredAllocation fails on the nil device, so there is no preference.
  const GpuTopology topology = with_links(5, {{3, 4, "NV1+SYS"}});
  check_rows(topology, {
                           {"no required", all(5), {}, 3, {}},
                           {"required keeps the padding out", all(5), {0}, 3, {0, 1, 2}},
                           {"required in the NVLink pair", all(5), {3}, 3, {2, 3, 4}},
                       });
}

TEST_CASE("best_effort_allocate on HGX H100 as the allocator sees it", "[devices][gpu_allocator]") {
  // NODE within a socket, SYS across (gpu-sharing.md §2.4 worked picks).
  const GpuTopology topology = must_preset("hgx-h100", 8);
  check_rows(topology, {
                           {"2 with GPU 0 taken", {1, 2, 3, 4, 5, 6, 7}, {}, 2, {1, 2}},
                           {"4 with GPU 0 taken", {1, 2, 3, 4, 5, 6, 7}, {}, 4, {4, 5, 6, 7}},
                       });
}

TEST_CASE("best_effort_allocate passes go-gpuallocator's TestBestEffortAllocate",
          "[devices][gpu_allocator]") {
  // gpuallocator/besteffort_test.go rows on the DGX-1 Volta node.
  check_rows(
      dgx1_volta(),
      {
          {"Single NVLINK, prefer same switch", {0, 2, 4, 5}, {}, 2, {4, 5}},
          {"Single NVLINK, prefer same socket", {0, 4, 5, 6}, {}, 2, {5, 6}},
          {"Prefer dual NVLINK same socket", {0, 3, 1}, {}, 2, {0, 3}},
          {"Prefer dual NVLINK cross socket", {0, 1, 4}, {}, 2, {0, 4}},
          {"Must include with allocation size 1", all(8), {4}, 1, {4}},
          {"Must include with allocation size 2", all(8), {4}, 2, {4, 7}},
          {"Must include with allocation size 4", all(8), {4}, 4, {4, 5, 6, 7}},
          {"Must include with unavailable device", {1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3}, 4, {}},
          {"Must include with full set specified", all(8), {0, 2, 4, 6}, 4, {0, 2, 4, 6}},
          {"Must include with too many devices specified", all(8), {1, 2, 3, 4, 5, 6}, 4, {}},
          {"Required too many devices than available", {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5, 6}, 1, {}},
      });
}

// gpuallocator.Allocator: each request takes from the GPUs left by the previous ones, offered
// in index order (DeviceSet.SortedSlice).
void check_sequence(const GpuTopology& topology, const std::vector<int>& sizes,
                    const std::vector<std::vector<int>>& expected) {
  std::vector<int> remaining = all(topology.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    INFO("request " << i << " for " << sizes[i]);
    const std::vector<int> got = best_effort_allocate(topology, remaining, {}, sizes[i]);
    CHECK(got == expected[i]);
    std::erase_if(remaining, [&](int gpu) { return std::count(got.begin(), got.end(), gpu) > 0; });
  }
}

TEST_CASE("best_effort_allocate passes go-gpuallocator's allocator sequences",
          "[devices][gpu_allocator]") {
  SECTION("4x RTX 8000") {
    check_sequence(rtx8000x4(), {1, 1, 1, 1, 1}, {{0}, {1}, {2}, {3}, {}});
    check_sequence(rtx8000x4(), {2, 2, 1}, {{0, 3}, {1, 2}, {}});
    check_sequence(rtx8000x4(), {4, 1}, {{0, 1, 2, 3}, {}});
  }
  SECTION("DGX-1 Pascal") {
    check_sequence(dgx1_pascal(), {2, 2, 2, 2, 1}, {{0, 2}, {1, 3}, {4, 6}, {5, 7}, {}});
    check_sequence(dgx1_pascal(), {4, 4, 1}, {{0, 1, 2, 3}, {4, 5, 6, 7}, {}});
    check_sequence(dgx1_pascal(), {8, 1}, {all(8), {}});
  }
  SECTION("DGX-1 Volta") {
    check_sequence(dgx1_volta(), {1, 1, 1, 1, 1, 1, 1, 1, 1},
                   {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {}});
    check_sequence(dgx1_volta(), {2, 2, 2, 2, 1}, {{0, 3}, {1, 2}, {4, 7}, {5, 6}, {}});
    check_sequence(dgx1_volta(), {4, 4, 1}, {{0, 1, 2, 3}, {4, 5, 6, 7}, {}});
    check_sequence(dgx1_volta(), {8, 1}, {all(8), {}});
  }
}

TEST_CASE("best_effort_allocate keeps the best partition it found", "[devices][gpu_allocator]") {
  // besteffort_test.go TestBestEffortAllocateRetainsBestPartition: 14 GPUs in NVLink pairs,
  // the last pair with 4 links; the best set sits in the last slot of the best partition.
  // Upstream has no PCIe entry on these pairs; here every pair adds SYS's 10, which shifts all
  // partitions alike.
  std::vector<std::tuple<int, int, std::string>> links;
  for (int i = 0; i < 12; i += 2) links.emplace_back(i, i + 1, "NV2");
  links.emplace_back(12, 13, "NV4");
  check_rows(with_links(14, links),
             {{"Best set is in the last slot of the best partition", all(14), {}, 2, {12, 13}}});
}

TEST_CASE("best_effort_allocate on a fragmented 16-GPU box", "[devices][gpu_allocator]") {
  // Sockets 0-7 and 8-15, quads 0-3, 4-7, 8-11, 12-15 (NODE between quads of a socket).
  const GpuTopology topology = must_preset("pcie-2socket", 16);
  const std::vector<int> free = {0, 2, 3, 5, 6, 7, 8, 9, 12, 13, 14, 15};
  check_rows(topology, {
                           {"a whole free quad", free, {}, 4, {12, 13, 14, 15}},
                           {"the first whole PIX pair", free, {}, 2, {2, 3}},
                       });
}

// ---------------------------------------------------------------------------------------------

std::vector<SharedDevice> replicas(int gpu, std::vector<int> indices) {
  std::vector<SharedDevice> devices;
  for (const int k : indices) {
    devices.push_back({"GPU-" + std::to_string(gpu) + "::" + std::to_string(k), gpu});
  }
  return devices;
}

std::vector<SharedDevice> join(std::vector<std::vector<SharedDevice>> parts) {
  std::vector<SharedDevice> devices;
  for (auto& part : parts) devices.insert(devices.end(), part.begin(), part.end());
  return devices;
}

using Ids = std::vector<std::string>;

TEST_CASE("greedy_allocate distributed and packed", "[devices][gpu_allocator]") {
  SECTION("distributed spreads one request over GPUs") {
    const auto available = join({replicas(0, {0, 1, 2, 3}), replicas(1, {0, 1, 2, 3})});
    CHECK(greedy_allocate(available, {}, 2, {}, false) == Ids{"GPU-0::0", "GPU-1::0"});
  }
  SECTION("distributed starts on the least allocated GPU") {
    // Allocated 2, 0, 1: GPU 1 (0), then GPU 2 (1, not yet picked) before GPU 1 (1, picked
    // once), then GPU 1 (1) before GPU 2 and GPU 0 (2).
    const auto available =
        join({replicas(0, {2, 3}), replicas(1, {0, 1, 2, 3}), replicas(2, {1, 2, 3})});
    CHECK(greedy_allocate(available, {}, 3, {2, 0, 1}, false) ==
          Ids{"GPU-1::0", "GPU-2::1", "GPU-1::1"});
  }
  SECTION("packed fills the most allocated GPU first") {
    const auto available =
        join({replicas(0, {2, 3}), replicas(1, {0, 1, 2, 3}), replicas(2, {1, 2, 3})});
    CHECK(greedy_allocate(available, {}, 3, {2, 0, 1}, true) ==
          Ids{"GPU-0::2", "GPU-0::3", "GPU-2::1"});
  }
  SECTION("packed consolidates an empty node") {
    const auto available = join({replicas(0, {0, 1}), replicas(1, {0, 1})});
    CHECK(greedy_allocate(available, {}, 2, {0, 0}, true) == Ids{"GPU-0::0", "GPU-0::1"});
  }
  SECTION("ties keep the order of the previous sort") {
    // Upstream sorts the same slice again before each pick. After GPU-0::0 and GPU-1::0 both
    // GPUs stand at (1 allocated, 1 picked), and GPU 1's replicas already lead the list, so
    // the third pick is GPU-1::1, not GPU-0::1.
    const auto available = join({replicas(0, {0, 1, 2, 3}), replicas(1, {0, 1, 2, 3})});
    CHECK(greedy_allocate(available, {}, 4, {}, false) ==
          Ids{"GPU-0::0", "GPU-1::0", "GPU-1::1", "GPU-0::1"});
  }
  SECTION("required devices come first and count as allocated") {
    // GPU-1::0 is required, so GPU 1 has 1 allocated replica (it is not a candidate) and
    // distributed turns to GPU 0 although GPU 1's replicas are offered first.
    const auto available = join({replicas(1, {0, 1}), replicas(0, {0, 1})});
    CHECK(greedy_allocate(available, {"GPU-1::0"}, 2, {}, false) == Ids{"GPU-1::0", "GPU-0::0"});
  }
  SECTION("MIG devices use the same loop") {
    const std::vector<SharedDevice> available = {
        {"MIG-a", 0}, {"MIG-b", 0}, {"MIG-c", 1}, {"MIG-d", 1}};
    CHECK(greedy_allocate(available, {}, 2, {1, 0}, false) == Ids{"MIG-c", "MIG-a"});
  }
  SECTION("not enough available devices to satisfy allocation") {
    const auto available = replicas(0, {0, 1});
    CHECK_FALSE(greedy_allocate(available, {}, 3, {}, false).has_value());
    CHECK_FALSE(greedy_allocate(available, {"GPU-0::0"}, 4, {}, true).has_value());
  }
  SECTION("required alone satisfies the size") {
    const auto available = replicas(0, {0, 1});
    CHECK(greedy_allocate(available, {"GPU-0::1"}, 1, {}, false) == Ids{"GPU-0::1"});
  }
}

}  // namespace
}  // namespace gpusched::devices
