#pragma once
// A report rendered completely before any of it is printed (a failure while writing must leave
// the output untouched), held in blocks. A std::ostringstream doubles its buffer as it grows,
// copying it at each growth: a report of most of a gigabyte (a million-pod replay's JSON) cost
// up to three times its size at the last doubling, and str() copied it once more.

#include <cstddef>
#include <memory>
#include <ostream>
#include <streambuf>
#include <vector>

namespace gpusched::cli {

class RenderedText : public std::ostream {
 public:
  RenderedText();
  RenderedText(const RenderedText&) = delete;
  RenderedText& operator=(const RenderedText&) = delete;
  ~RenderedText() override;

  /// Writes what was rendered to `target`, block by block.
  void print(std::ostream& target) const;

 private:
  class Blocks : public std::streambuf {
   public:
    void print(std::ostream& target) const;

   protected:
    int_type overflow(int_type c) override;

   private:
    std::vector<std::unique_ptr<char[]>> blocks_;
  };
  Blocks blocks_;
};

}  // namespace gpusched::cli
