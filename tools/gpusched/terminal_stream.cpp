#include "gpusched/terminal_stream.hpp"

#include <cerrno>
#include <cstring>

#include "gpusched/report/terminal_text.hpp"

namespace gpusched::cli {

TerminalTextBuffer::~TerminalTextBuffer() {
  // What a last write left incomplete is not lost; the owner flushes (and checks) before this.
  if (!held_.empty()) forward({}, false);
}

void TerminalTextBuffer::failed() {
  if (ok_ && errno != 0) failure_ = std::strerror(errno);
  ok_ = false;
}

bool TerminalTextBuffer::forward(std::string_view text, bool more) {
  // In pieces: a report printed in one write (a million-pod replay's JSON is most of a
  // gigabyte) would otherwise be escaped into a second copy of itself first.
  constexpr std::size_t kPiece = std::size_t{1} << 16;
  do {
    const std::string_view piece = text.substr(0, kPiece);
    text.remove_prefix(piece.size());
    if (!forward_piece(piece, more || !text.empty())) return false;
  } while (!text.empty());
  return true;
}

bool TerminalTextBuffer::forward_piece(std::string_view text, bool more) {
  if (!ok_) return false;
  std::string joined;
  if (!held_.empty()) {
    joined = held_;
    joined.append(text);
    text = joined;
  }
  escaped_.clear();
  const std::size_t used = report::append_terminal_text(escaped_, text, more);
  held_.assign(text.substr(used));
  errno = 0;
  const auto size = static_cast<std::streamsize>(escaped_.size());
  if (target_.sputn(escaped_.data(), size) != size) {
    failed();
    return false;
  }
  return true;
}

TerminalTextBuffer::int_type TerminalTextBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  return forward(std::string_view(&ch, 1), true) ? c : traits_type::eof();
}

std::streamsize TerminalTextBuffer::xsputn(const char* s, std::streamsize n) {
  return forward(std::string_view(s, static_cast<std::size_t>(n)), true) ? n : 0;
}

int TerminalTextBuffer::sync() {
  if (!held_.empty() && !forward({}, false)) return -1;
  if (!ok_) return -1;
  errno = 0;
  if (target_.pubsync() == -1) {
    failed();
    return -1;
  }
  return 0;
}

}  // namespace gpusched::cli
