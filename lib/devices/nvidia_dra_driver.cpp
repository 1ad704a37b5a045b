#include "devices/nvidia_dra_driver.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <utility>

#include "devices/mig.hpp"
#include "gpusched/error.hpp"

namespace gpusched::devices {
namespace {

using dra::DeviceAttribute;

constexpr std::string_view kDriver = kNvidiaDraDriverName;

// GPU Feature Discovery's labels the attributes come from when a node carries them
// (k8s-device-plugin internal/lm: cuda.driver.*, cuda.runtime.*, the newer *-version.* forms, and
// gpu.compute.*).
constexpr std::string_view kComputeMajorLabel = "nvidia.com/gpu.compute.major";
constexpr std::string_view kComputeMinorLabel = "nvidia.com/gpu.compute.minor";
constexpr std::string_view kDriverFullLabel = "nvidia.com/cuda.driver-version.full";
constexpr std::string_view kDriverMajorLabel = "nvidia.com/cuda.driver.major";
constexpr std::string_view kDriverMinorLabel = "nvidia.com/cuda.driver.minor";
constexpr std::string_view kDriverRevLabel = "nvidia.com/cuda.driver.rev";
constexpr std::string_view kRuntimeFullLabel = "nvidia.com/cuda.runtime-version.full";
constexpr std::string_view kRuntimeMajorLabel = "nvidia.com/cuda.runtime.major";
constexpr std::string_view kRuntimeMinorLabel = "nvidia.com/cuda.runtime.minor";

// device_health.go: TaintKeyXID, and the XID gpusched stands an unhealthy GPU in for.
constexpr std::string_view kXidTaintKey = "gpu.nvidia.com/xid";
constexpr std::string_view kUnhealthyXid = "48";

// ---------------------------------------------------------------------------------------------
// MIG GPU-instance profiles as NVML describes them.

// The memory slices of a GPU (the largest placement's size: inspectMigProfilesAndPlacements'
// memSliceCount).
constexpr int kMemorySlices = 8;

// NVML's possible placements (nvidia-smi mig -lgipp; go-nvml pkg/nvml/mock/gpus/a100.go
// a100_GpuInstancePlacements). The 80GB and 141GB products share the A100 geometry, as mig.cpp's
// slice counts do.
constexpr int kEverySlot[] = {0, 1, 2, 3, 4, 5, 6};
constexpr int kEvenSlots[] = {0, 2, 4, 6};
constexpr int kTwoSliceSlots[] = {0, 2, 4};
constexpr int kHalves[] = {0, 4};
constexpr int kFirstSlot[] = {0};

// One GPU-instance profile: its shape (mig.cpp's MigProfileSpec: compute slices, memory slices,
// "+me"), its id (GpuInstanceProfileInfo.Id, what `nvidia-smi mig -lgip` prints and the device
// name carries: "gpu-1-mig-2g47gb-14-0" in device_state.go, "gpu-2-mig-1g24gb-19-0" in
// partitions.go) and where it can be placed.
struct GiShape {
  int gpu_slices;
  int memory_slices;
  bool media_extensions;
  int id;
  std::span<const int> starts;
};

constexpr std::array<GiShape, 7> kShapes = {{
    {1, 1, false, 19, kEverySlot},      // 1g.5gb, 1g.10gb, 1g.18gb
    {1, 1, true, 20, kEverySlot},       // 1g.*+me
    {1, 2, false, 15, kEvenSlots},      // 1g.10gb (40GB), 1g.20gb, 1g.35gb
    {2, 2, false, 14, kTwoSliceSlots},  // 2g
    {3, 4, false, 9, kHalves},          // 3g
    {4, 4, false, 5, kFirstSlot},       // 4g
    {7, 8, false, 0, kFirstSlot},       // 7g
}};

std::size_t shape_index(const MigProfileSpec& spec) {
  const bool me = spec.name.ends_with("+me");
  for (std::size_t i = 0; i < kShapes.size(); ++i) {
    const GiShape& s = kShapes[i];
    if (s.gpu_slices == spec.gpu_slices && s.memory_slices == spec.memory_slices &&
        s.media_extensions == me) {
      return i;
    }
  }
  GPUSCHED_CHECK(false, "every MIG profile of mig.cpp's tables has an NVML shape");
  return 0;
}

// GpuInstanceProfileInfo's counts (MultiprocessorCount, CopyEngineCount, DecoderCount,
// EncoderCount, JpegCount, OfaCount, MemorySizeMB in MiB), per shape in kShapes' order.
struct GiNumbers {
  int multiprocessors;
  int copy_engines;
  int decoders;
  int encoders;
  int jpeg_engines;
  int ofa_engines;
  std::int64_t memory_mib;
};

struct NvmlMigProduct {
  bool hopper;  // supportsMIGModeToggle: Hopper and later toggle MIG without a reset
  std::array<GiNumbers, 7> profiles;
};

// What `nvidia-smi mig -lgip` reports (R550-R570 drivers). A100-40GB: go-nvml
// pkg/nvml/mock/gpus/a100.go a100_40gb_GpuInstanceProfiles, the same as the hardware's listing.
constexpr NvmlMigProduct kA100_40gb = {false,
                                       {{
                                           {14, 1, 0, 0, 0, 0, 4864},
                                           {14, 1, 1, 0, 1, 1, 4864},
                                           {14, 1, 1, 0, 0, 0, 9856},
                                           {28, 2, 1, 0, 0, 0, 9856},
                                           {42, 3, 2, 0, 0, 0, 19968},
                                           {56, 4, 2, 0, 0, 0, 19968},
                                           {98, 7, 5, 0, 1, 1, 40192},
                                       }}};
// A100-SXM4-80GB listings: 9.50, 19.50, 39.25 and 79.00 GiB; engines as the 40GB product.
constexpr NvmlMigProduct kA100_80gb = {false,
                                       {{
                                           {14, 1, 0, 0, 0, 0, 9728},
                                           {14, 1, 1, 0, 1, 1, 9728},
                                           {14, 1, 1, 0, 0, 0, 19968},
                                           {28, 2, 1, 0, 0, 0, 19968},
                                           {42, 3, 2, 0, 0, 0, 40192},
                                           {56, 4, 2, 0, 0, 0, 40192},
                                           {98, 7, 5, 0, 1, 1, 80896},
                                       }}};
// H100 80GB HBM3 (132 SMs): 9.75, 19.62, 39.50 and 79.25 GiB.
constexpr NvmlMigProduct kH100Sxm = {true,
                                     {{
                                         {16, 1, 1, 0, 1, 0, 9984},
                                         {16, 1, 1, 0, 1, 1, 9984},
                                         {26, 1, 1, 0, 1, 0, 20096},
                                         {32, 2, 2, 0, 2, 0, 20096},
                                         {60, 3, 3, 0, 3, 0, 40448},
                                         {64, 4, 4, 0, 4, 0, 40448},
                                         {132, 8, 7, 0, 7, 1, 81152},
                                     }}};
// H100 PCIe (114 SMs): the SXM listing's memory and engines.
constexpr NvmlMigProduct kH100Pcie = {true,
                                      {{
                                          {14, 1, 1, 0, 1, 0, 9984},
                                          {14, 1, 1, 0, 1, 1, 9984},
                                          {14, 1, 1, 0, 1, 0, 20096},
                                          {30, 2, 2, 0, 2, 0, 20096},
                                          {46, 3, 3, 0, 3, 0, 40448},
                                          {62, 4, 4, 0, 4, 0, 40448},
                                          {114, 8, 7, 0, 7, 1, 81152},
                                      }}};
// H200 141GB (132 SMs): 16.00, 32.50 and 140.00 GiB for 1g, 2g and 7g in its listing, 65.00 GiB
// for 3g.71gb (what CUDA reports in it); the 1g.35gb and 4g.71gb profiles take the memory of
// the 2g and 3g profiles with the same memory slices; SMs and engines as the H100 SXM (the MIG
// user guide's H200 table).
constexpr NvmlMigProduct kH200 = {true,
                                  {{
                                      {16, 1, 1, 0, 1, 0, 16384},
                                      {16, 1, 1, 0, 1, 1, 16384},
                                      {26, 1, 1, 0, 1, 0, 33280},
                                      {32, 2, 2, 0, 2, 0, 33280},
                                      {60, 3, 3, 0, 3, 0, 66560},
                                      {64, 4, 4, 0, 4, 0, 66560},
                                      {132, 8, 7, 0, 7, 1, 143360},
                                  }}};

// ---------------------------------------------------------------------------------------------
// The product, as NVML would name and describe it.

std::vector<std::string> upper_tokens(std::string_view text) {
  std::vector<std::string> tokens(1);
  for (const char c : text) {
    if (c == '-' || c == '_' || c == ' ') {
      if (!tokens.back().empty()) tokens.emplace_back();
    } else {
      tokens.back() += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  if (tokens.back().empty()) tokens.pop_back();
  return tokens;
}

bool has_token(const std::vector<std::string>& tokens, std::string_view token) {
  return std::find(tokens.begin(), tokens.end(), token) != tokens.end();
}

// What NVML tells the plugin about a MIG-capable GPU; nullptr when gpusched knows no MIG profiles
// for the product (then the GPU counts as not MIG-capable).
struct MigFacts {
  const MigProduct* table = nullptr;
  const NvmlMigProduct* nvml = nullptr;
};

MigFacts mig_facts(const NodeDevices& devices) {
  MigFacts out;
  out.table = find_mig_product(devices.product, devices.memory_mib);
  if (out.table == nullptr) return out;
  const std::vector<std::string> tokens = upper_tokens(devices.product);
  if (out.table->name == "A100-40GB") {
    out.nvml = &kA100_40gb;
  } else if (out.table->name == "H200-141GB") {
    out.nvml = &kH200;
  } else if (has_token(tokens, "A100") || has_token(tokens, "A800")) {
    out.nvml = &kA100_80gb;
  } else {
    out.nvml = has_token(tokens, "PCIE") ? &kH100Pcie : &kH100Sxm;
  }
  return out;
}

// GFD's gpu.product is NVML's name with spaces turned into '-' (sanitise); turn them back. NVML
// writes the A100/A800 SXM4 and PCIE (40GB) names with hyphens after the model.
std::string product_name(std::string_view product) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t dash = product.find('-', start);
    parts.push_back(product.substr(start, dash == std::string_view::npos ? dash : dash - start));
    if (dash == std::string_view::npos) break;
    start = dash + 1;
  }
  const bool hyphenated = parts.size() >= 3 && (parts[1] == "A100" || parts[1] == "A800") &&
                          (parts[2] == "SXM4" || parts[2] == "PCIE");
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += hyphenated && i >= 2 ? '-' : ' ';
    out += parts[i];
  }
  return out;
}

struct ComputeCapability {
  int major = 0;
  int minor = 0;
};

std::optional<int> parse_int(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0) {
    return std::nullopt;
  }
  return value;
}

