#include "plan/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace gpusched::plan {

unsigned worker_count(unsigned jobs, std::size_t tasks) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(jobs, std::max<std::size_t>(tasks, 1)));
}

void for_each_parallel(std::size_t count, unsigned jobs,
                       const std::function<void(std::size_t)>& run) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        run(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  const unsigned threads = worker_count(jobs, count);
  if (threads <= 1) {
    work();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);
  }
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace gpusched::plan
