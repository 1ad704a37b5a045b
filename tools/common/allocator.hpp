#pragma once
// The allocator the gpusched executable and the benchmarks run on: mimalloc (Debian's
// libmimalloc-dev), on transparent huge pages; the library leaves the allocator to the program
// that links it (docs/library.md).
//
// A large replay allocates and frees millions of small blocks and touches much fresh memory. On
// the 1,000-node Kueue fleet mimalloc runs 15 % fewer instructions than glibc's malloc with its
// thread cache tuned, with a quarter fewer last-level cache misses, and the 5,000-node fleet
// holds 3 % less memory at its peak (docs/benchmarks.md, step 12). Each first touch of a fresh
// page is a page fault, which a virtual machine pays dearly for: with MIMALLOC_LARGE_OS_PAGES=1
// mimalloc asks the kernel for transparent huge pages (madvise) on its segments, one fault per
// 2 MiB instead of one per 4 KiB (without them it was slower than glibc on huge pages, step 9).
//
// mimalloc is preloaded, not linked: the program runs itself again with LD_PRELOAD naming it,
// unless its address space is capped (`ulimit -v`). mimalloc maps 32 MiB segments from its
// first allocation on, before main, so under a cap of a few dozen MiB it could not start and
// would abort; glibc's malloc then serves, and the program ends with "out of memory" and exit 3
// like any other (tests/limits/memory_capped.sh). GPUSCHED_ALLOCATOR set to anything (the second
// run sets it to "mimalloc") keeps the allocator the program started with, and so does an
// LD_PRELOAD of the user's (valgrind's, another allocator): theirs wins, and valgrind keeps
// seeing the program, which it would not after it ran itself again.

#include <cstdlib>
#include <new>

#if defined(__linux__) && defined(__GLIBC__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace gpusched::tools {

/// Makes operator new throw std::bad_alloc when memory runs out, on either allocator (Debian's
/// mimalloc is built as C: without a new-handler its operator new calls abort(), alloc.c
/// mi_try_new_handler); then runs the program again on mimalloc, as above. Returns when it does
/// not (a capped address space, GPUSCHED_ALLOCATOR or LD_PRELOAD set, no mimalloc or no /proc),
/// which only costs the speed-up.
inline void use_allocator(char** argv) {
  std::set_new_handler([] { throw std::bad_alloc(); });
#if defined(GPUSCHED_MIMALLOC_LIBRARY) && defined(__linux__) && defined(__GLIBC__)
  if (std::getenv("GPUSCHED_ALLOCATOR") != nullptr) return;
  if (const char* user = std::getenv("LD_PRELOAD"); user != nullptr && *user != '\0') return;
  rlimit address_space{};
  if (getrlimit(RLIMIT_AS, &address_space) != 0 || address_space.rlim_cur != RLIM_INFINITY) return;
  if (access(GPUSCHED_MIMALLOC_LIBRARY, R_OK) != 0) return;
  if (setenv("LD_PRELOAD", GPUSCHED_MIMALLOC_LIBRARY, 1) != 0 ||
      setenv("MIMALLOC_LARGE_OS_PAGES", "1", 0) != 0 ||
      setenv("GPUSCHED_ALLOCATOR", "mimalloc", 1) != 0)
    return;
  execv("/proc/self/exe", argv);
#else
  (void)argv;
#endif
}

}  // namespace gpusched::tools
