#pragma once
/// `gpusched experiment fragmentation`: the experiment of "Beware of Fragmentation" (USENIX
/// ATC'23) as its artifact runs it (hkust-adsl/kubernetes-scheduler-simulator at 8f3d641;
/// ../shared/reference/fgd-artifact.md is the specification): the trace's pods shuffled by Go's
/// math/rand, cloned up to a share of the cluster's GPU capacity (or thinned down to it), each
/// scheduled once onto the nodes (renamed with a random rank that breaks score ties) and dropped
/// when nothing fits, no departures; after every pod, the share of GPU milli allocated. The
/// table is the mean allocation per arrived-workload percent, with the analysis scripts'
/// rounding.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/model/gpu_share.hpp"

namespace gpusched::plan {

/// The artifact's six scoring policies (§3): one score plugin of weight 1000; the GPU within the
/// node chosen best-fit, except by FGD, which takes the device its score found, and Random,
/// which draws one. Random draws from the run's Go source as the artifact does, but its node
/// draw indexes the feasible nodes in node order, where the artifact's parallel filter lists
/// them in no fixed order: its runs match the paper's statistically, not value for value.
/// FgdCpuPacking is gpusched's own: FGD, whose ties for a CPU-only pod go to the node with the
/// fewest free GPU milli before the node ranks.
enum class SharePolicy : std::uint8_t {
  DotProd,
  GpuClustering,
  GpuPacking,
  BestFit,
  Fgd,
  Random,
  FgdCpuPacking
};

/// The policy of a name as the paper spells it ("BestFit"), or nullopt.
[[nodiscard]] std::optional<SharePolicy> share_policy(std::string_view name);
[[nodiscard]] std::string_view to_string(SharePolicy policy);
/// Every policy's name, in the enum's order.
[[nodiscard]] std::vector<std::string_view> share_policy_names();

struct FragmentationOptions {
  SharePolicy policy = SharePolicy::BestFit;
  std::int64_t seed = 42;             ///< -tuneseed: Go's rand.Seed
  std::int64_t tune_permille = 1300;  ///< -tune 1.3: pods cloned up to 130 % of GPU capacity
};

/// One run.
struct FragmentationRun {
  /// Per arrived-workload percent 0 .. tune_permille/10: the mean allocation percent of the
  /// pod events there, rounded to 2 decimals as Python rounds; nullopt where no event is.
  std::vector<std::optional<double>> allocated;
  /// The same per arrived percent for the cluster's fragmentation (§4, the paper's Fig. 7): the
  /// mean fragmentation amount as a percent of the GPU capacity (rounded to 2 decimals), and
  /// the mean fragmentation ratio, percent of the idle GPU milli (not rounded).
  std::vector<std::optional<double>> frag_amount;
  std::vector<std::optional<double>> frag_ratio;
  std::size_t events = 0;  ///< pods tried: the trace's and the clones
  std::size_t clones = 0;
  std::size_t removed = 0;       ///< pods tuned away: the trace asked more than the target
  std::size_t failed = 0;        ///< pods no node could take, dropped
  std::int64_t used_milli = 0;   ///< GPU milli allocated at the end
  std::int64_t total_milli = 0;  ///< the cluster's GPU milli
};

/// Runs the experiment on `trace`. Throws InputError when the cluster has no GPU.
[[nodiscard]] FragmentationRun run_fragmentation(const GpuShareTrace& trace,
                                                 const FragmentationOptions& options);

/// run_fragmentation for each of `runs`, up to `jobs` at once (0: one per hardware thread), in
/// that order; rethrows the first run's InputError.
[[nodiscard]] std::vector<FragmentationRun> run_fragmentations(
    const GpuShareTrace& trace, const std::vector<FragmentationOptions>& runs, unsigned jobs);

/// Python's round(x, 2) of a double: the exact binary value rounded to 2 decimals.
[[nodiscard]] double python_round2(double x);

}  // namespace gpusched::plan
