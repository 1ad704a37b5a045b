#include "devices/node_devices.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "devices/mig.hpp"
#include "gpusched/error.hpp"
#include "gpusched/model/well_known.hpp"
#include "model/decimal.hpp"

namespace gpusched::devices {
namespace {

// GFD's hardware labels and the GPU Operator's selection labels (k8s-device-plugin README
// "Catalog of Labels", "Updating Per-Node Configuration With a Node Label"; gpu-operator
// mig-manager's nvidia.com/mig.config), and gpusched's own annotations (scenario-format.md §3).
using well_known::kGpuCountLabel;
using well_known::kGpuMemoryLabel;
using well_known::kGpuProductLabel;
constexpr std::string_view kConfigLabel = "nvidia.com/device-plugin.config";
using well_known::kMigConfigLabel;
constexpr std::string_view kTopologyAnnotation = "gpusched.io/gpu-topology";
using resource::kGpu;

// FNV-1a with a 128-bit state (offset basis 0x6c62272e07bb014262b821756295c58d, prime
// 2^88 + 0x13b), kept in two 64-bit words.
struct Hash128 {
  std::uint64_t hi = 0x6c62272e07bb0142ULL;
  std::uint64_t lo = 0x62b821756295c58dULL;
};

Hash128 fnv1a_128(std::string_view bytes) {
  constexpr std::uint64_t kPrimeLow = 0x13b;
  Hash128 h;
  for (const char c : bytes) {
    h.lo ^= static_cast<unsigned char>(c);
    // h * (2^88 + 0x13b) mod 2^128: lo * 0x13b by 32-bit halves, hi * 0x13b, and lo << 88.
    const std::uint64_t low_half = (h.lo & 0xffffffffULL) * kPrimeLow;
    const std::uint64_t high_half = (h.lo >> 32) * kPrimeLow;
    const std::uint64_t lo = low_half + (high_half << 32);
    const std::uint64_t carry = lo < low_half ? 1 : 0;
    h.hi = h.hi * kPrimeLow + (high_half >> 32) + carry + (h.lo << 24);
    h.lo = lo;
  }
  return h;
}

const std::string* find(const Labels& labels, std::string_view key) {
  const auto it = labels.find(key);
  return it == labels.end() ? nullptr : &it->second;
}

// A product label copied from a live node carries GFD's own suffixes; the model precedes them.
std::string model_of(std::string_view product) {
  if (product.ends_with("-SHARED")) product.remove_suffix(std::string_view("-SHARED").size());
  if (const std::size_t mig = product.find("-MIG-"); mig != std::string_view::npos) {
    product = product.substr(0, mig);
  }
  return std::string(product);
}

// The matrix form of the topology annotation: JSON text of an array of rows, each an array of
// strings ([["X","NV12"],["NV12","X"]]). Cells never need escapes, so a backslash is refused.
class MatrixReader {
 public:
  explicit MatrixReader(std::string_view text) : text_(text) {}