const std::string* label(const Node& node, std::string_view key) {
  const auto it = node.metadata.labels->find(key);
  return it == node.metadata.labels->end() ? nullptr : &it->second;
}

// GFD's gpu.compute.* labels, else the product's, as NVML's GetCudaComputeCapability would say.
std::optional<ComputeCapability> compute_capability(const Node& node, std::string_view product) {
  const std::string* major = label(node, kComputeMajorLabel);
  const std::string* minor = label(node, kComputeMinorLabel);
  if (major != nullptr && minor != nullptr) {
    const auto ma = parse_int(*major);
    const auto mi = parse_int(*minor);
    if (ma && mi) return ComputeCapability{*ma, *mi};
  }
  struct Known {
    std::string_view token;
    ComputeCapability cc;
  };
  static constexpr Known kKnown[] = {
      {"A100", {8, 0}},   {"A800", {8, 0}},  {"A30", {8, 0}},    {"A10", {8, 6}},
      {"A10G", {8, 6}},   {"A16", {8, 6}},   {"A2", {8, 6}},     {"A40", {8, 6}},
      {"A6000", {8, 6}},  {"A5000", {8, 6}}, {"A4000", {8, 6}},  {"H100", {9, 0}},
      {"H800", {9, 0}},   {"H200", {9, 0}},  {"H20", {9, 0}},    {"GH200", {9, 0}},
      {"L4", {8, 9}},     {"L40", {8, 9}},   {"L40S", {8, 9}},   {"L20", {8, 9}},
      {"B100", {10, 0}},  {"B200", {10, 0}}, {"GB200", {10, 0}}, {"B300", {10, 3}},
      {"GB300", {10, 3}}, {"T4", {7, 5}},    {"V100", {7, 0}},   {"P100", {6, 0}},
  };
  const std::vector<std::string> tokens = upper_tokens(product);
  for (const Known& k : kKnown) {
    if (has_token(tokens, k.token)) return k.cc;
  }
  return std::nullopt;
}

