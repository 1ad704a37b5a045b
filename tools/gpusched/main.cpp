// The gpusched executable: everything lives in cli::run so that tests can call it in-process.

#include <iostream>

#include "common/allocator.hpp"
#include "gpusched/cli.hpp"

int main(int argc, char** argv) {
  gpusched::tools::use_allocator(argv);
  return gpusched::cli::run(argc, argv, std::cout, std::cerr);
}
