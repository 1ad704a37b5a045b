#include "explain/node_patches.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "gpusched/error.hpp"

namespace gpusched::explain_detail {
namespace {

/// The Node in `current`; a patch of another kind is an input error at the action.
Node node_of(const Object& current, const std::string& file, const std::string& pointer) {
  const Node* node = std::get_if<Node>(&current);
  if (node == nullptr) throw InputError(file, pointer, "this patch applies to a Node only");
  return *node;
}

class NodeLabels final : public ObjectPatch {
 public:
  explicit NodeLabels(std::map<std::string, std::string> labels) : labels_(std::move(labels)) {}
  [[nodiscard]] Object apply(const Object& current, const std::string& file,
                             const std::string& pointer) const override {
    Node node = node_of(current, file, pointer);
    for (const auto& [key, value] : labels_) node.metadata.labels.insert_or_assign(key, value);
    return node;
  }
  [[nodiscard]] std::string merge_patch() const override {
    return nlohmann::json{{"metadata", {{"labels", labels_}}}}.dump();
  }

 private:
  std::map<std::string, std::string> labels_;
};

class NodeReady final : public ObjectPatch {
 public:
  [[nodiscard]] Object apply(const Object& current, const std::string& file,
                             const std::string& pointer) const override {
    Node node = node_of(current, file, pointer);
    node.conditions = {NodeCondition{"Ready", "True", {}, {}}};
    return node;
  }
  [[nodiscard]] std::string merge_patch() const override {
    return nlohmann::json{{"status", {{"conditions", {{{"type", "Ready"}, {"status", "True"}}}}}}}
        .dump();
  }
};

}  // namespace

std::shared_ptr<const ObjectPatch> set_node_labels(std::map<std::string, std::string> labels) {
  return std::make_shared<const NodeLabels>(std::move(labels));
}

std::shared_ptr<const ObjectPatch> make_node_ready() {
  return std::make_shared<const NodeReady>();
}

}  // namespace gpusched::explain_detail