  std::optional<std::vector<std::vector<std::string>>> read(std::string* error) {
    std::vector<std::vector<std::string>> rows;
    const bool ok = list('[', ']', [&] {
      rows.emplace_back();
      return list('[', ']', [&] { return cell(rows.back()); });
    });
    skip_space();
    if (!ok || pos_ != text_.size()) {
      *error = "expected a preset name or a JSON array of rows of strings, " +
               (pos_ < text_.size() ? "bad character at offset " + std::to_string(pos_)
                                    : std::string("the text ends early"));
      return std::nullopt;
    }
    return rows;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])) != 0) {
      ++pos_;
    }
  }
  bool take(char c) {
    skip_space();
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  template <typename Item>
  bool list(char open, char close, Item item) {
    if (!take(open)) return false;
    if (take(close)) return true;
    do {
      if (!item()) return false;
    } while (take(','));
    return take(close);
  }
  bool cell(std::vector<std::string>& row) {
    if (!take('"')) return false;
    const std::size_t end = text_.find_first_of("\"\\", pos_);
    if (end == std::string_view::npos || text_[end] != '"') return false;
    row.emplace_back(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

std::optional<GpuTopology> read_topology(const Labels& annotations, int count, std::string* error) {
  const std::string* value = find(annotations, kTopologyAnnotation);
  if (value == nullptr) return GpuTopology(count);
  const std::string where = "annotation " + std::string(kTopologyAnnotation) + ": ";
  const std::size_t first = value->find_first_not_of(" \t\r\n");
  std::optional<GpuTopology> topology;
  if (first != std::string::npos && (*value)[first] == '[') {
    const auto cells = MatrixReader(*value).read(error);
    if (cells) topology = GpuTopology::from_matrix(*cells, error);
    if (topology && topology->size() != count) {
      *error = "the matrix has " + std::to_string(topology->size()) + " rows but " +
               std::string(kGpuCountLabel) + " is " + std::to_string(count);
      topology.reset();
    }
  } else {
    topology = GpuTopology::preset(*value, count, error);
  }
  if (!topology) *error = where + *error;
  return topology;
}

// The kubelet's topologyManagerPolicy values (topology_manager.go NewManager).
std::optional<std::string> read_policy(const Labels& annotations, std::string* error) {
  const std::string* value = find(annotations, well_known::kTopologyManagerPolicyAnnotation);
  if (value == nullptr) return "none";
  constexpr std::array<std::string_view, 4> kPolicies = {"none", "best-effort", "restricted",
                                                         "single-numa-node"};
  if (std::find(kPolicies.begin(), kPolicies.end(), *value) != kPolicies.end()) return *value;
  *error = "annotation " + std::string(well_known::kTopologyManagerPolicyAnnotation) +
           ": unknown policy: \"" + *value + "\"";
  return std::nullopt;
}

// The config the node's label names, else the default one, else the plugin's built-in defaults
// (migStrategy none, no sharing), as the GPU Operator's config-manager picks
// (k8s-device-plugin cmd/config-manager/main.go updateConfigName: an empty label is no label;
// the operator sets DEFAULT_CONFIG to the ClusterPolicy's devicePlugin.config.default and
// FALLBACK_STRATEGIES to "empty", gpu-operator controllers/object_controls.go). A name that is
// not a config stops the config-manager, so the device plugin never starts on the node:
// gpusched refuses it rather than guess what the node advertises.
bool select_config(const Labels& labels, const DevicePluginSettings& settings, NodeDevices& out,
                   std::string* error) {
  const std::string* label = find(labels, kConfigLabel);
  if (label != nullptr && label->empty()) label = nullptr;
  out.config_name = label != nullptr ? *label : settings.default_config;
  if (out.config_name.empty()) return true;
  const auto it = settings.configs.find(out.config_name);
  if (it == settings.configs.end()) {
    std::string names;
    for (const auto& [name, config] : settings.configs) names += (names.empty() ? "" : ", ") + name;
    *error = (label != nullptr ? "label " + std::string(kConfigLabel) : std::string("default")) +
             ": unknown device-plugin config \"" + out.config_name + "\" (" +
             (names.empty() ? std::string("no configs are given") : "configs: " + names) +
             "): the GPU Operator's config-manager stops with \"specified config " +
             out.config_name + " does not exist\" and the device plugin does not start on the node";
    return false;
  }
  out.plugin = it->second;
  return true;
}

bool build_gpus(const Node& node, const DevicePluginSettings& settings, int count, NodeDevices& out,
                std::string* error) {
  std::vector<GpuMigLayout> layouts(static_cast<std::size_t>(count));
  if (const std::string* mig = find(node.metadata.labels, kMigConfigLabel)) {
    out.mig_config = *mig;
    auto resolved =
        resolve_mig_layout(*mig, settings.mig_configs, out.product, out.memory_mib, count, error);
    if (!resolved) {
      *error = "label " + std::string(kMigConfigLabel) + ": " + *error;
      return false;
    }
    layouts = std::move(*resolved);
  }
  const std::string& name = node.metadata.name;
  for (int i = 0; i < count; ++i) {
    const GpuMigLayout& layout = layouts[static_cast<std::size_t>(i)];
    PhysicalGpu gpu{i, device_uuid("GPU", name, i), out.topology.numa_node(i), true, layout.enabled,
                    {}};
    for (std::size_t j = 0; j < layout.devices.size(); ++j) {
      gpu.mig.push_back(
          {device_uuid("MIG", name, i, static_cast<int>(j)), layout.devices[j].name()});
    }
    out.gpus.push_back(std::move(gpu));
  }
  return true;
}

// The profile of a MIG device; its name came from MigProfile::name(), so it parses. A default
// profile instead would place the device wrongly without a word.
MigProfile profile_of(const MigDevice& device) {
  std::string error;
  std::optional<MigProfile> profile = parse_mig_profile(device.profile, &error);
  GPUSCHED_CHECK(profile.has_value(), "a MIG device's profile name parses");
  return *profile;
}

// internal/rm/device_map.go buildDeviceMapFromConfigResources with the patterns
// AddDefaultResourcesToConfig adds (internal/rm/rm.go): "*" -> nvidia.com/gpu for GPUs (skipping
// MIG-enabled ones unless migStrategy is none); for MIG devices "*" -> nvidia.com/gpu (single) or
// one anchored pattern per C == G profile (mixed). Returns the inner error text on failure.
std::optional<std::vector<Device>> unshared_devices(const NodeDevices& node, std::string* error) {
  const std::string& strategy = node.plugin.mig_strategy;
  std::vector<Device> gpus;
  std::vector<Device> migs;
  for (const PhysicalGpu& gpu : node.gpus) {
    if (gpu.mig_enabled && strategy != "none") continue;
    gpus.push_back({gpu.uuid, std::string(kGpu), gpu.index, false, false});
  }
  if (strategy == "none") return gpus;
  for (const PhysicalGpu& gpu : node.gpus) {
    if (!gpu.mig_enabled) continue;
    for (const MigDevice& m : gpu.mig) {
      std::string resource(kGpu);
      if (strategy == "mixed") {
        if (!registers_mig_resource(profile_of(m))) {
          *error = "error building MIG device map: MIG profile '" + m.profile +
                   "' does not match any resource patterns";
          return std::nullopt;
        }
        resource = mig_resource_name(m.profile);
      }
      migs.push_back({m.uuid, std::move(resource), gpu.index, false, true});
    }
  }
  // assertAllMigDevicesAreValid; upstream shadows the GPU index with `i := 0`, so the message
  // always names device 0.
  const bool empty = std::any_of(node.gpus.begin(), node.gpus.end(), [](const PhysicalGpu& g) {
    return g.mig_enabled && g.mig.empty();
  });
  if (empty) {
    *error =
        "invalid MIG configuration: at least one device with migEnabled=true was not "
        "configured correctly: device 0 has an invalid MIG configuration";
    return std::nullopt;
  }
  if (strategy == "single") {
    std::set<std::string> profiles;
    for (const PhysicalGpu& gpu : node.gpus) {
      for (const MigDevice& m : gpu.mig) profiles.insert(m.profile);
    }
    if (profiles.size() > 1) {
      *error = "invalid MIG configuration: more than one MIG device type present on node";
      return std::nullopt;
    }
    if (!gpus.empty() && !migs.empty()) {
      *error = "all devices on the node must be configured with the same migEnabled value";
      return std::nullopt;
    }
  }
  gpus.insert(gpus.end(), migs.begin(), migs.end());
  return gpus;
}

// updateDeviceMapWithReplicas: each device of a shared resource becomes `replicas` devices
// "<id>::<k>" (NewAnnotatedID), under "<name>.shared" with renameByDefault; every device is
// replicated because DisableResourceNamingInConfig forces `devices: all`.
std::vector<Device> replicate(const std::vector<Device>& devices,
                              const DevicePluginConfig& plugin) {
  std::vector<Device> out;
  for (const Device& d : devices) {
    const auto shared =
        std::find_if(plugin.resources.begin(), plugin.resources.end(),
                     [&](const ReplicatedResource& r) { return r.name == d.resource; });
    if (shared == plugin.resources.end()) {
      out.push_back(d);
      continue;
    }
    for (int k = 0; k < shared->replicas; ++k) {
      Device replica = d;
      replica.id = d.id + "::" + std::to_string(k);
      if (plugin.rename_by_default) replica.resource += ".shared";
      replica.replica = true;
      out.push_back(std::move(replica));
    }
  }
  // Grouped by resource, each group in GPU order.
  std::stable_sort(out.begin(), out.end(),
                   [](const Device& a, const Device& b) { return a.resource < b.resource; });
  return out;
}

// What the plugin registers: nothing when building the device map fails (the plugin does not
// start); MPS over MIG devices is refused (internal/plugin/mps.go getMPSOptions).
bool advertise(NodeDevices& node, std::string* error) {
  std::string inner;
  const auto devices = unshared_devices(node, &inner);
  if (!devices) {
    node.plugin_error =
        "error building device map: error building device map from config.resources: " + inner;
    return true;
  }
  node.devices = replicate(*devices, node.plugin);
  const bool mig =
      std::any_of(node.devices.begin(), node.devices.end(), [](const Device& d) { return d.mig; });
  if (node.plugin.sharing == SharingStrategy::Mps && mig) {
    *error = "sharing using MPS is not supported for MIG devices";
    return false;
  }
  return true;
}

std::string_view to_string(SharingStrategy sharing) {
  switch (sharing) {
    case SharingStrategy::TimeSlicing:
      return "time-slicing";
    case SharingStrategy::Mps:
      return "mps";
    case SharingStrategy::None:
      break;
  }
  return "none";
}

// internal/lm/resource.go sanitise: characters outside [A-Za-z0-9-_. ] dropped, runs of spaces
// joined by '-'.
std::string sanitise(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
    if (c == ' ') {
      space = !out.empty();
    } else if (keep) {
      if (space) out += '-';
      space = false;
      out += c;
    }
  }
  return out;
}

// internal/lm/resource.go resourceLabeler: labels "<resource>.<suffix>". `sharing` is null for
// the labels of MIG-enabled GPUs, which carry no sharing (NewGPUResourceLabelerWithoutSharing).
struct ResourceLabeler {
  std::string resource;
  const DevicePluginConfig* sharing = nullptr;

  void set(Labels& out, std::string_view suffix, std::string value) const {
    out[resource + "." + std::string(suffix)] = std::move(value);
  }
  [[nodiscard]] const ReplicatedResource* replication() const {
    if (sharing == nullptr) return nullptr;
    const auto it = std::find_if(sharing->resources.begin(), sharing->resources.end(),
                                 [&](const ReplicatedResource& r) { return r.name == resource; });
    return it == sharing->resources.end() ? nullptr : &*it;
  }
  // baseLabeler: product (sanitised parts joined by '-', "-SHARED" when shared and not
  // renamed), count, replicas (0 without sharing, else the configured replicas or 1) and
  // sharing-strategy (none unless replicas > 1).
  void base(Labels& out, std::size_t count, std::initializer_list<std::string_view> parts) const {
    const ReplicatedResource* r = replication();
    const int replicas = sharing == nullptr ? 0 : r != nullptr ? r->replicas : 1;
    std::string product;
    for (std::string_view part : parts) {
      if (!part.empty()) product += (product.empty() ? "" : "-") + sanitise(part);
    }
    if (replicas > 1 && !sharing->rename_by_default) product += "-SHARED";
    set(out, "product", product);
    set(out, "count", std::to_string(count));
    set(out, "replicas", std::to_string(replicas));
    set(out, "sharing-strategy",
        std::string(sharing != nullptr && replicas > 1 ? to_string(sharing->sharing) : "none"));
  }
  // NewMIGResourceLabeler: the base labels of "<model>-MIG-<profile>" and the MIG device's
  // slice attributes (nvml-mig-device.go GetAttributes: slices.gi = G, slices.ci = C).
  void mig(Labels& out, std::size_t count, std::string_view model, const MigDevice& device) const {
    const MigProfile profile = profile_of(device);
    std::string name = device.profile;
    std::replace(name.begin(), name.end(), '+', '.');  // nvmlMigDevice.GetName
    base(out, count, {model, "MIG", name});
    set(out, "slices.gi", std::to_string(profile.gpu_slices));
    set(out, "slices.ci", std::to_string(profile.compute_slices));
  }
};

// newMigStrategySingleLabeler: MIG devices are nvidia.com/gpu when every GPU has MIG enabled
// with devices of one profile; otherwise the MIG-INVALID labels.
void single_labels(const NodeDevices& node, Labels& out) {
  std::vector<const MigDevice*> devices;
  std::set<std::string> profiles;
  bool enabled = false;
  bool empty = false;
  bool disabled = false;
  for (const PhysicalGpu& gpu : node.gpus) {
    enabled = enabled || gpu.mig_enabled;
    disabled = disabled || !gpu.mig_enabled;
    empty = empty || (gpu.mig_enabled && gpu.mig.empty());
    for (const MigDevice& m : gpu.mig) {
      devices.push_back(&m);
      profiles.insert(m.profile);
    }
  }
  if (!enabled) return;  // equivalent to the none strategy
  const ResourceLabeler gpu{std::string(kGpu), &node.plugin};
  if (empty || disabled || profiles.size() != 1) {
    // newInvalidMigStrategyLabeler
    gpu.set(out, "product", sanitise(node.product) + "-MIG-INVALID");
    gpu.set(out, "count", "0");
    gpu.set(out, "replicas", "0");
    gpu.set(out, "memory", "0");
    return;
  }
  gpu.mig(out, devices.size(), node.product, *devices.front());
  // GFD writes the MIG device's memory from NVML here, which gpusched does not know: no label
  // rather than the whole GPU's.
  out.erase(std::string(kGpu) + ".memory");
}

// newMigStrategyMixedLabeler: one resource per profile present, GPUs with MIG enabled but no
// devices ignored.
void mixed_labels(const NodeDevices& node, Labels& out) {
  std::map<std::string, std::pair<const MigDevice*, std::size_t>> by_profile;
  for (const PhysicalGpu& gpu : node.gpus) {
    for (const MigDevice& m : gpu.mig) {
      auto& [first, count] = by_profile[m.profile];
      if (first == nullptr) first = &m;
      ++count;
    }
  }
  for (const auto& [profile, entry] : by_profile) {
    const ResourceLabeler labeler{mig_resource_name(profile), &node.plugin};
    labeler.mig(out, entry.second, node.product, *entry.first);
  }
}

}  // namespace

std::string device_uuid(std::string_view prefix, std::string_view node, int index, int sub_index) {
  // Node names are DNS subdomains and hold no '/', so the key is unambiguous.
  std::string key = std::string(prefix) + "/" + std::string(node) + "/" + std::to_string(index);
  if (sub_index >= 0) key += "/" + std::to_string(sub_index);
  const Hash128 h = fnv1a_128(key);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(h.hi),
                static_cast<unsigned long long>(h.lo));
  const std::string_view x(hex, 32);
  return std::string(prefix) + "-" + std::string(x.substr(0, 8)) + "-" +
         std::string(x.substr(8, 4)) + "-" + std::string(x.substr(12, 4)) + "-" +
         std::string(x.substr(16, 4)) + "-" + std::string(x.substr(20));
}

