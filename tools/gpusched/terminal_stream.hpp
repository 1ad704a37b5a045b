#pragma once
// The one filter between gpusched and the streams it prints to: every byte of a report or a
// diagnostic goes through report::append_terminal_text, so that no scenario, pod or file name
// can send escape sequences to a terminal, whichever writer printed it.

#include <streambuf>
#include <string>
#include <string_view>

namespace gpusched::cli {

/// An unbuffered stream buffer that passes what is written on to `target`, control characters
/// and bytes that are not UTF-8 escaped (report::append_terminal_text). A write or flush that
/// `target` refuses fails this buffer too, so the stream over it turns bad.
class TerminalTextBuffer : public std::streambuf {
 public:
  explicit TerminalTextBuffer(std::streambuf& target) : target_(target) {}
  TerminalTextBuffer(const TerminalTextBuffer&) = delete;
  TerminalTextBuffer& operator=(const TerminalTextBuffer&) = delete;
  ~TerminalTextBuffer() override;

  /// Why the first write or flush of `target` failed (strerror), empty when none failed or the
  /// system said nothing.
  [[nodiscard]] const std::string& failure() const noexcept { return failure_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  /// Escapes `text` (held_ first) and writes it to target_; with `more`, an incomplete UTF-8
  /// sequence at the end waits in held_ for the next write.
  bool forward(std::string_view text, bool more);
  /// forward() for at most one piece of its text.
  bool forward_piece(std::string_view text, bool more);
  void failed();

  std::streambuf& target_;
  std::string held_;
  std::string escaped_;
  bool ok_ = true;
  std::string failure_;
};

}  // namespace gpusched::cli
