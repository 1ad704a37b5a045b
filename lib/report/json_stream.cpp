#include "report/json_stream.hpp"

#include <charconv>

namespace gpusched::report {
namespace {

using Json = nlohmann::ordered_json;

/// Printable ASCII without a quote or a backslash: written as it is.
bool plain(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7e || c == '"' || c == '\\') return false;
  }
  return true;
}

}  // namespace

void JsonStream::indent(std::size_t depth) {
  buffer_.append(2 * depth, ' ');
}

void JsonStream::element() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;
  Level& level = levels_.back();
  buffer_ += level.empty ? "\n" : ",\n";
  level.empty = false;
  indent(levels_.size());
}

JsonStream& JsonStream::key(std::string_view name) {
  Level& level = levels_.back();
  buffer_ += level.empty ? "\n" : ",\n";
  level.empty = false;
  indent(levels_.size());
  quoted(name);
  buffer_ += ": ";
  after_key_ = true;
  return *this;
}

void JsonStream::open(char bracket) {
  element();
  buffer_ += bracket;
  levels_.push_back(Level{bracket == '{', true});
}

void JsonStream::close(char bracket) {
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (!empty) {
    buffer_ += '\n';
    indent(levels_.size());
  }
  buffer_ += bracket;
  if (levels_.empty()) buffer_ += '\n';
  maybe_flush();
}

void JsonStream::string(std::string_view text) {
  element();
  quoted(text);
}

void JsonStream::quoted(std::string_view text) {
  if (plain(text)) {
    buffer_ += '"';
    buffer_ += text;
    buffer_ += '"';
    return;
  }
  // Escapes and invalid UTF-8 exactly as nlohmann's serializer writes them.
  buffer_ += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void JsonStream::string_or_null(std::string_view text) {
  if (text.empty()) {
    null();
  } else {
    string(text);
  }
}

void JsonStream::null() {
  element();
  buffer_ += "null";
}

void JsonStream::boolean(bool value) {
  element();
  buffer_ += value ? "true" : "false";
}

void JsonStream::integer(std::int64_t value) {
  element();
  char text[24];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  buffer_.append(text, end);
}

void JsonStream::value(const Json& json) {
  element();
  // A value dumped alone, each line after the first indented to this depth: what the whole
  // document's dump prints for it.
  const std::string text = json.dump(2, ' ', false, Json::error_handler_t::replace);
  const std::string pad(2 * levels_.size(), ' ');
  for (const char c : text) {
    buffer_ += c;
    if (c == '\n') buffer_ += pad;
  }
  maybe_flush();
}

void JsonStream::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

}  // namespace gpusched::report
