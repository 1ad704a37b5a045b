#pragma once
/// What `gpusched check` found, for CI systems: JUnit XML, and GitHub Actions annotations.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpusched/sim/result.hpp"

namespace gpusched::report {

/// One scenario file as check ran it.
struct CheckedScenario {
  std::string file;      ///< as named on the command line, or found under a directory
  std::string scenario;  ///< its name; empty when it could not be read
  /// Set when the file could not be read or replayed: InputError's reason, place and line.
  struct Error {
    std::string reason;
    std::string pointer;
    int line = 0;
  };
  std::optional<Error> error;
  std::vector<ExpectationResult> expectations;
  /// Read, replayed, with at least one expectation, and all of them held.
  [[nodiscard]] bool passed() const;
};

/// JUnit XML: a <testsuite> per scenario file and a <testcase> per expectation (classname the
/// scenario, name "<pointer> at <time>", file and line), a failed one with a <failure> carrying
/// the expected and actual values; a file that could not be replayed is one testcase with an
/// <error>, one without expectations one testcase with a <failure>. No times: the same
/// scenarios give the same bytes.
void write_junit(std::ostream& out, const std::vector<CheckedScenario>& checked);

/// GitHub Actions workflow commands: an `::error file=...,line=...,title=...::message` line per
/// failed expectation or unreadable scenario, which GitHub shows on the file's line.
void write_github_annotations(std::ostream& out, const std::vector<CheckedScenario>& checked);

}  // namespace gpusched::report
