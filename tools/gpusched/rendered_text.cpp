#include "gpusched/rendered_text.hpp"

namespace gpusched::cli {
namespace {

// Large enough that printing writes in few calls, small enough that a short report costs
// little (the pages of a block not yet written are not touched).
constexpr std::size_t kBlock = std::size_t{1} << 20;

}  // namespace

RenderedText::RenderedText() : std::ostream(&blocks_) {}

RenderedText::~RenderedText() = default;

void RenderedText::print(std::ostream& target) const {
  blocks_.print(target);
}

RenderedText::Blocks::int_type RenderedText::Blocks::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlock));
  char* block = blocks_.back().get();
  setp(block, block + kBlock);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

void RenderedText::Blocks::print(std::ostream& target) const {
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const char* block = blocks_[i].get();
    // Every block but the last is full; the last holds what was written up to pptr().
    const std::size_t used =
        i + 1 < blocks_.size() ? kBlock : static_cast<std::size_t>(pptr() - block);
    target.write(block, static_cast<std::streamsize>(used));
  }
}

}  // namespace gpusched::cli