ResourceList NodeDevices::capacity() const {
  ResourceList out;
  for (const Device& d : devices) add_to(out, d.resource, Quantity::from_units(1));
  return out;
}

ResourceList NodeDevices::allocatable() const {
  ResourceList out;
  for (const Device& d : devices) {
    const bool healthy = gpus[static_cast<std::size_t>(d.gpu)].healthy;
    add_to(out, d.resource, Quantity::from_units(healthy ? 1 : 0));
  }
  return out;
}

Labels NodeDevices::gfd_labels() const {
  Labels out;
  // newGPULabelers: every GPU of the model counts; MIG-enabled GPUs label without sharing and
  // full GPUs of the same model override them.
  const bool any_full =
      std::any_of(gpus.begin(), gpus.end(), [](const PhysicalGpu& g) { return !g.mig_enabled; });
  const ResourceLabeler full{std::string(kGpu), any_full ? &plugin : nullptr};
  full.base(out, gpus.size(), {product});
  if (memory_mib != 0) full.set(out, "memory", std::to_string(memory_mib));
  if (plugin.mig_strategy == "none") return out;
  out["nvidia.com/mig.strategy"] = plugin.mig_strategy;
  if (plugin.mig_strategy == "single") {
    single_labels(*this, out);
  } else {
    mixed_labels(*this, out);
  }
  return out;
}

