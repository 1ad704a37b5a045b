// The include graph of lib/ and include/gpusched/, folder by folder: each folder includes only
// itself and the layers below it (docs/architecture.md, "Layers"), so the graph has no loop.

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace fs = std::filesystem;

namespace {

/// The layers, lowest first. `error` is include/gpusched/error.hpp (and lib/error.cpp), the
/// one type every layer may throw; `umbrella` is include/gpusched/gpusched.hpp.
const std::vector<std::string> kLayers = {
    "error", "model", "config",  "scenario", "dra", "framework", "plugins", "scheduler", "devices",
    "kueue", "sim",   "explain", "io",       "report",    "plan",    "umbrella",
};

std::string layer_of_file(const fs::path& relative) {
  auto it = relative.begin();
  const std::string top = (it++)->string();
  if (top == "include") ++it;  // include/gpusched/...
  const fs::path rest = [&] {
    fs::path p;
    for (; it != relative.end(); ++it) p /= *it;
    return p;
  }();
  if (rest.has_parent_path()) return rest.begin()->string();
  const std::string stem = rest.stem().string();
  return stem == "gpusched" ? "umbrella" : stem;
}

std::string layer_of_include(std::string include) {
  if (include.starts_with("gpusched/")) include.erase(0, 9);
  const auto slash = include.find('/');
  if (slash != std::string::npos) return include.substr(0, slash);
  const std::string stem = fs::path(include).stem().string();
  return stem == "gpusched" ? "umbrella" : stem;
}

std::ptrdiff_t rank(const std::string& layer) {
  auto it = std::find(kLayers.begin(), kLayers.end(), layer);
  return it == kLayers.end() ? -1 : it - kLayers.begin();
}

struct Include {
  std::string file;      // relative to the source tree
  std::string target;    // as written between the quotes
  std::string from, to;  // layers
};

std::vector<Include> project_includes() {
  const fs::path root = GPUSCHED_SOURCE_DIR;
  const std::regex include_line(R"(^\s*#\s*include\s+"([^"]+)\")");
  std::vector<Include> out;
  for (const char* base : {"lib", "include/gpusched"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / base)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".hpp" && ext != ".cpp")) continue;
      const fs::path relative = fs::relative(entry.path(), root);
      std::ifstream in(entry.path());
      std::string line;
      std::smatch m;
      while (std::getline(in, line)) {
        if (!std::regex_search(line, m, include_line)) continue;
        out.push_back(
            {relative.generic_string(), m[1], layer_of_file(relative), layer_of_include(m[1])});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Include& a, const Include& b) {
    return std::tie(a.file, a.target) < std::tie(b.file, b.target);
  });
  return out;
}

}  // namespace

TEST_CASE("Layering: every folder includes only itself and the layers below it", "[layering]") {
  const std::vector<Include> includes = project_includes();
  REQUIRE(includes.size() > 500);  // the whole tree was read
  std::vector<std::string> violations;
  for (const Include& inc : includes) {
    INFO(inc.file << " includes " << inc.target);
    REQUIRE(rank(inc.from) >= 0);  // a new folder needs its place in kLayers
    REQUIRE(rank(inc.to) >= 0);
    if (rank(inc.to) <= rank(inc.from)) continue;
    violations.push_back(inc.file + " (" + inc.from + ") includes " + inc.target + " (" + inc.to +
                         ")");
  }
  CAPTURE(violations);
  CHECK(violations.empty());
}

TEST_CASE("Layering: the folder graph has no loop", "[layering]") {
  // Independent of kLayers: the folders' include relation, closed transitively, never leads a
  // folder back to itself.
  std::map<std::string, std::set<std::string>> edges;
  for (const Include& inc : project_includes()) {
    if (inc.from != inc.to) edges[inc.from].insert(inc.to);
  }
  for (const auto& [start, targets] : edges) {
    std::set<std::string> reached;
    std::vector<std::string> stack(targets.begin(), targets.end());
    while (!stack.empty()) {
      const std::string folder = stack.back();
      stack.pop_back();
      if (!reached.insert(folder).second) continue;
      // A folder that includes no other one is not a key: nothing to follow from it.
      if (auto next = edges.find(folder); next != edges.end())
        stack.insert(stack.end(), next->second.begin(), next->second.end());
    }
    INFO("a loop through " << start);
    CHECK_FALSE(reached.contains(start));
  }
}

TEST_CASE("Layering: public headers include only the standard library and each other",
          "[layering]") {
  for (const Include& inc : project_includes()) {
    if (!inc.file.starts_with("include/")) continue;
    INFO(inc.file << " includes " << inc.target);
    CHECK(inc.target.starts_with("gpusched/"));
  }
  // <...> includes: standard headers only, which have neither a directory nor an extension.
  const fs::path root = GPUSCHED_SOURCE_DIR;
  const std::regex system_include(R"(^\s*#\s*include\s+<([^>]+)>)");
  for (const auto& entry : fs::recursive_directory_iterator(root / "include")) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
      if (!std::regex_search(line, m, system_include)) continue;
      const std::string header = m[1];
      INFO(entry.path().generic_string() << " includes <" << header << ">");
      CHECK(header.find_first_of("/.") == std::string::npos);
    }
  }
}
