#pragma once
// glibc's malloc tuned for large replays, for the gpusched executable and the benchmarks.
//
// A large replay touches a fresh page for much of what it allocates, and each first touch is a
// page fault: on the 5,000-node Kueue fleet (issue 20) 460,000 of them, a sixth of the run on a
// virtual machine. glibc (2.35 and later) asks the kernel for 2 MiB pages on its heap when the
// `glibc.malloc.hugetlb=1` tunable is set. It also frees and allocates hundreds of thousands of
// small blocks of each size: with `glibc.malloc.tcache_count=1000` (7 by default) the thread's
// cache keeps up to 1,000 freed blocks of each size for the next allocations, instead of merging
// them into the heap's free lists and splitting them again (docs/benchmarks.md, step 10). glibc
// reads tunables only from the environment at start-up, so the program runs itself again with
// that variable set. Where /sys/kernel/mm/transparent_hugepage/enabled is "never" the first
// tunable changes nothing; a program that links the library gets the same by setting
// GLIBC_TUNABLES itself (docs/library.md).

#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <unistd.h>
#endif

namespace gpusched::tools {

/// The tunables the executable runs with (docs/library.md gives them to programs of yours).
inline constexpr const char* kMallocTunables =
    "glibc.malloc.hugetlb=1:glibc.malloc.tcache_count=1000";

/// Re-executes the running program (same arguments, same environment plus GLIBC_TUNABLES set to
/// kMallocTunables) unless GLIBC_TUNABLES is already set: the user's own tunables are kept as
/// they are, and the second run does not execute itself again. Returns when the program cannot
/// execute itself (no /proc), which only costs the speed-up.
inline void tune_malloc(char** argv) {
#if defined(__linux__) && defined(__GLIBC__)
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;
  if (setenv("GLIBC_TUNABLES", kMallocTunables, 0) != 0) return;
  execv("/proc/self/exe", argv);
#else
  (void)argv;
#endif
}

}  // namespace gpusched::tools
