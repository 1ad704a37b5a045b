#include "kueue_fleet.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace bench {
namespace {

// SplitMix64: the same numbers on every platform and standard library (std:: distributions are
// implementation-defined).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [low, high].
  int between(int low, int high) {
    return low + static_cast<int>(next() % static_cast<std::uint64_t>(high - low + 1));
  }

 private:
  std::uint64_t state_;
};

struct GpuType {
  const char* name;
  int percent;  ///< of the fleet's nodes
};
// Half the fleet H100, 30 % A100, 20 % L40S.
constexpr std::array<GpuType, 3> kTypes = {{{"h100", 50}, {"a100", 30}, {"l40s", 20}}};
constexpr int kGpusPerNode = 8;

std::string team(int i) {
  return "team-" + std::to_string(i);
}

std::string duration(std::int64_t ms) {
  return std::to_string(ms / 1000) + "s";
}

}  // namespace

std::string kueue_fleet_scenario(const KueueFleet& fleet) {
  Random random(fleet.seed);
  std::string out =
      "{\"name\": \"kueue-fleet\",\n"
      "\"description\": \"Benchmark (issue 20): " +
      std::to_string(fleet.nodes) + " GPU nodes, " + std::to_string(fleet.cluster_queues) +
      " ClusterQueues in two cohorts, " + std::to_string(fleet.jobs) +
      " Jobs of 1-64 GPUs arriving over time.\",\n"
      "\"scheduler\": {\"seed\": 1" +
      std::string(fleet.bin_pack
                      ? ", \"profiles\": [{\"schedulerName\": \"default-scheduler\", "
                        "\"pluginConfig\": [{\"name\": \"NodeResourcesFit\", \"args\": "
                        "{\"scoringStrategy\": {\"type\": \"MostAllocated\", \"resources\": "
                        "[{\"name\": \"nvidia.com/gpu\", \"weight\": 1}]}}}]}]"
                      : "") +
      "},\n"
      "\"kueue\": {\"configuration\": {\"apiVersion\": \"config.kueue.x-k8s.io/v1beta2\", "
      "\"kind\": \"Configuration\"}},\n"
      "\"cluster\": [\n";
  // Nodes, by type in blocks.
  std::array<int, kTypes.size()> nodes_of{};
  for (std::size_t t = 0, placed = 0; t < kTypes.size(); ++t) {
    nodes_of[t] = t + 1 == kTypes.size() ? fleet.nodes - static_cast<int>(placed)
                                         : fleet.nodes * kTypes[t].percent / 100;
    placed += nodes_of[t];
    for (int i = 0; i < nodes_of[t]; ++i) {
      out += std::string("{\"kind\": \"Node\", \"metadata\": {\"name\": \"") + kTypes[t].name +
             "-" + std::to_string(i) + "\", \"labels\": {\"gpu-type\": \"" + kTypes[t].name +
             "\"}}, \"status\": {\"capacity\": {\"cpu\": \"224\", \"memory\": \"2Ti\", "
             "\"nvidia.com/gpu\": \"8\", \"pods\": \"110\"}}},\n";
    }
  }
  for (const GpuType& type : kTypes) {
    out += std::string(
               "{\"apiVersion\": \"kueue.x-k8s.io/v1beta2\", \"kind\": "
               "\"ResourceFlavor\", \"metadata\": {\"name\": \"") +
           type.name + "\"}, \"spec\": {\"nodeLabels\": {\"gpu-type\": \"" + type.name + "\"}}},\n";
  }
  // ClusterQueues: each type's GPUs split evenly (the remainder to the first queues), so the
  // nominal quotas sum to the fleet. Even queues prefer H100 first, odd ones A100 first.
  const int queues = fleet.cluster_queues;
  for (int q = 0; q < queues; ++q) {
    std::vector<std::size_t> order = {0, 1, 2};
    if (q % 2 == 1) order = {1, 0, 2};
    std::string flavors;
    for (std::size_t t : order) {
      const int gpus = nodes_of[t] * kGpusPerNode;
      const int quota = gpus / queues + (q < gpus % queues ? 1 : 0);
      if (!flavors.empty()) flavors += ", ";
      flavors += std::string("{\"name\": \"") + kTypes[t].name +
                 "\", \"resources\": [{\"name\": \"nvidia.com/gpu\", \"nominalQuota\": " +
                 std::to_string(quota) + "}]}";
    }
    out +=
        "{\"apiVersion\": \"kueue.x-k8s.io/v1beta2\", \"kind\": \"ClusterQueue\", "
        "\"metadata\": {\"name\": \"" +
        team(q) + "\"}, \"spec\": {\"cohortName\": \"" +
        (q < queues / 2 ? "research" : "production") +
        "\", \"namespaceSelector\": {}, \"resourceGroups\": [{\"coveredResources\": "
        "[\"nvidia.com/gpu\"], \"flavors\": [" +
        flavors + "]}]}},\n";
    out +=
        "{\"apiVersion\": \"kueue.x-k8s.io/v1beta2\", \"kind\": \"LocalQueue\", "
        "\"metadata\": {\"namespace\": \"" +
        team(q) + "\", \"name\": \"" + team(q) + "\"}, \"spec\": {\"clusterQueue\": \"" + team(q) +
        "\"}}" + (q + 1 < queues ? ",\n" : "\n");
  }
  out += "],\n\"timeline\": [\n";
  // Jobs: one apply a minute, the same number each minute (the remainder in the first ones).
  constexpr std::int64_t kMinute = 60'000;
  const std::int64_t minutes = std::max<std::int64_t>(1, fleet.arrivals_over_ms / kMinute);
  for (std::int64_t m = 0, job = 0; m < minutes && job < fleet.jobs; ++m) {
    const std::int64_t count = fleet.jobs / minutes + (m < fleet.jobs % minutes ? 1 : 0);
    if (count == 0) continue;
    out += (m > 0 ? ",\n" : "") + std::string("{\"at\": \"") + duration(m * kMinute) +
           "\", \"apply\": [";
    for (std::int64_t i = 0; i < count; ++i, ++job) {
      const int q = random.between(0, queues - 1);
      const int pods = random.between(1, 8);
      // 40 % one GPU a pod, 25 % two, 20 % four, 15 % eight.
      const int slot = random.between(0, 99);
      const int gpus = slot < 40 ? 1 : slot < 65 ? 2 : slot < 85 ? 4 : 8;
      // 5 minutes to 2 hours, whole minutes.
      const std::int64_t run = random.between(5, 120) * kMinute;
      out += std::string(i > 0 ? ",\n  " : "\n  ") +
             "{\"apiVersion\": \"batch/v1\", \"kind\": \"Job\", \"metadata\": {\"namespace\": \"" +
             team(q) + "\", \"name\": \"job-" + std::to_string(job) +
             "\", \"labels\": {\"kueue.x-k8s.io/queue-name\": \"" + team(q) +
             "\"}}, \"spec\": {\"parallelism\": " + std::to_string(pods) +
             ", \"completions\": " + std::to_string(pods) +
             ", \"template\": {\"metadata\": {\"annotations\": {\"gpusched.io/run-duration\": \"" +
             duration(run) +
             "\"}}, \"spec\": {\"restartPolicy\": \"Never\", \"containers\": [{\"name\": "
             "\"cuda\", \"resources\": {\"limits\": {\"nvidia.com/gpu\": \"" +
             std::to_string(gpus) + "\"}}}]}}}}";
    }
    out += "]}";
  }
  out += "\n]}\n";
  return out;
}

}  // namespace bench