std::optional<NodeDevices> derive_node_devices(const Node& node,
                                               const DevicePluginSettings& settings,
                                               std::string* error) {
  error->clear();
  const Labels& labels = node.metadata.labels;
  const std::string* product = find(labels, kGpuProductLabel);
  const std::string* count_text = find(labels, kGpuCountLabel);
  // Both labels declare hardware. A product label alone (contract v1 scenarios select GPU
  // models with it and state nvidia.com/gpu in capacity) is only a label.
  if (product == nullptr || count_text == nullptr) return std::nullopt;
  const auto count = parse_integer(*count_text, 1, kMaxGpusPerNode);
  if (!count) {
    *error = "label " + std::string(kGpuCountLabel) + ": must be an integer from 1 to " +
             std::to_string(kMaxGpusPerNode) + ", got \"" + *count_text + "\"";
    return std::nullopt;
  }
  NodeDevices out;
  out.product = model_of(*product);
  if (const std::string* memory = find(labels, kGpuMemoryLabel)) {
    const auto mib = parse_integer(*memory, 0, std::numeric_limits<std::int64_t>::max());
    if (!mib) {
      *error = "label " + std::string(kGpuMemoryLabel) +
               ": must be a non-negative integer (MiB), got \"" + *memory + "\"";
      return std::nullopt;
    }
    out.memory_mib = *mib;
  }
  const int gpus = static_cast<int>(*count);
  auto topology = read_topology(node.metadata.annotations, gpus, error);
  if (!topology) return std::nullopt;
  out.topology = std::move(*topology);
  auto policy = read_policy(node.metadata.annotations, error);
  if (!policy) return std::nullopt;
  out.topology_manager_policy = std::move(*policy);
  if (!select_config(labels, settings, out, error) ||
      !build_gpus(node, settings, gpus, out, error) || !advertise(out, error)) {
    return std::nullopt;
  }
  return out;
}

}  // namespace gpusched::devices