// go-nvlib GetArchitectureAsString for the architecture a compute capability belongs to.
std::optional<std::string> architecture(const ComputeCapability& cc) {
  switch (cc.major) {
    case 6:
      return "Pascal";
    case 7:
      return cc.minor < 5 ? "Volta" : "Turing";
    case 8:
      return cc.minor == 9 ? "Ada Lovelace" : "Ampere";
    case 9:
      return "Hopper";
    case 10:
    case 11:
    case 12:
      return "Blackwell";
    default:
      return std::nullopt;
  }
}

// semver.MustParse(x).String() for the versions NVML gives: "550.90.07" -> "550.90.7",
// "12.4" -> "12.4.0". nullopt for text that is not one to three dot-separated numbers.
std::optional<std::string> semver_text(std::string_view text) {
  std::vector<int> parts;
  for (std::size_t start = 0;;) {
    const std::size_t dot = text.find('.', start);
    const auto n = parse_int(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (!n) return std::nullopt;
    parts.push_back(*n);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (parts.size() > 3) return std::nullopt;
  parts.resize(3, 0);
  return std::to_string(parts[0]) + "." + std::to_string(parts[1]) + "." + std::to_string(parts[2]);
}

// A version from GFD's "full" label, else from its major/minor(/rev) labels; an empty rev
// (drivers such as 550.120) is none.
std::optional<std::string> labelled_version(const Node& node, std::string_view full,
                                            std::initializer_list<std::string_view> parts) {
  if (const std::string* text = label(node, full); text != nullptr && !text->empty()) {
    return semver_text(*text);
  }
  std::string joined;
  for (std::string_view key : parts) {
    const std::string* value = label(node, key);
    if (value == nullptr) {
      if (joined.empty()) return std::nullopt;
      break;
    }
    if (value->empty()) break;
    joined += (joined.empty() ? "" : ".") + *value;
  }
  if (joined.empty()) return std::nullopt;
  return semver_text(joined);
}

// resource.kubernetes.io/pcieRoot per GPU: GPUs joined by a link below a host bridge (PHB, PXB,
// PIX, same board) share a root complex; NODE and SYS cross host bridges.
std::vector<std::string> pcie_roots(const GpuTopology& topology) {
  const int n = topology.size();
  std::vector<int> root(static_cast<std::size_t>(n), -1);
  int next = 0;
  for (int i = 0; i < n; ++i) {
    if (root[static_cast<std::size_t>(i)] >= 0) continue;
    root[static_cast<std::size_t>(i)] = next;
    // Every GPU reachable from i over same-root links, in index order.
    std::vector<int> stack = {i};
    while (!stack.empty()) {
      const int a = stack.back();
      stack.pop_back();
      for (int b = 0; b < n; ++b) {
        if (b == a || root[static_cast<std::size_t>(b)] >= 0) continue;
        if (topology.link(a, b).pcie >= PcieLink::HostBridge) {
          root[static_cast<std::size_t>(b)] = next;
          stack.push_back(b);
        }
      }
    }
    ++next;
  }
  std::vector<std::string> out;
  for (const int r : root) {
    char text[16];
    std::snprintf(text, sizeof text, "pci0000:%02x", static_cast<unsigned>(r));
    out.emplace_back(text);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Devices.

// What getGpuInfo learns once per GPU and every device on it repeats (CommonAttributesMig).
struct GpuFacts {
  std::string product_name;
  std::optional<std::string> architecture;
  std::optional<std::string> cuda_compute_capability;
  std::optional<std::string> driver_version;
  std::optional<std::string> cuda_driver_version;
};

GpuFacts gpu_facts(const Node& node, const NodeDevices& devices) {
  GpuFacts out;
  out.product_name = product_name(devices.product);
  if (const auto cc = compute_capability(node, devices.product)) {
    out.architecture = architecture(*cc);
    out.cuda_compute_capability =
        std::to_string(cc->major) + "." + std::to_string(cc->minor) + ".0";
  }
  out.driver_version = labelled_version(node, kDriverFullLabel,
                                        {kDriverMajorLabel, kDriverMinorLabel, kDriverRevLabel});
  out.cuda_driver_version =
      labelled_version(node, kRuntimeFullLabel, {kRuntimeMajorLabel, kRuntimeMinorLabel});
  return out;
}

// GpuInfo.Attributes and CommonAttributesMig, less what the device kind adds.
dra::AttributeMap common_attributes(const GpuFacts& facts, const std::string& pcie_root) {
  dra::AttributeMap a;
  a["productName"] = DeviceAttribute::of_string(facts.product_name);
  a["brand"] = DeviceAttribute::of_string("Nvidia");
  if (facts.architecture) a["architecture"] = DeviceAttribute::of_string(*facts.architecture);
  if (facts.cuda_compute_capability) {
    a["cudaComputeCapability"] = DeviceAttribute::of_version(*facts.cuda_compute_capability);
  }
  if (facts.driver_version) a["driverVersion"] = DeviceAttribute::of_version(*facts.driver_version);
  if (facts.cuda_driver_version) {
    a["cudaDriverVersion"] = DeviceAttribute::of_version(*facts.cuda_driver_version);
  }
  a["resource.kubernetes.io/pcieRoot"] = DeviceAttribute::of_string(pcie_root);
  return a;
}

Quantity binary(std::int64_t units) {
  return Quantity::from_units(units, QuantityFormat::BinarySI);
}

constexpr std::int64_t kMiB = 1024 * 1024;

// GpuInfo.GetDevice: a full GPU.
dra::Device full_gpu(const PhysicalGpu& gpu, const NodeDevices& devices, const GpuFacts& facts,
                     const std::string& pcie_root) {
  dra::Device d;
  d.name = "gpu-" + std::to_string(gpu.index);
  d.attributes = common_attributes(facts, pcie_root);
  d.attributes["type"] = DeviceAttribute::of_string("gpu");
  d.attributes["uuid"] = DeviceAttribute::of_string(gpu.uuid);
  // fullGpuCapacity: NVML's total memory; none when it is not known.
  if (devices.memory_mib > 0) d.capacity["memory"] = {binary(devices.memory_mib * kMiB), {}};
  return d;
}

// CommonCapacitiesMig: the capacity names, and the counters capacitiesToCounters derives from
// them (camelToDNSName).
struct CapacityName {
  std::string_view capacity;
  std::string_view counter;
  std::int64_t (*value)(const GiNumbers&);
};
constexpr CapacityName kMigCapacities[] = {
    {"multiprocessors", "multiprocessors",
     [](const GiNumbers& g) -> std::int64_t { return g.multiprocessors; }},
    {"copyEngines", "copy-engines",
     [](const GiNumbers& g) -> std::int64_t { return g.copy_engines; }},
    {"decoders", "decoders", [](const GiNumbers& g) -> std::int64_t { return g.decoders; }},
    {"encoders", "encoders", [](const GiNumbers& g) -> std::int64_t { return g.encoders; }},
    {"jpegEngines", "jpeg-engines",
     [](const GiNumbers& g) -> std::int64_t { return g.jpeg_engines; }},
    {"ofaEngines", "ofa-engines", [](const GiNumbers& g) -> std::int64_t { return g.ofa_engines; }},
    {"memory", "memory", [](const GiNumbers& g) -> std::int64_t { return g.memory_mib * kMiB; }},
};

dra::CapacityMap mig_capacity(const GiNumbers& numbers) {
  dra::CapacityMap out;
  for (const CapacityName& c : kMigCapacities)
    out[std::string(c.capacity)] = {binary(c.value(numbers)), {}};
  return out;
}

dra::CounterMap mig_counters(const GiNumbers& numbers, int start, int size) {
  dra::CounterMap out;
  for (const CapacityName& c : kMigCapacities)
    out[std::string(c.counter)] = binary(c.value(numbers));
  // addCountersForMemSlices / memsliceCounterName.
  for (int i = start; i < start + size; ++i) out["memory-slice-" + std::to_string(i)] = binary(1);
  return out;
}

// MigSpecTuple.ToCanonicalName: "gpu-<minor>-mig-<profile without dots, RFC 1123>-<id>-<start>";
// toRFC1123Compliant lowercases and turns anything outside [a-z0-9-.] into '-'.
std::string mig_device_name(int minor, std::string_view profile, int id, int start) {
  std::string p;
  for (const char c : profile) {
    if (c == '.') continue;
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    p += (std::isalnum(static_cast<unsigned char>(l)) != 0 || l == '-') ? l : '-';
  }
  while (!p.empty() && p.front() == '-') p.erase(p.begin());
  while (!p.empty() && p.back() == '-') p.pop_back();
  return "gpu-" + std::to_string(minor) + "-mig-" + p + "-" + std::to_string(id) + "-" +
         std::to_string(start);
}

dra::AttributeMap mig_attributes(const PhysicalGpu& parent, std::string_view profile,
                                 const GpuFacts& facts, const std::string& pcie_root) {
  dra::AttributeMap a = common_attributes(facts, pcie_root);
  a["type"] = DeviceAttribute::of_string("mig");
  a["parentUUID"] = DeviceAttribute::of_string(parent.uuid);
  a["profile"] = DeviceAttribute::of_string(std::string(profile));
  return a;
}

// Where mig-parted's instances land: the lowest free placement of each device in creation
// order, backtracking when a later one finds none (NVML's own choice is not documented).
bool place(const std::vector<const GiShape*>& shapes, std::size_t k,
           std::array<bool, kMemorySlices>& used, std::vector<int>& starts) {
  if (k == shapes.size()) return true;
  const GiShape& s = *shapes[k];
  for (const int start : s.starts) {
    const auto first = used.begin() + start;
    if (std::any_of(first, first + s.memory_slices, [](bool u) { return u; })) continue;
    std::fill(first, first + s.memory_slices, true);
    starts.push_back(start);
    if (place(shapes, k + 1, used, starts)) return true;
    starts.pop_back();
    std::fill(first, first + s.memory_slices, false);
  }
  return false;
}

const MigProfileSpec& spec_of(const MigProduct& table, std::string_view profile) {
  const auto it = std::find_if(table.profiles.begin(), table.profiles.end(),
                               [&](const MigProfileSpec& s) { return s.name == profile; });
  GPUSCHED_CHECK(it != table.profiles.end(), "a MIG device's profile is in its product's table");
  return *it;
}

// The static MIG devices of one GPU (MigDeviceInfo.GetDevice), or the plugin's startup error for a
// device whose compute instance is smaller than its GPU instance: getGpuInfo keeps only C == G
// profiles, so getMigDevices finds no profile for it.
std::optional<std::vector<dra::Device>> static_mig_devices(const PhysicalGpu& gpu,
                                                           const MigFacts& mig,
                                                           const GpuFacts& facts,
                                                           const std::string& pcie_root,
                                                           std::string* error) {
  std::vector<const GiShape*> shapes;
  std::vector<const MigProfileSpec*> specs;
  for (const MigDevice& m : gpu.mig) {
    std::string parse_error;
    const std::optional<MigProfile> profile = parse_mig_profile(m.profile, &parse_error);
    GPUSCHED_CHECK(profile.has_value(), "a MIG device's profile name parses");
    if (!registers_mig_resource(*profile)) {
      const std::string name = "\"gpu-" + std::to_string(gpu.index) + "\"";
      *error =
          "error creating driver: error enumerating all possible devices: error enumerating "
          "allocatable devices: error visiting devices: error visiting device: error "
          "discovering MIG devices for GPU " +
          name + ": error getting MIG devices for GPU " + name +
          ": error enumerating MIG devices: error getting profile info for MIG device: " + m.uuid;
      return std::nullopt;
    }
    GPUSCHED_CHECK(mig.table != nullptr, "a GPU with MIG devices has a MIG table");
    specs.push_back(&spec_of(*mig.table, m.profile));
    shapes.push_back(&kShapes[shape_index(*specs.back())]);
  }
  std::array<bool, kMemorySlices> used{};
  std::vector<int> starts;
  GPUSCHED_CHECK(place(shapes, 0, used, starts),
                 "resolve_mig_layout's slice sums admit only layouts NVML can place");
  std::vector<dra::Device> out;
  for (std::size_t j = 0; j < gpu.mig.size(); ++j) {
    const GiShape& shape = *shapes[j];
    const GiNumbers& numbers =
        mig.nvml->profiles[static_cast<std::size_t>(&shape - kShapes.data())];
    dra::Device d;
    d.name = mig_device_name(gpu.index, gpu.mig[j].profile, shape.id, starts[j]);
    d.attributes = mig_attributes(gpu, gpu.mig[j].profile, facts, pcie_root);
    d.attributes["uuid"] = DeviceAttribute::of_string(gpu.mig[j].uuid);
    d.capacity = mig_capacity(numbers);
    for (int i = starts[j]; i < starts[j] + shape.memory_slices; ++i) {
      d.capacity["memorySlice" + std::to_string(i)] = {binary(1), {}};
    }
    out.push_back(std::move(d));
  }
  return out;
}

// One GPU's devices and, under DynamicMIG, its counter set.
struct GpuDevices {
  std::vector<dra::Device> devices;
  std::optional<dra::CounterSet> counters;
};

// The DynamicMIG view of one GPU (GetPerGpuAllocatableDevices' DynamicMIG branch, PartGetDevice).
GpuDevices dynamic_gpu(const PhysicalGpu& gpu, const NodeDevices& devices, const MigFacts& mig,
                       const GpuFacts& facts, const std::string& pcie_root) {
  GpuDevices out;
  dra::Device full = full_gpu(gpu, devices, facts, pcie_root);
  // isDynamicMIGCapable: MIG-capable, and Hopper or later or MIG already on.
  if (mig.table == nullptr || (!mig.nvml->hopper && !gpu.mig_enabled)) {
    out.devices.push_back(std::move(full));
    return out;
  }
  const std::string set_name = full.name + "-counter-set";
  // inspectMigProfilesAndPlacements: every profile at every placement, and per capacity the
  // largest any of them has (setMax).
  GiNumbers largest{};
  for (const MigProfileSpec& spec : mig.table->profiles) {
    const std::size_t k = shape_index(spec);
    const GiShape& shape = kShapes[k];
    const GiNumbers& n = mig.nvml->profiles[k];
    largest = {std::max(largest.multiprocessors, n.multiprocessors),
               std::max(largest.copy_engines, n.copy_engines),
               std::max(largest.decoders, n.decoders),
               std::max(largest.encoders, n.encoders),
               std::max(largest.jpeg_engines, n.jpeg_engines),
               std::max(largest.ofa_engines, n.ofa_engines),
               std::max(largest.memory_mib, n.memory_mib)};
    for (const int start : shape.starts) {
      dra::Device d;
      d.name = mig_device_name(gpu.index, spec.name, shape.id, start);
      d.attributes = mig_attributes(gpu, spec.name, facts, pcie_root);
      d.capacity = mig_capacity(n);
      d.consumes_counters.push_back({set_name, mig_counters(n, start, shape.memory_slices)});
      out.devices.push_back(std::move(d));
    }
  }
  // PartSharedCounterSets and PartConsumesCounters: the full GPU takes every counter.
  out.counters = dra::CounterSet{set_name, mig_counters(largest, 0, kMemorySlices)};
  // A MIG-enabled Ampere GPU cannot leave MIG mode without a reset: no full device.
  if (mig.nvml->hopper || !gpu.mig_enabled) {
    full.capacity = mig_capacity(largest);  // PartCapacities: maxCapacities
    full.consumes_counters.push_back({set_name, out.counters->counters});
    out.devices.push_back(std::move(full));
  }
  return out;
}

void sort_by_name(std::vector<dra::Device>& devices) {
  std::sort(devices.begin(), devices.end(),
            [](const dra::Device& a, const dra::Device& b) { return a.name < b.name; });
}

// ---------------------------------------------------------------------------------------------
// Slices.

// names.SimpleNameGenerator: generateName cut to 58 characters, then 5 characters from this
// alphabet (utilrand.String), here taken from the FNV-1a hash of the prefix.
std::string generated_name(std::string prefix) {
  constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  constexpr std::size_t kMaxPrefix = 58;
  if (prefix.size() > kMaxPrefix) prefix.resize(kMaxPrefix);
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : prefix) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  for (int i = 0; i < 5; ++i) {
    prefix += kAlphabet[hash % kAlphabet.size()];
    hash /= kAlphabet.size();
  }
  return prefix;
}

// encodeIndex: fmt.Sprintf("%0*x", width, index).
std::string hex_index(std::size_t index, std::size_t width) {
  constexpr std::string_view kDigits = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[index % 16]);
    index /= 16;
  } while (index > 0);
  if (out.size() < width) out.insert(0, width - out.size(), '0');
  return out;
}

// The resourceslice controller's slices for one pool: names "<index>-<driver>-<owner>-<suffix>"
// with the index in hex, at least 5 digits (encodeIndex, getIndexLength), a first generation,
// the node as owner and nodeName.
std::vector<dra::ResourceSlice> pool_slices(const Node& node,
                                            std::vector<dra::ResourceSlice> slices) {
  const std::string& name = node.metadata.name;
  std::size_t width = 1;  // the hex digits of the last index (getIndexLength), at least 5
  for (std::size_t last = slices.empty() ? 0 : slices.size() - 1; last >= 16; last /= 16) ++width;
  width = std::max<std::size_t>(width, 5);
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const std::string index = hex_index(i, width);
    dra::ResourceSlice& s = slices[i];
    s.metadata.name = generated_name(index + "-" + std::string(kDriver) + "-" + name + "-");
    s.metadata.owner_references =
        std::vector<OwnerReference>{{"Node", name, node.metadata.uid, true}};
    s.driver = std::string(kDriver);
    s.pool = {name, 1, static_cast<std::int64_t>(slices.size())};
    s.node_name = name;
  }
  return slices;
}

}  // namespace

