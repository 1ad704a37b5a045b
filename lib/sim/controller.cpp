#include "sim/controller.hpp"

namespace gpusched::sim {

Pod Controller::controlled_pod(const PodTemplateSpec& tmpl, const ObjectMeta& owner,
                               const Shared<std::vector<OwnerReference>>& owned_by) {
  return controlled_pod(tmpl, owner, owned_by, context_.api().generate_pod_name(owner));
}

Pod Controller::controlled_pod(const PodTemplateSpec& tmpl, const ObjectMeta& owner,
                               const Shared<std::vector<OwnerReference>>& owned_by,
                               std::string name) {
  Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = owner.namespace_;
  pod.metadata.labels = tmpl.metadata.labels;
  pod.metadata.annotations = tmpl.metadata.annotations;
  pod.metadata.owner_references = owned_by;
  pod.spec = tmpl.spec;
  return pod;
}

Shared<std::vector<OwnerReference>> Controller::controller_reference(const ObjectMeta& owner,
                                                                     std::string_view kind) {
  return std::vector<OwnerReference>{
      OwnerReference{std::string(kind), owner.name, owner.uid, true}};
}

bool Controller::active(const PodInfo& pod) {
  return !pod.pod.metadata.deletion_ms && !pod.pod.terminated();
}

void Controller::sync_at(const std::string& key, TimeMs at) {
  EventQueue& clock = context_.clock();
  const std::string_view own_kind = kind();
  if (const EventQueue::Entry* queued =
          clock.find<ControllerSync>([&](TimeMs, const ControllerSync& s) {
            return s.controller == own_kind && s.key == key;
          })) {
    if (queued->time <= at) return;
    clock.erase(queued);
  }
  clock.push(at, ControllerSync{std::string(own_kind), key});
}

Controller* ControllerManager::find(std::string_view kind) const {
  for (const auto& c : controllers_) {
    if (c->kind() == kind) return c.get();
  }
  return nullptr;
}

void ControllerManager::sync(std::string_view kind, const std::string& key) {
  if (Controller* controller = find(kind)) controller->sync(key);
}

void ControllerManager::sync_all() {
  for (const auto& c : controllers_) c->sync_all();
}

void ControllerManager::node_changed() {
  for (const auto& c : controllers_) c->node_changed();
}

void ControllerManager::pod_started(const PodInfo& pod) {
  for (const auto& c : controllers_) c->pod_started(pod);
}

}  // namespace gpusched::sim
