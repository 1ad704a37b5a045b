#pragma once
// Test support: a fresh directory under the system temp dir, removed with everything in it.

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace gpusched::test {

class TempDir {
 public:
  TempDir() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("gpusched-test-" + std::to_string(random()) + "-" + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// The path of `name` inside the directory, as text.
  [[nodiscard]] std::string at(const std::string& name) const {
    return (path_ / name).generic_string();
  }
  /// Writes `text` to `name` (subdirectories created) and returns its path as text.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file.generic_string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace gpusched::test