bool serves_gpus_with_dra(const Node& node) {
  const std::string* value = label(node, kDraKubeletPluginLabel);
  return value != nullptr && *value == "true";
}

std::vector<dra::DeviceClass> nvidia_device_classes() {
  // deployments/helm/dra-driver-nvidia-gpu/templates/deviceclass-*.yaml at v0.4.0.
  auto device_class = [](std::string name, std::string expression) {
    dra::DeviceClass c;
    c.metadata.name = std::move(name);
    c.selectors.push_back({std::move(expression)});
    return c;
  };
  std::vector<dra::DeviceClass> out;
  out.push_back(device_class("compute-domain-daemon.nvidia.com",
                             "device.driver == 'compute-domain.nvidia.com' && "
                             "device.attributes['compute-domain.nvidia.com'].type == 'daemon'"));
  out.push_back(device_class("compute-domain-default-channel.nvidia.com",
                             "device.driver == 'compute-domain.nvidia.com' && "
                             "device.attributes['compute-domain.nvidia.com'].type == 'channel' && "
                             "device.attributes['compute-domain.nvidia.com'].id == 0"));
  out.push_back(device_class("gpu.nvidia.com",
                             "device.driver == 'gpu.nvidia.com' && "
                             "device.attributes['gpu.nvidia.com'].type == 'gpu'"));
  out.back().extended_resource_name = "nvidia.com/gpu";
  out.push_back(device_class("mig.nvidia.com",
                             "device.driver == 'gpu.nvidia.com' && "
                             "device.attributes['gpu.nvidia.com'].type == 'mig'"));
  out.push_back(device_class("vfio.gpu.nvidia.com",
                             "device.driver == 'gpu.nvidia.com' && "
                             "device.attributes['gpu.nvidia.com'].type == 'vfio'"));
  return out;
}

