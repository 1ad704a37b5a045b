#include "devices/gpu_topology.hpp"

#include <algorithm>
#include <array>
#include <boost/graph/adjacency_matrix.hpp>
#include <cstddef>
#include <numeric>
#include <utility>

#include "gpusched/error.hpp"

namespace gpusched::devices {
namespace {

struct NumaProperty {
  int numa_node = 0;
};

// Every pair of GPUs has a PCIe common ancestor (nvmlDeviceGetTopologyCommonAncestor always
// answers), so the graph is complete: a dense undirected matrix, one GpuLink per pair.
using LinkMatrix = boost::adjacency_matrix<boost::undirectedS, NumaProperty, GpuLink>;

constexpr int kMaxNvlinks = 18;  // NVML_NVLINK_MAX_LINKS, go-gpuallocator internal/links

// go-gpuallocator gpuallocator/besteffort_policy.go calculateGPUPairScore, PCIe part.
int pcie_score(PcieLink link) {
  switch (link) {
    case PcieLink::CrossCpu:
      return 10;
    case PcieLink::SameCpu:
      return 20;
    case PcieLink::HostBridge:
      return 30;
    case PcieLink::MultiSwitch:
      return 40;
    case PcieLink::SingleSwitch:
      return 50;
    case PcieLink::SameBoard:
      return 60;
  }
  return 0;
}

void set_error(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

std::string quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

std::string cell_name(std::size_t row, std::size_t column) {
  return "row " + std::to_string(row) + ", column " + std::to_string(column);
}

}  // namespace

struct GpuTopology::Graph {
  LinkMatrix links;

  explicit Graph(int count) : links(static_cast<std::size_t>(std::max(count, 0))) {
    const auto n = boost::num_vertices(links);
    for (std::size_t a = 0; a < n; ++a) {
      for (std::size_t b = a + 1; b < n; ++b) boost::add_edge(a, b, GpuLink{}, links);
    }
  }

  [[nodiscard]] int size() const { return static_cast<int>(boost::num_vertices(links)); }

  [[nodiscard]] bool contains(int gpu) const { return gpu >= 0 && gpu < size(); }

  [[nodiscard]] const GpuLink& link(int a, int b) const {
    GPUSCHED_CHECK(contains(a) && contains(b) && a != b,
                   "a GPU link joins two different GPUs of the node");
    const auto [edge, found] =
        boost::edge(static_cast<std::size_t>(a), static_cast<std::size_t>(b), links);
    // The graph is complete (every pair got an edge in the constructor).
    GPUSCHED_CHECK(found, "every pair of GPUs has a link");
    return links[edge];
  }

  void set_link(int a, int b, GpuLink link) {
    const auto [edge, found] =
        boost::edge(static_cast<std::size_t>(a), static_cast<std::size_t>(b), links);
    GPUSCHED_CHECK(found, "every pair of GPUs has a link");
    links[edge] = link;
  }

  [[nodiscard]] int numa_node(int gpu) const {
    GPUSCHED_CHECK(contains(gpu), "a GPU index is within the node's GPUs");
    return links[static_cast<std::size_t>(gpu)].numa_node;
  }

