#pragma once
// Reorders a list in place by a permutation: the end of a replay puts a million pods' records,
// and a pod index its million entries, in key order without a second list of them.

#include <cstddef>
#include <utility>
#include <vector>

namespace gpusched {

/// items[j] becomes the old items[from[j]], moving each item once (a sort would move them many
/// times), one cycle of the permutation at a time. `from` (a permutation of the positions) is
/// used up: it ends as the identity.
template <class T, class Index>
void permute(std::vector<T>& items, std::vector<Index>& from) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (from[i] == i) continue;
    T first = std::move(items[i]);
    std::size_t j = i;
    for (std::size_t k = from[j]; k != i; k = from[j]) {
      items[j] = std::move(items[k]);
      from[j] = static_cast<Index>(j);
      j = k;
    }
    items[j] = std::move(first);
    from[j] = static_cast<Index>(j);
  }
}

}  // namespace gpusched