NvidiaResourceSlices nvidia_resource_slices(const Node& node, const NodeDevices& devices,
                                            const NvidiaDraOptions& options) {
  NvidiaResourceSlices out;
  if (!serves_gpus_with_dra(node)) return out;
  if (options.dynamic_mig && options.nvml_device_health_check) {
    // main.go: featuregates.ValidateFeatureGates.
    out.error =
        "feature gate validation failed: feature gate DynamicMIG is currently mutually exclusive "
        "with NVMLDeviceHealthCheck";
    return out;
  }
  const MigFacts mig = mig_facts(devices);
  const GpuFacts facts = gpu_facts(node, devices);
  const std::vector<std::string> roots = pcie_roots(devices.topology);
  auto root_of = [&](const PhysicalGpu& gpu) -> const std::string& {
    GPUSCHED_CHECK(gpu.index >= 0 && static_cast<std::size_t>(gpu.index) < roots.size(),
                   "the topology covers every GPU");
    return roots[static_cast<std::size_t>(gpu.index)];
  };

  std::vector<dra::ResourceSlice> slices;
  if (options.dynamic_mig) {
    std::vector<GpuDevices> per_gpu;
    for (const PhysicalGpu& gpu : devices.gpus) {
      per_gpu.push_back(dynamic_gpu(gpu, devices, mig, facts, root_of(gpu)));
      sort_by_name(per_gpu.back().devices);
    }
    // NewDriver: split slices need a MIG-capable GPU and an API server of 1.35 or later.
    const bool split =
        mig.table != nullptr && !devices.gpus.empty() && options.kubernetes_minor >= 35;
    if (split) {
      dra::ResourceSlice counters;
      for (const GpuDevices& g : per_gpu) {
        if (g.counters) counters.shared_counters.push_back(*g.counters);
      }
      slices.push_back(std::move(counters));
    }
    for (GpuDevices& g : per_gpu) {
      dra::ResourceSlice s;
      s.devices = std::move(g.devices);
      if (!split && g.counters) s.shared_counters.push_back(std::move(*g.counters));
      slices.push_back(std::move(s));
    }
  } else {
    dra::ResourceSlice s;
    for (const PhysicalGpu& gpu : devices.gpus) {
      std::vector<dra::Device> own;
      if (!gpu.mig_enabled) {
        own.push_back(full_gpu(gpu, devices, facts, root_of(gpu)));
      } else {
        // A MIG-enabled GPU without MIG devices publishes nothing ("has MIG mode enabled but no
        // configured MIG devices").
        auto migs = static_mig_devices(gpu, mig, facts, root_of(gpu), &out.error);
        if (!migs) return out;
        own = std::move(*migs);
      }
      sort_by_name(own);
      if (options.nvml_device_health_check && !gpu.healthy) {
        for (dra::Device& d : own) {
          d.taints.push_back({std::string(kXidTaintKey), std::string(kUnhealthyXid),
                              dra::DeviceTaintEffect::NoSchedule});
        }
      }
      s.devices.insert(s.devices.end(), std::make_move_iterator(own.begin()),
                       std::make_move_iterator(own.end()));
    }
    slices.push_back(std::move(s));
  }
  out.slices = pool_slices(node, std::move(slices));
  return out;
}

}  // namespace gpusched::devices
