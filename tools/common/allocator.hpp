#pragma once
// The allocator the gpusched executable and the benchmarks run on: mimalloc (Debian's
// libmimalloc-dev), linked into them so that it replaces malloc and operator new for the whole
// process; the library leaves the allocator to the program that links it (docs/library.md).
//
// A large replay allocates and frees millions of small blocks and touches much fresh memory. On
// the 1,000-node Kueue fleet mimalloc runs 15 % fewer instructions than glibc's malloc with its
// thread cache tuned, with a quarter fewer last-level cache misses, and the 5,000-node fleet
// holds 3 % less memory at its peak (docs/benchmarks.md, step 12). Each first touch of a fresh
// page is a page fault, which a virtual machine pays dearly for: with large OS pages on,
// mimalloc asks the kernel for transparent huge pages (madvise) on its segments, one fault per
// 2 MiB instead of one per 4 KiB (without them it was slower than glibc on huge pages, step 9).
// mimalloc reads the option at each request for memory from the OS, so turning it on first
// thing in main covers all but what the C++ runtime allocated before main.

#if defined(GPUSCHED_MIMALLOC)
#include <mimalloc.h>
#endif

namespace gpusched::tools {

/// Turns on mimalloc's large OS pages; does nothing in a build without mimalloc (the sanitizer
/// builds, whose own allocator takes every allocation).
inline void tune_allocator() {
#if defined(GPUSCHED_MIMALLOC)
  mi_option_enable(mi_option_large_os_pages);
#endif
}

}  // namespace gpusched::tools
