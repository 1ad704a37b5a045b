#include "io/merge_patch.hpp"

#include <utility>

#include "io/object_json.hpp"

namespace gpusched::io {
namespace {

class MergePatch final : public ObjectPatch {
 public:
  explicit MergePatch(std::string text) : text_(std::move(text)) {}
  [[nodiscard]] Object apply(const Object& current, const std::string& file,
                             const std::string& pointer) const override {
    return apply_merge_patch(current, text_, file, pointer);
  }
  [[nodiscard]] std::string merge_patch() const override { return text_; }

 private:
  std::string text_;
};

}  // namespace

std::shared_ptr<const ObjectPatch> merge_patch(std::string merge_patch_json) {
  return std::make_shared<const MergePatch>(std::move(merge_patch_json));
}

}  // namespace gpusched::io
