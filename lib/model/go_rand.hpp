#pragma once
// Go's math/rand (src/math/rand/rng.go and rand.go, Go 1.15 to 1.20: the additive lagged
// Fibonacci source and the Rand methods on it), for inputs that must replay a Go program's
// random stream exactly: the FGD artifact's pod shuffle, workload tuning and node permutation
// (../shared/reference/fgd-artifact.md §1.4). gpusched's own randomness is framework/rng.hpp.

#include <array>
#include <cstdint>
#include <vector>

namespace gpusched {

class GoRand {
 public:
  /// rand.New(rand.NewSource(seed)), or the global source after rand.Seed(seed).
  explicit GoRand(std::int64_t seed) { seed_with(seed); }
  /// rngSource.Seed: the seed reduced mod 2^31-1 (0 becomes 89482311), warmed up by 20 Lehmer
  /// steps, each slot three more steps mixed with rng_cooked.
  void seed_with(std::int64_t seed);

  /// Int63: a non-negative 63-bit value.
  [[nodiscard]] std::int64_t int63();
  /// Int (on a 64-bit platform): Int63.
  [[nodiscard]] std::int64_t int_() { return int63(); }
  [[nodiscard]] std::int32_t int31() { return static_cast<std::int32_t>(int63() >> 32); }
  [[nodiscard]] std::uint32_t uint32() { return static_cast<std::uint32_t>(int63() >> 31); }
  /// Int31n (n > 0): a power of two masks one draw; otherwise draws above the largest multiple
  /// of n are rejected.
  [[nodiscard]] std::int32_t int31n(std::int32_t n);
  /// Intn for n up to 2^31-1: Int31n.
  [[nodiscard]] std::int32_t intn(std::int32_t n) { return int31n(n); }
  /// Float64: Int63 / 2^63, drawn again in the (rounding) case of 1.
  [[nodiscard]] double float64();
  /// Perm: for i = 0..n-1, j = Intn(i+1), m[i] = m[j], m[j] = i.
  [[nodiscard]] std::vector<int> perm(int n);
  /// Shuffle (n < 2^31): for i = n-1 down to 1, j = the unexported int31n(i+1) (Lemire's
  /// multiply-shift with rejection), then swap(i, j).
  template <class Swap>
  void shuffle(int n, Swap&& swap) {
    for (int i = n - 1; i > 0; --i) swap(i, static_cast<int>(lemire_int31n(i + 1)));
  }

 private:
  [[nodiscard]] std::int32_t lemire_int31n(std::int32_t n);

  static constexpr int kLen = 607;
  static constexpr int kTap = 273;
  int tap_ = 0;
  int feed_ = kLen - kTap;
  std::array<std::uint64_t, kLen> vec_{};
};

}  // namespace gpusched
