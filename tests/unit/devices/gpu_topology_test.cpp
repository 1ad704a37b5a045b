#include "devices/gpu_topology.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

namespace gpusched::devices {
namespace {

using Matrix = std::vector<std::vector<std::string>>;

GpuTopology must_preset(std::string_view name, int count) {
  std::string error;
  auto topology = GpuTopology::preset(name, count, &error);
  INFO(name << " x" << count << ": " << error);
  REQUIRE(topology.has_value());
  return std::move(*topology);
}

GpuTopology must_parse(const Matrix& cells) {
  std::string error;
  auto topology = GpuTopology::from_matrix(cells, &error);
  INFO(error);
  REQUIRE(topology.has_value());
  return std::move(*topology);
}

std::string parse_error(const Matrix& cells) {
  std::string error;
  const auto topology = GpuTopology::from_matrix(cells, &error);
  CHECK_FALSE(topology.has_value());
  return error;
}

// A 2-GPU matrix whose only pair is `cell`.
Matrix pair_matrix(const std::string& cell) {
  return {{"X", cell}, {cell, "X"}};
}

// The classic dual-socket PCIe box (gpu-sharing.md §2.4, lattice/quda issue 669).
const Matrix kPcieBox = {
    {"X", "PIX", "PXB", "PXB", "SYS", "SYS", "SYS", "SYS"},
    {"PIX", "X", "PXB", "PXB", "SYS", "SYS", "SYS", "SYS"},
    {"PXB", "PXB", "X", "PIX", "SYS", "SYS", "SYS", "SYS"},
    {"PXB", "PXB", "PIX", "X", "SYS", "SYS", "SYS", "SYS"},
    {"SYS", "SYS", "SYS", "SYS", "X", "PIX", "PXB", "PXB"},
    {"SYS", "SYS", "SYS", "SYS", "PIX", "X", "PXB", "PXB"},
    {"SYS", "SYS", "SYS", "SYS", "PXB", "PXB", "X", "PIX"},
    {"SYS", "SYS", "SYS", "SYS", "PXB", "PXB", "PIX", "X"},
};

TEST_CASE("GpuTopology pair scores follow calculateGPUPairScore", "[devices][gpu_topology]") {
  struct Row {
    std::string name;
    std::string cell;
    int score;
  };
  // go-gpuallocator besteffort_policy.go: PCIe level points plus 100 per NVLink.
  const std::vector<Row> rows = {
      {"SYS is CrossCPU", "SYS", 10},
      {"NODE is SameCPU", "NODE", 20},
      {"PHB is HostBridge", "PHB", 30},
      {"PXB is MultiSwitch", "PXB", 40},
      {"PIX is SingleSwitch", "PIX", 50},
      {"2 NVLinks behind one switch (the reference's example)", "NV2+PIX", 250},
      {"12 NVLinks across sockets", "NV12+SYS", 1210},
      {"18 NVLinks on one NUMA node", "NV18+NODE", 1820},
      // Nothing else joins the two GPUs, so they are on two NUMA nodes and the hidden PCIe
      // level is taken as SYS.
      {"bare NV1", "NV1", 110},
  };
  for (const auto& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const GpuTopology topology = must_parse(pair_matrix(row.cell));
      CHECK(topology.pair_score(0, 1) == row.score);
      CHECK(topology.pair_score(1, 0) == row.score);
      CHECK(topology.pair_score(1, 1) == 0);
    }
  }
}

TEST_CASE("GpuTopology without an annotation is all SYS on NUMA node 0",
          "[devices][gpu_topology]") {
  const GpuTopology topology(4);
  CHECK(topology.size() == 4);
  CHECK(topology.link(0, 3) == GpuLink{PcieLink::CrossCpu, 0});
  CHECK(topology.link(3, 0) == GpuLink{PcieLink::CrossCpu, 0});
  CHECK(topology.numa_node(3) == 0);
  CHECK(topology.pair_score(1, 2) == 10);
  CHECK(GpuTopology(0).size() == 0);
}

TEST_CASE("GpuTopology copies and moves", "[devices][gpu_topology]") {
  GpuTopology original = must_preset("dgx-a100", 8);
  GpuTopology copy(original);
  CHECK(copy.link(0, 1) == GpuLink{PcieLink::MultiSwitch, 0});
  CHECK(copy.numa_node(4) == 7);
  GpuTopology assigned(2);
  assigned = copy;
  CHECK(assigned.size() == 8);
  CHECK(assigned.numa_node(2) == 1);
  const GpuTopology moved(std::move(original));
  CHECK(moved.size() == 8);
  CHECK(moved.pair_score(6, 7) == 40);
}

TEST_CASE("GpuTopology presets", "[devices][gpu_topology]") {
  struct Row {
    std::string name;
    std::string preset;
    int count;
    int a;
    int b;
    PcieLink pcie;
    int numa_a;
    int numa_b;
  };
  using P = PcieLink;
  const std::vector<Row> rows = {
      // 8 GPUs: the quads are the sockets (GPU0 X PIX PXB PXB SYS SYS SYS SYS).
      {"pcie-2socket 8: a pair", "pcie-2socket", 8, 0, 1, P::SingleSwitch, 0, 0},
      {"pcie-2socket 8: a quad", "pcie-2socket", 8, 1, 2, P::MultiSwitch, 0, 0},
      {"pcie-2socket 8: across sockets", "pcie-2socket", 8, 3, 4, P::CrossCpu, 0, 1},
      {"pcie-2socket 8: socket 1 quad", "pcie-2socket", 8, 4, 7, P::MultiSwitch, 1, 1},
      {"pcie-2socket 8: socket 1 pair", "pcie-2socket", 8, 6, 7, P::SingleSwitch, 1, 1},
      // 16 GPUs: two quads per socket, NODE between them.
      {"pcie-2socket 16: quads of one socket", "pcie-2socket", 16, 3, 4, P::SameCpu, 0, 0},
      {"pcie-2socket 16: a quad", "pcie-2socket", 16, 4, 7, P::MultiSwitch, 0, 0},
      {"pcie-2socket 16: across sockets", "pcie-2socket", 16, 7, 8, P::CrossCpu, 0, 1},
      {"pcie-2socket 16: socket 1 quads", "pcie-2socket", 16, 8, 12, P::SameCpu, 1, 1},
      {"pcie-2socket 16: socket 1 pair", "pcie-2socket", 16, 14, 15, P::SingleSwitch, 1, 1},
      // 6 GPUs: socket 0 takes two pairs (0-3), socket 1 one (4-5); no pair straddles.
      {"pcie-2socket 6: pair 2-3", "pcie-2socket", 6, 2, 3, P::SingleSwitch, 0, 0},
      {"pcie-2socket 6: across", "pcie-2socket", 6, 3, 4, P::CrossCpu, 0, 1},
      {"pcie-2socket 6: socket 1 pair", "pcie-2socket", 6, 4, 5, P::SingleSwitch, 1, 1},
      {"pcie-2socket 2: one pair, one socket", "pcie-2socket", 2, 0, 1, P::SingleSwitch, 0, 0},
      {"hgx-h100: same socket", "hgx-h100", 8, 0, 3, P::SameCpu, 0, 0},
      {"hgx-h100: 'pair' is not special", "hgx-h100", 8, 4, 5, P::SameCpu, 1, 1},
      {"hgx-h100: across sockets", "hgx-h100", 8, 3, 4, P::CrossCpu, 0, 1},
      {"hgx-a100: pair", "hgx-a100", 8, 2, 3, P::MultiSwitch, 0, 0},
      {"hgx-a100: same socket", "hgx-a100", 8, 1, 2, P::SameCpu, 0, 0},
      {"hgx-a100: across sockets", "hgx-a100", 8, 0, 7, P::CrossCpu, 0, 1},
      {"dgx-a100: pair 0-1 on NUMA 3", "dgx-a100", 8, 0, 1, P::MultiSwitch, 3, 3},
      {"dgx-a100: pairs 0-1 and 2-3", "dgx-a100", 8, 1, 2, P::CrossCpu, 3, 1},
      {"dgx-a100: pair 4-5 on NUMA 7", "dgx-a100", 8, 4, 5, P::MultiSwitch, 7, 7},
      {"dgx-a100: pair 6-7 on NUMA 5", "dgx-a100", 8, 6, 7, P::MultiSwitch, 5, 5},
      {"dgx-a100: across", "dgx-a100", 8, 3, 6, P::CrossCpu, 1, 5},
  };
  for (const auto& row : rows) {
    DYNAMIC_SECTION(row.name) {
      const GpuTopology topology = must_preset(row.preset, row.count);
      CHECK(topology.size() == row.count);
      // NVSwitch NVLinks end at a switch, so go-gpuallocator sees no GPU-to-GPU NVLink.
      CHECK(topology.link(row.a, row.b) == GpuLink{row.pcie, 0});
      CHECK(topology.link(row.b, row.a) == GpuLink{row.pcie, 0});
      CHECK(topology.numa_node(row.a) == row.numa_a);
      CHECK(topology.numa_node(row.b) == row.numa_b);
    }
  }
}

TEST_CASE("pcie-2socket with 8 GPUs is the classic dual-socket matrix", "[devices][gpu_topology]") {
  const GpuTopology preset = must_preset("pcie-2socket", 8);
  const GpuTopology parsed = must_parse(kPcieBox);
  for (int a = 0; a < 8; ++a) {
    CHECK(preset.numa_node(a) == parsed.numa_node(a));
    for (int b = 0; b < 8; ++b) {
      if (a != b) CHECK(preset.link(a, b) == parsed.link(a, b));
    }
  }
}

TEST_CASE("GpuTopology::preset rejects unknown names and counts", "[devices][gpu_topology]") {
  struct Row {
    std::string name;
    std::string preset;
    int count;
    std::string error;
  };
  const std::vector<Row> rows = {
      {"unknown name", "dgx-h100", 8,
       "unknown GPU topology preset \"dgx-h100\" (expected pcie-2socket, hgx-h100, hgx-a100 or "
       "dgx-a100)"},
      {"names are case-sensitive", "HGX-H100", 8,
       "unknown GPU topology preset \"HGX-H100\" (expected pcie-2socket, hgx-h100, hgx-a100 or "
       "dgx-a100)"},
      {"odd count", "pcie-2socket", 7,
       "the pcie-2socket topology has an even number of GPUs (2 or more), not 7"},
      {"no GPUs", "pcie-2socket", 0,
       "the pcie-2socket topology has an even number of GPUs (2 or more), not 0"},
      {"HGX with 4 GPUs", "hgx-h100", 4, "the hgx-h100 topology has 8 GPUs, not 4"},
      {"DGX with 16 GPUs", "dgx-a100", 16, "the dgx-a100 topology has 8 GPUs, not 16"},
  };
  for (const auto& row : rows) {
    DYNAMIC_SECTION(row.name) {
      std::string error;
      CHECK_FALSE(GpuTopology::preset(row.preset, row.count, &error).has_value());
      CHECK(error == row.error);
      CHECK_FALSE(GpuTopology::preset(row.preset, row.count, nullptr).has_value());
    }
  }
}

TEST_CASE("GpuTopology::from_matrix reads links and NUMA groups", "[devices][gpu_topology]") {
  SECTION("the dual-socket PCIe box") {
    const GpuTopology topology = must_parse(kPcieBox);
    CHECK(topology.size() == 8);
    CHECK(topology.link(0, 1) == GpuLink{PcieLink::SingleSwitch, 0});
    CHECK(topology.link(2, 0) == GpuLink{PcieLink::MultiSwitch, 0});
    CHECK(topology.link(3, 5) == GpuLink{PcieLink::CrossCpu, 0});
    CHECK(topology.numa_node(3) == 0);
    CHECK(topology.numa_node(4) == 1);
  }
  SECTION("NVLink with an explicit PCIe level, and a bare NVLink count") {
    // GPUs 0-1 and 2-3 are NODE apart; 0-2 and 1-3 are joined by NVLink only. 0-3 and 1-2
    // are SYS, so the NUMA groups are {0, 1} and {2, 3}.
    const GpuTopology topology = must_parse({
        {"X", "NV4+NODE", "NV2", "SYS"},
        {"NV4+NODE", "X", "SYS", "NV2"},
        {"NV2", "SYS", "X", "NODE"},
        {"SYS", "NV2", "NODE", "X"},
    });
    CHECK(topology.link(0, 1) == GpuLink{PcieLink::SameCpu, 4});
    // The hidden level of 0-2 is bounded by the NUMA groups: different, so SYS.
    CHECK(topology.link(0, 2) == GpuLink{PcieLink::CrossCpu, 2});
    CHECK(topology.pair_score(0, 2) == 210);
    CHECK(topology.numa_node(1) == 0);
    CHECK(topology.numa_node(2) == 1);
    CHECK(topology.numa_node(3) == 1);
  }
  SECTION("a bare NVLink count inside one NUMA node is at least NODE") {
    const GpuTopology topology = must_parse({
        {"X", "NV1", "PHB"},
        {"NV1", "X", "PHB"},
        {"PHB", "PHB", "X"},
    });
    CHECK(topology.link(0, 1) == GpuLink{PcieLink::SameCpu, 1});
    CHECK(topology.pair_score(0, 1) == 120);
    CHECK(topology.numa_node(2) == 0);
  }
  SECTION("NUMA nodes are numbered by their lowest GPU") {
    const GpuTopology topology = must_parse({
        {"X", "SYS", "PIX"},
        {"SYS", "X", "SYS"},
        {"PIX", "SYS", "X"},
    });
    CHECK(topology.numa_node(0) == 0);
    CHECK(topology.numa_node(1) == 1);
    CHECK(topology.numa_node(2) == 0);
  }
  SECTION("an empty matrix has no GPUs") {
    CHECK(must_parse({}).size() == 0);
  }
}

TEST_CASE("GpuTopology::from_matrix names the bad cell", "[devices][gpu_topology]") {
  struct Row {
    std::string name;
    Matrix cells;
    std::string error;
  };
  const std::vector<Row> rows = {
      {"row too short", {{"X", "PIX"}, {"PIX"}}, "not square: 2 rows, but row 1 has 1 cell"},
      {"row too long",
       {{"X", "PIX", "SYS"}, {"PIX", "X"}},
       "not square: 2 rows, but row 0 has 3 cells"},
      {"misspelt level",
       {{"X", "PIX", "SYS"}, {"PIX", "X", "PIXX"}, {"SYS", "PIXX", "X"}},
       "row 1, column 2: unknown link \"PIXX\""},
      {"lower case", pair_matrix("pix"), "row 0, column 1: unknown link \"pix\""},
      {"spaces are not trimmed", pair_matrix(" PIX"), "row 0, column 1: unknown link \" PIX\""},
      {"NV without a count", pair_matrix("NV"), "row 0, column 1: unknown link \"NV\""},
      {"NV0", pair_matrix("NV0"), "row 0, column 1: unknown link \"NV0\""},
      {"leading zero", pair_matrix("NV02"), "row 0, column 1: unknown link \"NV02\""},
      {"plus without a level", pair_matrix("NV2+"), "row 0, column 1: unknown link \"NV2+\""},
      {"plus X", pair_matrix("NV2+X"), "row 0, column 1: unknown link \"NV2+X\""},
      {"two NVLink counts", pair_matrix("NV2+NV1"), "row 0, column 1: unknown link \"NV2+NV1\""},
      {"level first", pair_matrix("PIX+NV2"), "row 0, column 1: unknown link \"PIX+NV2\""},
      {"too many NVLinks", pair_matrix("NV19"),
       "row 0, column 1: \"NV19\" has 19 NVLinks; a GPU has at most 18"},
      {"X off the diagonal", pair_matrix("X"), "row 0, column 1: X belongs on the diagonal only"},
      {"diagonal",
       {{"X", "PIX"}, {"PIX", "PIX"}},
       "row 1, column 1: the diagonal must be X, not \"PIX\""},
      {"not symmetric",
       {{"X", "PIX", "PXB", "SYS"},
        {"PIX", "X", "PXB", "PIX"},
        {"PXB", "PXB", "X", "SYS"},
        {"SYS", "SYS", "SYS", "X"}},
       "not symmetric at row 1, column 3: \"PIX\", but row 3, column 1 is \"SYS\""},
      {"bare and explicit NVLink differ",
       {{"X", "NV2"}, {"NV2+SYS", "X"}},
       "not symmetric at row 0, column 1: \"NV2\", but row 1, column 0 is \"NV2+SYS\""},
  };
  for (const auto& row : rows) {
    DYNAMIC_SECTION(row.name) {
      CHECK(parse_error(row.cells) == row.error);
    }
  }
}

}  // namespace
}  // namespace gpusched::devices
