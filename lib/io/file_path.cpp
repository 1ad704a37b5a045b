#include "io/file_path.hpp"

#include <algorithm>

#include "model/go_text.hpp"

namespace gpusched::io {

std::string file_path_text(const JsonNode& node) {
  std::string path = node.string();
  const bool control = std::any_of(path.begin(), path.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
  });
  if (control) node.fail("a file path must not hold control characters, got " + go_quote(path));
  return path;
}

}  // namespace gpusched::io
