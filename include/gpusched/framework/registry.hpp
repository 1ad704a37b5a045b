#pragma once
/// Plugin factories by name (pkg/scheduler/framework/runtime/registry.go). The scheduler builds
/// each profile's plugins from a registry: the in-tree one, merged with what a library user
/// registers (SimulationOptions::plugins), as kube-scheduler's app.WithPlugin adds out-of-tree
/// plugins.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpusched/config/scheduler_config.hpp"
#include "gpusched/framework/plugin.hpp"

namespace gpusched {

struct Handle;

/// Makes a plugin for a profile: `handle` gives it the cluster, the random source and the
/// framework it belongs to; `profile` its configuration.
using PluginFactory =
    std::function<std::unique_ptr<Plugin>(Handle& handle, const Profile& profile)>;

class Registry {
 public:
  /// Registers `factory` under `name`. Throws InputError (at `Registry::add`) when the name is
  /// empty or already registered ("a plugin named X already exists", as Registry.Register) or the
  /// factory is empty.
  void add(std::string name, PluginFactory factory);
  /// Registers every plugin of `other` (Registry.Merge); the same errors as add().
  void merge(const Registry& other);
  /// The factory registered under `name`, or nullptr.
  [[nodiscard]] const PluginFactory* find(std::string_view name) const;
  /// The registered names, sorted.
  [[nodiscard]] std::vector<std::string> names() const;
  [[nodiscard]] bool empty() const noexcept { return factories_.empty(); }

 private:
  std::map<std::string, PluginFactory, std::less<>> factories_;
};

}  // namespace gpusched
