// MIG profiles, product tables and layouts (lib/devices/mig.cpp): mig-parted's profile syntax
// and config-default.yaml, and the device plugin's MIG resource names.
#include "devices/mig.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

namespace gpusched::devices {
namespace {

std::vector<std::string> names(const GpuMigLayout& gpu) {
  std::vector<std::string> out;
  for (const MigProfile& m : gpu.devices) out.push_back(m.name());
  return out;
}

std::vector<GpuMigLayout> layout(std::string_view config, std::string_view product, int gpus,
                                 const std::map<std::string, MigConfig>& custom = {},
                                 std::int64_t memory_mib = 0) {
  std::string error;
  auto out = resolve_mig_layout(config, custom, product, memory_mib, gpus, &error);
  INFO(error);
  REQUIRE(out);
  return *out;
}

std::string layout_error(std::string_view config, std::string_view product, int gpus,
                         const std::map<std::string, MigConfig>& custom = {}) {
  std::string error;
  CHECK_FALSE(resolve_mig_layout(config, custom, product, 0, gpus, &error));
  return error;
}

TEST_CASE("parse_mig_profile reads mig-parted's profile names", "[devices]") {
  struct Row {
    const char* text;
    MigProfile profile;
    const char* name;
  };
  const std::vector<Row> rows = {
      {"1g.10gb", {1, 1, 10, false}, "1g.10gb"},
      {"7g.141gb", {7, 7, 141, false}, "7g.141gb"},
      {"1c.2g.20gb", {1, 2, 20, false}, "1c.2g.20gb"},
      {"1g.10gb+me", {1, 1, 10, true}, "1g.10gb+me"},
      {"1c.1g.10gb", {1, 1, 10, false}, "1g.10gb"},  // C == G is written without C
  };
  for (const Row& row : rows) {
    INFO(row.text);
    std::string error;
    const auto profile = parse_mig_profile(row.text, &error);
    REQUIRE(profile);
    CHECK(*profile == row.profile);
    CHECK(profile->name() == row.name);
    CHECK(error.empty());
  }
}

TEST_CASE("parse_mig_profile fails in mig-parted's words", "[devices]") {
  struct Row {
    const char* text;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"", "empty MigProfile string"},
      {"1g",
       "error parsing '.' separated fields in MigProfile string: parsed wrong number of "
       "fields, expected 2 or 3"},
      {"1x.10gb",
       "error parsing '.' separated fields in MigProfile string: missing 'g' from '%dg'"},
      {"ag.10gb",
       "error parsing '.' separated fields in MigProfile string: malformed number in '%dg'"},
      {"1g.10gb.me",
       "error parsing '.' separated fields in MigProfile string: missing 'c' from '%dc'"},
      {"5g.10gb", "unknown Compute Instance slice size: 5"},  // C = G, and C is checked first
      {"1c.5g.40gb", "unknown GPU Instance slice size: 5"},
      {"5c.7g.80gb", "unknown Compute Instance slice size: 5"},
      {"1g.10gb+gfx", "unknown MigProfile attribute: gfx"},
      {"1g.10gb+me,me",
       "error parsing attributes following '+' in MigProfile string: non unique attribute in list"},
      {"1g.10gb+",
       "error parsing attributes following '+' in MigProfile string: empty attribute "
       "in list"},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    std::string error;
    CHECK_FALSE(parse_mig_profile(row.text, &error));
    CHECK(error == row.error);
  }
}

TEST_CASE("MIG resources are named as the device plugin names them", "[devices]") {
  CHECK(mig_resource_name("1g.10gb") == "nvidia.com/mig-1g.10gb");
  CHECK(mig_resource_name("3g.40gb") == "nvidia.com/mig-3g.40gb");
  CHECK(mig_resource_name("1g.10gb+me") == "nvidia.com/mig-1g.10gb.me");
  std::string error;
  CHECK(registers_mig_resource(*parse_mig_profile("1g.10gb+me", &error)));
  CHECK(registers_mig_resource(*parse_mig_profile("7g.80gb", &error)));
  CHECK_FALSE(registers_mig_resource(*parse_mig_profile("1c.2g.20gb", &error)));
}

TEST_CASE("find_mig_product matches GFD product names and memory", "[devices]") {
  struct Row {
    const char* product;
    std::int64_t memory_mib;
    const char* table;  // nullptr: no MIG table
  };
  const std::vector<Row> rows = {
      {"NVIDIA-A100-SXM4-40GB", 0, "A100-40GB"},
      {"NVIDIA-A100-PCIE-40GB", 40960, "A100-40GB"},
      {"NVIDIA A100-SXM4-40GB", 0, "A100-40GB"},
      {"NVIDIA-A100-SXM4-80GB", 81920, "A100-80GB/H100-80GB"},
      {"NVIDIA-A100-80GB-PCIe", 0, "A100-80GB/H100-80GB"},
      {"NVIDIA-A800-SXM4-80GB", 0, "A100-80GB/H100-80GB"},
      {"NVIDIA-A100-SXM4-80GB", 40960, "A100-40GB"},  // the memory label wins over the name
      {"NVIDIA-A100-SXM4", 0, nullptr},               // an A100 of unknown memory
      {"NVIDIA-H100-80GB-HBM3", 81559, "A100-80GB/H100-80GB"},
      {"NVIDIA-H100-SXM5-80GB", 0, "A100-80GB/H100-80GB"},
      {"NVIDIA-H100-PCIe", 0, "A100-80GB/H100-80GB"},
      {"NVIDIA-H800", 81559, "A100-80GB/H100-80GB"},
      {"NVIDIA-H100-NVL", 0, nullptr},
      {"NVIDIA-H100-PCIe", 95830, nullptr},
      {"NVIDIA-H200", 0, "H200-141GB"},
      {"NVIDIA-H200-NVL", 143771, "H200-141GB"},
      {"NVIDIA-GH200-480GB", 0, nullptr},
      {"NVIDIA-H20", 0, nullptr},
      {"NVIDIA-A30", 0, nullptr},
      {"Tesla-T4", 15360, nullptr},
  };
  for (const Row& row : rows) {
    INFO(row.product << " " << row.memory_mib);
    const MigProduct* product = find_mig_product(row.product, row.memory_mib);
    if (row.table == nullptr) {
      CHECK(product == nullptr);
    } else {
      REQUIRE(product != nullptr);
      CHECK(product->name == row.table);
    }
  }
}

TEST_CASE("built-in mig-parted configs resolve per product", "[devices]") {
  const auto balanced = layout("all-balanced", "NVIDIA-A100-SXM4-80GB", 2);
  REQUIRE(balanced.size() == 2);
  for (const GpuMigLayout& gpu : balanced) {
    CHECK(gpu.enabled);
    // MigConfig.Flatten: more GPU slices first.
    CHECK(names(gpu) == std::vector<std::string>{"3g.40gb", "2g.20gb", "1g.10gb", "1g.10gb"});
  }
  CHECK(names(layout("all-balanced", "NVIDIA-A100-SXM4-40GB", 1)[0]) ==
        std::vector<std::string>{"3g.20gb", "2g.10gb", "1g.5gb", "1g.5gb"});
  CHECK(names(layout("all-balanced", "NVIDIA-H200", 1)[0]) ==
        std::vector<std::string>{"3g.71gb", "2g.35gb", "1g.18gb", "1g.18gb"});

  CHECK(layout("all-1g.10gb", "NVIDIA-H100-80GB-HBM3", 1)[0].devices.size() == 7);
  CHECK(layout("all-1g.10gb", "NVIDIA-A100-SXM4-40GB", 1)[0].devices.size() == 4);
  CHECK(names(layout("all-1g.10gb.me", "NVIDIA-H100-80GB-HBM3", 1)[0]) ==
        std::vector<std::string>{"1g.10gb+me"});
  CHECK(names(layout("all-7g.141gb", "NVIDIA-H200", 1)[0]) == std::vector<std::string>{"7g.141gb"});
  CHECK(layout("all-3g.40gb", "NVIDIA-A100-SXM4-80GB", 1)[0].devices.size() == 2);

  const auto disabled = layout("all-disabled", "Tesla-T4", 2);
  CHECK_FALSE(disabled[0].enabled);
  CHECK_FALSE(disabled[1].enabled);
  const auto enabled = layout("all-enabled", "NVIDIA-A100-SXM4-80GB", 1);
  CHECK(enabled[0].enabled);
  CHECK(enabled[0].devices.empty());
}

TEST_CASE("custom MIG configs apply entry by entry, as mig-parted walks them", "[devices]") {
  const std::map<std::string, MigConfig> custom = {
      {"half",
       {{std::nullopt, true, {{"1g.10gb", 7}}},
        {std::vector<int>{1, 3, 9}, false, {}}}},                  // GPU 9 does not exist: skipped
      {"all-balanced", {{std::nullopt, true, {{"7g.80gb", 1}}}}},  // shadows the built-in
      {"compute", {{std::nullopt, true, {{"1c.2g.20gb", 3}}}}},
  };
  const auto half = layout("half", "NVIDIA-A100-SXM4-80GB", 4, custom);
  CHECK(half[0].enabled);
  CHECK(half[0].devices.size() == 7);
  CHECK_FALSE(half[1].enabled);
  CHECK(half[1].devices.empty());
  CHECK(half[2].enabled);
  CHECK_FALSE(half[3].enabled);
  CHECK(names(layout("all-balanced", "NVIDIA-A100-SXM4-80GB", 1, custom)[0]) ==
        std::vector<std::string>{"7g.80gb"});
  CHECK(names(layout("compute", "NVIDIA-A100-SXM4-80GB", 1, custom)[0]) ==
        std::vector<std::string>{"1c.2g.20gb", "1c.2g.20gb", "1c.2g.20gb"});
}

TEST_CASE("MIG layouts a product cannot hold fail naming the GPU and profile", "[devices]") {
  const std::string h100 = "NVIDIA-H100-80GB-HBM3";
  const std::map<std::string, MigConfig> custom = {
      {"three-3g", {{std::nullopt, true, {{"3g.40gb", 3}}}}},
      {"too-many-slices",
       {{std::vector<int>{1}, true, {{"4g.40gb", 1}, {"3g.40gb", 1}, {"1g.10gb", 1}}}}},
      {"too-much-memory", {{std::nullopt, true, {{"3g.40gb", 2}, {"1g.10gb", 1}}}}},
      {"bad-compute", {{std::nullopt, true, {{"3c.4g.40gb", 1}}}}},
      {"t4", {{std::nullopt, true, {}}}},
  };
  struct Row {
    const char* config;
    const char* product;
    const char* error;
  };
  const std::vector<Row> rows = {
      {"all-1g.5gb", "NVIDIA-H100-80GB-HBM3",
       "GPU 0 (NVIDIA-H100-80GB-HBM3): MIG profile \"1g.5gb\" does not exist on this product"},
      {"all-1g.18gb", "NVIDIA-A100-SXM4-40GB",
       "GPU 0 (NVIDIA-A100-SXM4-40GB): MIG profile \"1g.18gb\" does not exist on this product"},
      {"three-3g", "NVIDIA-H100-80GB-HBM3",
       "GPU 0 (NVIDIA-H100-80GB-HBM3): at most 2 MIG devices of profile \"3g.40gb\" fit on one "
       "GPU, got 3"},
      {"too-many-slices", "NVIDIA-H100-80GB-HBM3",
       "GPU 1 (NVIDIA-H100-80GB-HBM3): MIG profile \"1g.10gb\" does not fit: the MIG devices up "
       "to it take 8 compute slices, more than the 7 of a GPU"},
      {"too-much-memory", "NVIDIA-H100-80GB-HBM3",
       "GPU 0 (NVIDIA-H100-80GB-HBM3): MIG profile \"1g.10gb\" does not fit: the MIG devices up "
       "to it take 9 memory slices, more than the 8 of a GPU"},
      {"bad-compute", "NVIDIA-H100-80GB-HBM3",
       "GPU 0 (NVIDIA-H100-80GB-HBM3): MIG profile \"3c.4g.40gb\" does not exist on this product"},
      {"t4", "Tesla-T4", "GPU 0 (Tesla-T4): gpusched knows no MIG profiles for this product"},
      {"all-enabled", "Tesla-T4",
       "GPU 0 (Tesla-T4): gpusched knows no MIG profiles for this product"},
      {"all-balanced", "Tesla-T4",
       "MIG config \"all-balanced\": gpusched knows no MIG profiles for product \"Tesla-T4\""},
      {"all-2g.48gb", "NVIDIA-H100-80GB-HBM3", "selected mig-config not present: all-2g.48gb"},
      {"balanced", "NVIDIA-H100-80GB-HBM3", "selected mig-config not present: balanced"},
  };
  for (const Row& row : rows) {
    INFO(row.config);
    CHECK(layout_error(row.config, row.product, 2, custom) == row.error);
  }
}

}  // namespace
}  // namespace gpusched::devices
