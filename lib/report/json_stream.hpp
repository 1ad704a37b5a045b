#pragma once
// A JSON document written as it is built, byte for byte as nlohmann::ordered_json's
// dump(2, ' ', false, error_handler_t::replace) prints it: the result JSON of a large replay
// without a document of every pod and node in memory first.

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusched::report {

class JsonStream {
 public:
  explicit JsonStream(std::ostream& out) : out_(out) { buffer_.reserve(kFlushBytes + 4096); }
  ~JsonStream() { flush(); }
  JsonStream(const JsonStream&) = delete;
  JsonStream& operator=(const JsonStream&) = delete;

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  /// The next member's key, inside an object.
  JsonStream& key(std::string_view name);

  void string(std::string_view text);
  /// The string, or null when it is empty.
  void string_or_null(std::string_view text);
  void null();
  void boolean(bool value);
  void integer(std::int64_t value);
  /// Any value built as a document (sections the stream does not write member by member).
  void value(const nlohmann::ordered_json& json);

  /// Writes what is buffered to the stream.
  void flush();

 private:
  static constexpr std::size_t kFlushBytes = 1 << 16;
  /// Before a value: the separator and indentation an array element takes.
  void element();
  void open(char bracket);
  void close(char bracket);
  void indent(std::size_t depth);
  /// `text` as a JSON string.
  void quoted(std::string_view text);
  void maybe_flush() {
    if (buffer_.size() >= kFlushBytes) flush();
  }

  struct Level {
    bool object = false;
    bool empty = true;
  };
  std::ostream& out_;
  std::string buffer_;
  std::vector<Level> levels_;
  bool after_key_ = false;  ///< a key was written: the value follows it directly
};

}  // namespace gpusched::report
