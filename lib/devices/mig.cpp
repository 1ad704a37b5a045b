#include "devices/mig.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace gpusched::devices {
namespace {

constexpr int kComputeSlices = 7;
constexpr int kMemorySlices = 8;

// Profiles and maxima: mig-parted deployments/systemd/config-default.yaml (all-<profile>, and
// all-1g.10gb's A100-40GB entry of 4). Memory slices are the profile's memory in eighths of the
// GPU's; min(7/G, 8/memory slices) gives back every maximum but the single "+me" instance.
constexpr MigProfileSpec kA100_40gb[] = {
    {"1g.5gb", 1, 1, 7},  {"1g.5gb+me", 1, 1, 1}, {"1g.10gb", 1, 2, 4}, {"2g.10gb", 2, 2, 3},
    {"3g.20gb", 3, 4, 2}, {"4g.20gb", 4, 4, 1},   {"7g.40gb", 7, 8, 1},
};
constexpr MigCount kA100_40gbBalanced[] = {{"1g.5gb", 2}, {"2g.10gb", 1}, {"3g.20gb", 1}};

constexpr MigProfileSpec k80gb[] = {
    {"1g.10gb", 1, 1, 7}, {"1g.10gb+me", 1, 1, 1}, {"1g.20gb", 1, 2, 4}, {"2g.20gb", 2, 2, 3},
    {"3g.40gb", 3, 4, 2}, {"4g.40gb", 4, 4, 1},    {"7g.80gb", 7, 8, 1},
};
constexpr MigCount k80gbBalanced[] = {{"1g.10gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}};

constexpr MigProfileSpec kH200_141gb[] = {
    {"1g.18gb", 1, 1, 7}, {"1g.18gb+me", 1, 1, 1}, {"1g.35gb", 1, 2, 4},  {"2g.35gb", 2, 2, 3},
    {"3g.71gb", 3, 4, 2}, {"4g.71gb", 4, 4, 1},    {"7g.141gb", 7, 8, 1},
};
constexpr MigCount kH200_141gbBalanced[] = {{"1g.18gb", 2}, {"2g.35gb", 1}, {"3g.71gb", 1}};

constexpr std::array<MigProduct, 3> kProducts = {{
    {"A100-40GB", kA100_40gb, kA100_40gbBalanced},
    {"A100-80GB/H100-80GB", k80gb, k80gbBalanced},
    {"H200-141GB", kH200_141gb, kH200_141gbBalanced},
}};

std::string with_plus_as_dot(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '+', '.');
  return out;
}

// parseMigProfileField: "<n><suffix>"; the Go format's "%%d" prints as "%d".
std::optional<int> parse_field(std::string_view s, std::string_view suffix, std::string* error) {
  const std::string field = "'%d" + std::string(suffix) + "'";
  if (!s.empty() && (std::isspace(static_cast<unsigned char>(s.front())) != 0 ||
                     std::isspace(static_cast<unsigned char>(s.back())) != 0)) {
    *error = "leading or trailing spaces on " + field;
    return std::nullopt;
  }
  if (!s.ends_with(suffix)) {
    *error = "missing '" + std::string(suffix) + "' from " + field;
    return std::nullopt;
  }
  const std::string_view digits = s.substr(0, s.size() - suffix.size());
  int value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    *error = "malformed number in " + field;
    return std::nullopt;
  }
  return value;
}

// parseMigProfileFields: "<c>c.<g>g.<gb>gb" or "<g>g.<gb>gb" (C = G).
bool parse_fields(std::string_view s, MigProfile& out, std::string* error) {
  std::vector<std::string_view> split;
  for (std::size_t start = 0;;) {
    const std::size_t dot = split.size() < 2 ? s.find('.', start) : std::string_view::npos;
    split.push_back(s.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (split.size() != 2 && split.size() != 3) {
    *error = "parsed wrong number of fields, expected 2 or 3";
    return false;
  }
  std::size_t i = 0;
  if (split.size() == 3) {
    const auto c = parse_field(split[i++], "c", error);
    if (!c) return false;
    out.compute_slices = *c;
  }
  const auto g = parse_field(split[i++], "g", error);
  if (!g) return false;
  const auto gb = parse_field(split[i], "gb", error);
  if (!gb) return false;
  out.gpu_slices = *g;
  out.memory_gb = *gb;
  if (split.size() == 2) out.compute_slices = *g;
  return true;
}

// parseMigProfileAttributes: a comma-separated list of unique alphanumeric words.
std::optional<std::vector<std::string_view>> parse_attributes(std::string_view s,
                                                              std::string* error) {
  std::vector<std::string_view> attributes;
  error->clear();
  for (std::size_t start = 0;;) {
    const std::size_t comma = s.find(',', start);
    const std::string_view a =
        s.substr(start, comma == std::string_view::npos ? comma : comma - start);
    const auto is_alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    if (std::find(attributes.begin(), attributes.end(), a) != attributes.end()) {
      *error = "non unique attribute in list";
    } else if (a.empty()) {
      *error = "empty attribute in list";
    } else if (std::isspace(static_cast<unsigned char>(a.front())) != 0 ||
               std::isspace(static_cast<unsigned char>(a.back())) != 0) {
      *error = "leading or trailing spaces in attribute";
    } else if (a.front() >= '0' && a.front() <= '9') {
      *error = "attribute begins with a number";
    } else if (!std::all_of(a.begin(), a.end(), is_alnum)) {
      *error = "non alpha-numeric character or digit in attribute";
    }
    if (!error->empty()) return std::nullopt;
    attributes.push_back(a);
    if (comma == std::string_view::npos) return attributes;
    start = comma + 1;
  }
}

// The slice sizes NVML has profiles for (mig-parted's switch over COMPUTE_INSTANCE_PROFILE_* and
// GPU_INSTANCE_PROFILE_*).
bool known_slice_size(int n) {
  return n == 1 || n == 2 || n == 3 || n == 4 || n == 6 || n == 7 || n == 8;
}

// Compute instances a GPU instance of G slices can hold besides a whole one (go-nvml's mock
// H100, pkg/nvml/mock/shared/gpus/h100.go ComputeInstanceProfiles: 2g 1; 3g 1, 2; 4g 1, 2;
// 7g 1, 2, 3).
bool valid_compute_instance(int c, int g) {
  if (c == g) return true;
  if (c > g) return false;
  return c == 1 || c == 2 || (c == 3 && g == 7);
}

// The GPU-instance profile a profile lives in: C dropped.
std::string gpu_instance_name(const MigProfile& m) {
  MigProfile gi = m;
  gi.compute_slices = m.gpu_slices;
  return gi.name();
}

const MigProfileSpec* find_spec(const MigProduct& product, std::string_view gi_name) {
  for (const MigProfileSpec& spec : product.profiles) {
    if (spec.name == gi_name) return &spec;
  }
  return nullptr;
}

std::vector<std::string> upper_tokens(std::string_view text) {
  std::vector<std::string> tokens(1);
  for (char c : text) {
    if (c == '-' || c == '_' || c == ' ') {
      if (!tokens.back().empty()) tokens.emplace_back();
    } else {
      tokens.back() += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  return tokens;
}

std::optional<std::int64_t> memory_gib(const std::vector<std::string>& tokens,
                                       std::int64_t memory_mib) {
  if (memory_mib > 0) return (memory_mib + 512) / 1024;
  for (const std::string& t : tokens) {
    if (t.size() < 3 || !t.ends_with("GB")) continue;
    std::int64_t gb = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size() - 2, gb);
    if (ec == std::errc() && end == t.data() + t.size() - 2) return gb;
  }
  return std::nullopt;
}

// MigConfig.Flatten's order, ties broken by memory.
bool flatten_before(const MigProfile& a, const MigProfile& b) {
  if (a.gpu_slices != b.gpu_slices) return a.gpu_slices > b.gpu_slices;
  if (a.compute_slices != b.compute_slices) return a.compute_slices > b.compute_slices;
  if (a.media_extensions != b.media_extensions) return a.media_extensions;
  return a.memory_gb > b.memory_gb;
}

std::optional<GpuMigLayout> layout_of(const MigConfigEntry& entry, std::string* error) {
  GpuMigLayout layout{entry.enabled, {}};
  for (const auto& [name, count] : entry.mig_devices) {
    const std::optional<MigProfile> profile = parse_mig_profile(name, error);
    if (!profile) {
      *error = "invalid format for '" + name + "': " + *error;
      return std::nullopt;
    }
    layout.devices.insert(layout.devices.end(), static_cast<std::size_t>(std::max(count, 0)),
                          *profile);
  }
  std::stable_sort(layout.devices.begin(), layout.devices.end(), flatten_before);
  return layout;
}

// What NVML would refuse when mig-parted creates the instances. NVML checks placements; the sums
// of compute and memory slices are gpusched's stand-in, exact for every layout of whole
// profiles that the placement tables allow.
bool check_gpu(const GpuMigLayout& gpu, int index, std::string_view product,
               const MigProduct* table, std::string* error) {
  if (!gpu.enabled) return true;
  const std::string where = "GPU " + std::to_string(index) + " (" + std::string(product) + "): ";
  if (table == nullptr) {
    *error = where + "gpusched knows no MIG profiles for this product";
    return false;
  }
  std::map<std::string_view, int> per_instance;
  int compute = 0;
  int memory = 0;
  for (const MigProfile& m : gpu.devices) {
    const std::string quoted = "MIG profile \"" + m.name() + "\"";
    const MigProfileSpec* spec = find_spec(*table, gpu_instance_name(m));
    if (spec == nullptr || !valid_compute_instance(m.compute_slices, m.gpu_slices)) {
      *error = where + quoted + " does not exist on this product";
      return false;
    }
    if (++per_instance[spec->name] > spec->max_count) {
      const auto total =
          std::count_if(gpu.devices.begin(), gpu.devices.end(),
                        [&](const MigProfile& o) { return gpu_instance_name(o) == spec->name; });
      *error = where + "at most " + std::to_string(spec->max_count) + " MIG devices of profile \"" +
               std::string(spec->name) + "\" fit on one GPU, got " + std::to_string(total);
      return false;
    }
    compute += spec->gpu_slices;
    memory += spec->memory_slices;
    if (compute > kComputeSlices || memory > kMemorySlices) {
      const bool slices = compute > kComputeSlices;
      *error = where + quoted + " does not fit: the MIG devices up to it take " +
               std::to_string(slices ? compute : memory) + " " + (slices ? "compute" : "memory") +
               " slices, more than the " + std::to_string(slices ? kComputeSlices : kMemorySlices) +
               " of a GPU";
      return false;
    }
  }
  return true;
}

// The built-in configs of config-default.yaml for `table`. all-<profile> of a profile `table`
// lacks (or of any profile when gpusched knows no table) comes from the product that has it, so
// that applying it names the missing profile.
std::optional<MigConfig> builtin_config(std::string_view name, const MigProduct* table) {
  if (name == "all-disabled") return MigConfig{{std::nullopt, false, {}}};
  if (name == "all-enabled") return MigConfig{{std::nullopt, true, {}}};
  if (name == "all-balanced") {
    if (table == nullptr) return std::nullopt;
    MigConfigEntry entry{std::nullopt, true, {}};
    for (const MigCount& c : table->balanced) entry.mig_devices[std::string(c.profile)] = c.count;
    return MigConfig{entry};
  }
  if (!name.starts_with("all-")) return std::nullopt;
  const std::string_view wanted = name.substr(4);
  auto from = [&](const MigProduct& product) -> std::optional<MigConfig> {
    for (const MigProfileSpec& spec : product.profiles) {
      if (with_plus_as_dot(spec.name) != wanted) continue;
      return MigConfig{{std::nullopt, true, {{std::string(spec.name), spec.max_count}}}};
    }
    return std::nullopt;
  };
  if (table != nullptr) {
    if (auto own = from(*table)) return own;
  }
  for (const MigProduct& product : kProducts) {
    if (auto other = from(product)) return other;
  }
  return std::nullopt;
}

}  // namespace

std::string MigProfile::name() const {
  std::string out;
  if (compute_slices != gpu_slices) out = std::to_string(compute_slices) + "c.";
  out += std::to_string(gpu_slices) + "g." + std::to_string(memory_gb) + "gb";
  if (media_extensions) out += "+me";
  return out;
}

std::optional<MigProfile> parse_mig_profile(std::string_view text, std::string* error) {
  error->clear();
  if (text.empty()) {
    *error = "empty MigProfile string";
    return std::nullopt;
  }
  const std::size_t plus = text.find('+');
  std::vector<std::string_view> attributes;
  if (plus != std::string_view::npos) {
    auto parsed = parse_attributes(text.substr(plus + 1), error);
    if (!parsed) {
      *error = "error parsing attributes following '+' in MigProfile string: " + *error;
      return std::nullopt;
    }
    attributes = std::move(*parsed);
  }
  MigProfile m;
  if (!parse_fields(text.substr(0, plus), m, error)) {
    *error = "error parsing '.' separated fields in MigProfile string: " + *error;
    return std::nullopt;
  }
  if (!known_slice_size(m.compute_slices)) {
    *error = "unknown Compute Instance slice size: " + std::to_string(m.compute_slices);
    return std::nullopt;
  }
  if (!known_slice_size(m.gpu_slices)) {
    *error = "unknown GPU Instance slice size: " + std::to_string(m.gpu_slices);
    return std::nullopt;
  }
  for (std::string_view a : attributes) {
    if (a != "me") {
      *error = "unknown MigProfile attribute: " + std::string(a);
      return std::nullopt;
    }
    m.media_extensions = true;
  }
  return m;
}

std::string mig_resource_name(std::string_view profile) {
  return "nvidia.com/" + with_plus_as_dot("mig-" + std::string(profile));
}

bool registers_mig_resource(const MigProfile& profile) noexcept {
  return profile.compute_slices == profile.gpu_slices;
}

const MigProduct* find_mig_product(std::string_view product, std::int64_t memory_mib) {
  const std::vector<std::string> tokens = upper_tokens(product);
  auto has = [&](std::string_view t) {
    return std::find(tokens.begin(), tokens.end(), t) != tokens.end();
  };
  const std::optional<std::int64_t> gib = memory_gib(tokens, memory_mib);
  const bool eighty = gib && *gib >= 72 && *gib <= 88;
  if (has("A100") || has("A800")) {
    if (gib && *gib <= 48) return &kProducts[0];
    return eighty ? &kProducts[1] : nullptr;
  }
  if (has("H100") || has("H800")) return !has("NVL") && (!gib || eighty) ? &kProducts[1] : nullptr;
  if (has("H200")) return !gib || *gib >= 130 ? &kProducts[2] : nullptr;
  return nullptr;
}

std::optional<std::vector<GpuMigLayout>> resolve_mig_layout(
    std::string_view name, const std::map<std::string, MigConfig>& custom, std::string_view product,
    std::int64_t memory_mib, int gpu_count, std::string* error) {
  const MigProduct* table = find_mig_product(product, memory_mib);
  std::optional<MigConfig> config;
  if (auto it = custom.find(std::string(name)); it != custom.end()) {
    config = it->second;
  } else {
    config = builtin_config(name, table);
  }
  if (!config) {
    *error = name == "all-balanced" ? "MIG config \"all-balanced\": gpusched knows no MIG "
                                      "profiles for product \"" +
                                          std::string(product) + "\""
                                    : "selected mig-config not present: " + std::string(name);
    return std::nullopt;
  }
  std::vector<GpuMigLayout> gpus(static_cast<std::size_t>(std::max(gpu_count, 0)));
  for (const MigConfigEntry& entry : *config) {
    std::optional<GpuMigLayout> layout = layout_of(entry, error);
    if (!layout) return std::nullopt;
    for (int i = 0; i < gpu_count; ++i) {
      const bool named = !entry.devices || std::find(entry.devices->begin(), entry.devices->end(),
                                                     i) != entry.devices->end();
      if (named) gpus[static_cast<std::size_t>(i)] = *layout;
    }
  }
  for (int i = 0; i < gpu_count; ++i) {
    if (!check_gpu(gpus[static_cast<std::size_t>(i)], i, product, table, error))
      return std::nullopt;
  }
  return gpus;
}

}  // namespace gpusched::devices
