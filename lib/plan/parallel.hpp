#pragma once
// Independent replays on the machine's cores. A replay shares nothing mutable with another (the
// library has no mutable statics), so each runs in its own thread on its own Scenario copy.

#include <cstddef>
#include <functional>

namespace gpusched::plan {

/// Threads to use for `jobs` (0: one per hardware thread), never more than `tasks`.
[[nodiscard]] unsigned worker_count(unsigned jobs, std::size_t tasks);

/// Calls `run(i)` for i in [0, count) on up to `jobs` threads (0: one per hardware thread) and
/// waits for all. When calls throw, every call still runs (a call cannot be interrupted), then
/// the exception of the lowest index is rethrown, so that the error reported does not depend on
/// timing.
void for_each_parallel(std::size_t count, unsigned jobs,
                       const std::function<void(std::size_t)>& run);

}  // namespace gpusched::plan
