#include "gpusched/framework/registry.hpp"

#include <utility>

#include "gpusched/error.hpp"

namespace gpusched {
namespace {

// A bad name or factory is a bad argument of the library call: the place is the call.
[[noreturn]] void bad_plugin(std::string reason) {
  throw InputError("Registry::add", "", std::move(reason));
}

}  // namespace

void Registry::add(std::string name, PluginFactory factory) {
  if (name.empty()) bad_plugin("a plugin needs a name");
  if (!factory) bad_plugin("plugin \"" + name + "\" has no factory");
  // runtime.Registry.Register's message.
  if (factories_.contains(name)) bad_plugin("a plugin named " + name + " already exists");
  factories_.emplace(std::move(name), std::move(factory));
}

void Registry::merge(const Registry& other) {
  for (const auto& [name, factory] : other.factories_) add(name, factory);
}

const PluginFactory* Registry::find(std::string_view name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  out.reserve(factories_.size());
  for (const auto& entry : factories_) out.push_back(entry.first);
  return out;
}

}  // namespace gpusched
