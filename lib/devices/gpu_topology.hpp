#pragma once
// How the GPUs of one node connect, as the NVIDIA device plugin's allocator (go-gpuallocator)
// sees them: per pair a PCIe link level and a number of direct NVLinks, per GPU a NUMA node.
// Boost.Graph holds the links (gpu_topology.cpp is its only user).

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusched::devices {

/// go-gpuallocator internal/links P2PLinkType for the PCIe path, from nvidia-smi's legend.
enum class PcieLink : unsigned char {
  CrossCpu,      ///< SYS: crosses the inter-socket link
  SameCpu,       ///< NODE: same NUMA node, different host bridges
  HostBridge,    ///< PHB: same host bridge
  MultiSwitch,   ///< PXB: several PCIe switches, no host bridge
  SingleSwitch,  ///< PIX: one PCIe switch
  SameBoard,     ///< same board (TOPOLOGY_INTERNAL)
};

/// What joins two GPUs.
struct GpuLink {
  PcieLink pcie = PcieLink::CrossCpu;
  int nvlinks = 0;  ///< direct GPU-to-GPU NVLinks (0..18)
  friend bool operator==(const GpuLink&, const GpuLink&) = default;
};

class GpuTopology {
 public:
  /// `count` GPUs, every pair CrossCpu without NVLink, all on NUMA node 0: what a node without
  /// a topology annotation is taken to be.
  explicit GpuTopology(int count);
  GpuTopology(const GpuTopology& other);
  GpuTopology& operator=(const GpuTopology& other);
  GpuTopology(GpuTopology&&) noexcept;
  GpuTopology& operator=(GpuTopology&&) noexcept;
  ~GpuTopology();

  /// A named board for `count` GPUs (scenario-format.md §3), as go-gpuallocator would see it:
  /// - "pcie-2socket", any even count >= 2: pairs 0-1, 2-3, ... PIX; socket 0 holds the first
  ///   half of the pairs (rounded up) on NUMA 0, socket 1 the rest on NUMA 1; within a socket,
  ///   quads counted from the socket's first GPU are PXB and the rest NODE; SYS across. With 8
  ///   GPUs the quads are the sockets: `GPU0 X PIX PXB PXB SYS SYS SYS SYS`.
  /// - "hgx-h100" (8): GPUs 0-3 on NUMA 0 and 4-7 on NUMA 1, NODE within, SYS across.
  /// - "hgx-a100" (8): as hgx-h100, but pairs 0-1, 2-3, 4-5, 6-7 PXB.
  /// - "dgx-a100" (8): pairs PXB, everything else SYS; NUMA nodes (NPS4) 3, 3, 1, 1, 7, 7, 5, 5.
  /// On NVSwitch boards every NVLink ends at a switch, so the allocator finds no GPU-to-GPU
  /// NVLink and only the PCIe/NUMA levels count. nullopt with `error` set for an unknown name or
  /// a count the board cannot have.
  [[nodiscard]] static std::optional<GpuTopology> preset(std::string_view name, int count,
                                                         std::string* error);
  /// An `nvidia-smi topo -m` GPU matrix: `cells[i][j]` is "X" on the diagonal, else "NV<k>"
  /// (k = 1..18), "PIX", "PXB", "PHB", "NODE", "SYS" or "NV<k>+<PCIe level>", case-sensitive as
  /// nvidia-smi prints them. The matrix must be square and symmetric. NUMA nodes are the groups
  /// of GPUs joined by a PCIe level closer than SYS, numbered in order of their lowest GPU. A
  /// bare "NV<k>" hides the pair's PCIe level, which go-gpuallocator always scores as well: it
  /// is taken as the lowest level the rest of the matrix allows, NODE when the two GPUs share a
  /// NUMA node and SYS otherwise (write "NV<k>+PIX" and so on to state it). nullopt with `error`
  /// naming the bad cell by row and column, counted from 0 like GPU indices ("row 2, column 5:
  /// unknown link \"PIXX\"", "not symmetric at row 1, column 3: ...", "not square: ...",
  /// "row 4, column 4: the diagonal must be X, not ...").
  [[nodiscard]] static std::optional<GpuTopology> from_matrix(
      const std::vector<std::vector<std::string>>& cells, std::string* error);

  [[nodiscard]] int size() const noexcept;
  /// The link between two different GPUs (indices in [0, size())).
  [[nodiscard]] GpuLink link(int a, int b) const;
  [[nodiscard]] int numa_node(int gpu) const;
  /// go-gpuallocator calculateGPUPairScore: CrossCpu 10, SameCpu 20, HostBridge 30,
  /// MultiSwitch 40, SingleSwitch 50, SameBoard 60, plus 100 per NVLink; 0 for a GPU with
  /// itself.
  [[nodiscard]] int pair_score(int a, int b) const;

 private:
  struct Graph;
  std::unique_ptr<Graph> graph_;
};

}  // namespace gpusched::devices
