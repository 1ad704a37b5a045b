// GPU sharing's annotations as the FGD artifact's pod YAML writes them
// (../shared/reference/fgd-artifact.md §1.1, §2.1).

#include "gpusched/model/gpu_share.hpp"

#include <algorithm>
#include <charconv>

namespace gpusched {
namespace {

/// A decimal integer in [0, max], all of `text`.
std::optional<std::int32_t> integer(std::string_view text, std::int32_t max) {
  std::int32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0 || value > max)
    return std::nullopt;
  return value;
}

}  // namespace

GpuShareRequest gpu_share_request(const Labels& annotations, std::string* error) {
  using namespace gpu_share_names;
  const auto milli_it = annotations->find(kGpuMilliAnnotation);
  const auto count_it = annotations->find(kGpuCountAnnotation);
  const bool has_milli = milli_it != annotations->end();
  const bool has_count = count_it != annotations->end();
  GpuShareRequest out;
  auto fail = [&](std::string why) {
    if (error != nullptr) *error = std::move(why);
    return GpuShareRequest{};
  };
  if (!has_milli && !has_count) return out;
  std::optional<std::int32_t> milli = has_milli ? integer(milli_it->second, kMilliPerGpu) : 0;
  if (!milli) {
    return fail(std::string(kGpuMilliAnnotation) + " must be an integer from 0 to 1000, not \"" +
                milli_it->second + "\"");
  }
  std::optional<std::int32_t> count = has_count ? integer(count_it->second, kMaxShareGpus) : 0;
  if (!count) {
    return fail(std::string(kGpuCountAnnotation) + " must be an integer from 0 to " +
                std::to_string(kMaxShareGpus) + ", not \"" + count_it->second + "\"");
  }
  // The artifact's pod YAML writes both or neither; one alone asks for an amount of nothing.
  if ((*milli > 0) != (*count > 0)) {
    return fail(*milli > 0 ? std::string(kGpuMilliAnnotation) + " " + std::to_string(*milli) +
                                 " needs " + std::string(kGpuCountAnnotation) + " of at least 1"
                           : std::string(kGpuCountAnnotation) + " " + std::to_string(*count) +
                                 " needs " + std::string(kGpuMilliAnnotation) + " of at least 1");
  }
  // Open-Gpu-Share panics on a share of several GPUs ("the pod requests more than one share
  // gpu, should not happen").
  if (*count > 1 && *milli < kMilliPerGpu) {
    return fail(std::string(kGpuMilliAnnotation) + " " + std::to_string(*milli) +
                " is a share of one GPU, but " + std::string(kGpuCountAnnotation) + " is " +
                std::to_string(*count));
  }
  out.gpu_milli = *milli;
  out.gpu_count = *count;
  if (const auto model = annotations->find(kGpuModelAnnotation); model != annotations->end())
    out.gpu_type = model->second;
  return out;
}

std::optional<std::vector<std::int32_t>> parse_gpu_index(std::string_view text) {
  std::vector<std::int32_t> out;
  for (;;) {
    const std::size_t dash = text.find('-');
    const std::optional<std::int32_t> index = integer(text.substr(0, dash), kMaxShareGpus - 1);
    if (!index || std::find(out.begin(), out.end(), *index) != out.end()) return std::nullopt;
    out.push_back(*index);
    if (dash == std::string_view::npos) return out;
    text.remove_prefix(dash + 1);
  }
}

std::string format_gpu_index(const std::vector<std::int32_t>& gpus) {
  std::string out;
  for (const std::int32_t gpu : gpus) {
    if (!out.empty()) out += '-';
    out += std::to_string(gpu);
  }
  return out;
}

}  // namespace gpusched