  void set_numa_node(int gpu, int numa) { links[static_cast<std::size_t>(gpu)].numa_node = numa; }
};

GpuTopology::GpuTopology(int count) : graph_(std::make_unique<Graph>(count)) {}

GpuTopology::GpuTopology(const GpuTopology& other)
    : graph_(std::make_unique<Graph>(*other.graph_)) {}

GpuTopology& GpuTopology::operator=(const GpuTopology& other) {
  if (this != &other) graph_ = std::make_unique<Graph>(*other.graph_);
  return *this;
}

GpuTopology::GpuTopology(GpuTopology&&) noexcept = default;
GpuTopology& GpuTopology::operator=(GpuTopology&&) noexcept = default;
GpuTopology::~GpuTopology() = default;

int GpuTopology::size() const noexcept {
  return graph_ ? graph_->size() : 0;
}

GpuLink GpuTopology::link(int a, int b) const {
  return graph_->link(a, b);
}

int GpuTopology::numa_node(int gpu) const {
  return graph_->numa_node(gpu);
}

// go-gpuallocator calculateGPUPairScore sums one PCIe P2PLink and, when GetNVLink counts any,
// one NVLink entry worth 100 per link; a device paired with itself scores 0.
int GpuTopology::pair_score(int a, int b) const {
  if (a == b) return 0;
  const GpuLink& link = graph_->link(a, b);
  return pcie_score(link.pcie) + 100 * link.nvlinks;
}

// ---------------------------------------------------------------------------------------------
// Presets

namespace {

// What a board says about one pair and one GPU.
struct Board {
  PcieLink (*pcie)(int a, int b, int count);
  int (*numa)(int gpu, int count);
};

bool same_pair(int a, int b) {
  return a / 2 == b / 2;
}

// pcie-2socket: socket 0 takes the first half of the PIX pairs, rounded up, so a pair never
// straddles the sockets; with 8 GPUs that is GPUs 0-3 and 4-7 as in the classic dual-socket
// box (gpu-sharing.md §2.4). For other counts the quads are counted from each socket's first
// GPU, each quad behind its own host bridge, so GPUs of one socket outside a common quad are
// NODE (same NUMA node, different host bridges).
int pcie_2socket_first_of_socket1(int count) {
  return 2 * ((count / 2 + 1) / 2);
}

int pcie_2socket_socket(int gpu, int count) {
  return gpu < pcie_2socket_first_of_socket1(count) ? 0 : 1;
}

PcieLink pcie_2socket_link(int a, int b, int count) {
  const int socket = pcie_2socket_socket(a, count);
  if (socket != pcie_2socket_socket(b, count)) return PcieLink::CrossCpu;
  if (same_pair(a, b)) return PcieLink::SingleSwitch;
  const int first = socket == 0 ? 0 : pcie_2socket_first_of_socket1(count);
  return (a - first) / 4 == (b - first) / 4 ? PcieLink::MultiSwitch : PcieLink::SameCpu;
}

// HGX boards: GPUs 0-3 on socket/NUMA 0, 4-7 on socket/NUMA 1 (nccl issue 1264).
int hgx_numa(int gpu, int /*count*/) {
  return gpu / 4;
}

PcieLink hgx_h100_link(int a, int b, int /*count*/) {
  return a / 4 == b / 4 ? PcieLink::SameCpu : PcieLink::CrossCpu;
}

PcieLink hgx_a100_link(int a, int b, int count) {
  return same_pair(a, b) ? PcieLink::MultiSwitch : hgx_h100_link(a, b, count);
}

// DGX A100 under NPS4: each pair shares a PCIe switch tree and a NUMA node; every other pair
// is modelled as SYS (gpu-sharing.md §2.4, nccl issue 1505).
PcieLink dgx_a100_link(int a, int b, int /*count*/) {
  return same_pair(a, b) ? PcieLink::MultiSwitch : PcieLink::CrossCpu;
}

int dgx_a100_numa(int gpu, int /*count*/) {
  constexpr std::array<int, 4> kPairNuma = {3, 1, 7, 5};
  return kPairNuma[static_cast<std::size_t>(gpu / 2)];
}

struct NamedBoard {
  std::string_view name;
  Board board;
  int fixed_count;  // 0: any even count >= 2
};

constexpr std::array<NamedBoard, 4> kBoards = {{
    {"pcie-2socket", {pcie_2socket_link, pcie_2socket_socket}, 0},
    {"hgx-h100", {hgx_h100_link, hgx_numa}, 8},
    {"hgx-a100", {hgx_a100_link, hgx_numa}, 8},
    {"dgx-a100", {dgx_a100_link, dgx_a100_numa}, 8},
}};

std::string count_error(const NamedBoard& named, int count) {
  const std::string expected = named.fixed_count == 0 ? "an even number of GPUs (2 or more)"
                                                      : std::to_string(named.fixed_count) + " GPUs";
  return "the " + std::string(named.name) + " topology has " + expected + ", not " +
         std::to_string(count);
}

bool count_fits(const NamedBoard& named, int count) {
  return named.fixed_count == 0 ? count >= 2 && count % 2 == 0 : count == named.fixed_count;
}

}  // namespace

std::optional<GpuTopology> GpuTopology::preset(std::string_view name, int count,
                                               std::string* error) {
  const auto named = std::find_if(kBoards.begin(), kBoards.end(),
                                  [&](const NamedBoard& b) { return b.name == name; });
  if (named == kBoards.end()) {
    set_error(error, "unknown GPU topology preset " + quoted(name) +
                         " (expected pcie-2socket, hgx-h100, hgx-a100 or dgx-a100)");
    return std::nullopt;
  }
  if (!count_fits(*named, count)) {
    set_error(error, count_error(*named, count));
    return std::nullopt;
  }
  GpuTopology topology(count);
  for (int a = 0; a < count; ++a) {
    topology.graph_->set_numa_node(a, named->board.numa(a, count));
    for (int b = a + 1; b < count; ++b) {
      topology.graph_->set_link(a, b, GpuLink{named->board.pcie(a, b, count), 0});
    }
  }
  return topology;
}

// ---------------------------------------------------------------------------------------------
// nvidia-smi topo -m

namespace {

// One off-diagonal cell; `explicit_pcie` is false for a bare "NV<k>", whose PCIe level
// nvidia-smi does not print.
struct ParsedCell {
  GpuLink link;
  bool explicit_pcie = true;
};

// The legend of `nvidia-smi topo -m` and the go-gpuallocator P2PLinkType each level maps to
// (internal/links/device.go GetP2PLink).
std::optional<PcieLink> parse_pcie(std::string_view text) {
  constexpr std::array<std::pair<std::string_view, PcieLink>, 5> kLevels = {{
      {"PIX", PcieLink::SingleSwitch},
      {"PXB", PcieLink::MultiSwitch},
      {"PHB", PcieLink::HostBridge},
      {"NODE", PcieLink::SameCpu},
      {"SYS", PcieLink::CrossCpu},
  }};
  for (const auto& [name, level] : kLevels) {
    if (text == name) return level;
  }
  return std::nullopt;
}

// "NV<k>": the digits after NV, without a sign or leading zero; nullopt when not that shape.
std::optional<int> parse_nvlink_count(std::string_view text) {
  if (text.size() < 3 || text.size() > 4 || text.substr(0, 2) != "NV") return std::nullopt;
  const std::string_view digits = text.substr(2);
  if (digits.front() == '0') return std::nullopt;
  int value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::optional<ParsedCell> parse_cell(std::string_view text, const std::string& where,
                                     std::string* error) {
  if (text == "X") {
    set_error(error, where + ": X belongs on the diagonal only");
    return std::nullopt;
  }
  if (const auto level = parse_pcie(text)) return ParsedCell{GpuLink{*level, 0}, true};
  const auto plus = text.find('+');
  const auto nvlinks = parse_nvlink_count(text.substr(0, plus));
  const auto level = plus == std::string_view::npos ? std::optional<PcieLink>{}
                                                    : parse_pcie(text.substr(plus + 1));
  if (!nvlinks || (plus != std::string_view::npos && !level)) {
    set_error(error, where + ": unknown link " + quoted(text));
    return std::nullopt;
  }
  if (*nvlinks > kMaxNvlinks) {
    set_error(error, where + ": " + quoted(text) + " has " + std::to_string(*nvlinks) +
                         " NVLinks; a GPU has at most " + std::to_string(kMaxNvlinks));
    return std::nullopt;
  }
  return ParsedCell{GpuLink{level.value_or(PcieLink::CrossCpu), *nvlinks}, level.has_value()};
}

using CellGrid = std::vector<std::vector<ParsedCell>>;

std::optional<CellGrid> parse_grid(const std::vector<std::vector<std::string>>& cells,
                                   std::string* error) {
  const std::size_t n = cells.size();
  for (std::size_t row = 0; row < n; ++row) {
    if (cells[row].size() != n) {
      const std::size_t width = cells[row].size();
      set_error(error, "not square: " + std::to_string(n) + " rows, but row " +
                           std::to_string(row) + " has " + std::to_string(width) +
                           (width == 1 ? " cell" : " cells"));
      return std::nullopt;
    }
  }
  CellGrid grid(n, std::vector<ParsedCell>(n));
  for (std::size_t row = 0; row < n; ++row) {
    for (std::size_t column = 0; column < n; ++column) {
      const std::string& text = cells[row][column];
      const std::string where = cell_name(row, column);
      if (row == column) {
        if (text == "X") continue;
        set_error(error, where + ": the diagonal must be X, not " + quoted(text));
        return std::nullopt;
      }
      auto cell = parse_cell(text, where, error);
      if (!cell) return std::nullopt;
      grid[row][column] = *cell;
    }
  }
  return grid;
}

// nvidia-smi prints both directions of a pair, and NVML answers the same for both; a matrix
// that disagrees with itself describes no machine (go-gpuallocator would even panic: "all
// P2PLinks between 2 GPUs should be bidirectional"). Checked once every cell is known to parse.
bool check_symmetric(const std::vector<std::vector<std::string>>& cells, std::string* error) {
  for (std::size_t row = 0; row < cells.size(); ++row) {
    for (std::size_t column = row + 1; column < cells.size(); ++column) {
      if (cells[row][column] == cells[column][row]) continue;
      set_error(error, "not symmetric at " + cell_name(row, column) + ": " +
                           quoted(cells[row][column]) + ", but " + cell_name(column, row) + " is " +
                           quoted(cells[column][row]));
      return false;
    }
  }
  return true;
}

// NUMA node per GPU: connected components of "an explicit PCIe level closer than SYS",
// numbered in order of their lowest GPU.
std::vector<int> numa_groups(const CellGrid& grid) {
  const std::size_t n = grid.size();
  std::vector<std::size_t> root(n);
  std::iota(root.begin(), root.end(), std::size_t{0});
  const auto find = [&](std::size_t v) {
    while (root[v] != v) v = root[v] = root[root[v]];
    return v;
  };
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      const ParsedCell& cell = grid[a][b];
      if (cell.explicit_pcie && cell.link.pcie != PcieLink::CrossCpu) {
        // std::minmax of temporaries would return dangling references: compare copies.
        const std::size_t ra = find(a);
        const std::size_t rb = find(b);
        root[std::max(ra, rb)] = std::min(ra, rb);
      }
    }
  }
  std::vector<int> numa(n, -1);
  int next = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t r = find(v);
    if (numa[r] < 0) numa[r] = next++;
    numa[v] = numa[r];
  }
  return numa;
}

// A bare "NV<k>" still has a PCIe common ancestor that go-gpuallocator scores; the matrix only
// bounds it: NODE when the two GPUs share a NUMA node, SYS otherwise.
PcieLink inferred_pcie(const ParsedCell& cell, int numa_a, int numa_b) {
  if (cell.explicit_pcie) return cell.link.pcie;
  return numa_a == numa_b ? PcieLink::SameCpu : PcieLink::CrossCpu;
}

}  // namespace

std::optional<GpuTopology> GpuTopology::from_matrix(
    const std::vector<std::vector<std::string>>& cells, std::string* error) {
  const auto grid = parse_grid(cells, error);
  if (!grid || !check_symmetric(cells, error)) return std::nullopt;
  const std::vector<int> numa = numa_groups(*grid);
  const int n = static_cast<int>(grid->size());
  GpuTopology topology(n);
  for (int a = 0; a < n; ++a) {
    const auto row = static_cast<std::size_t>(a);
    topology.graph_->set_numa_node(a, numa[row]);
    for (int b = a + 1; b < n; ++b) {
      const ParsedCell& cell = (*grid)[row][static_cast<std::size_t>(b)];
      const PcieLink pcie = inferred_pcie(cell, numa[row], numa[static_cast<std::size_t>(b)]);
      topology.graph_->set_link(a, b, GpuLink{pcie, cell.link.nvlinks});
    }
  }
  return topology;
}

}  // namespace gpusched::devices
