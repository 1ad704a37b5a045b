#include "io/timeline_json.hpp"

#include <array>
#include <string_view>

#include "io/input_text.hpp"
#include "io/kueue_json.hpp"
#include "io/merge_patch.hpp"
#include "io/object_json.hpp"
#include "io/time_json.hpp"

namespace gpusched::io {
namespace {

constexpr std::array<std::pair<std::string_view, Verb>, 7> kVerbs = {
    {{"apply", Verb::Apply},
     {"delete", Verb::Delete},
     {"patch", Verb::Patch},
     {"cordon", Verb::Cordon},
     {"uncordon", Verb::Uncordon},
     {"scale", Verb::Scale},
     {"gpuHealth", Verb::GpuHealth}}};

/// `{"kind", "namespace"?, "name"}`; the namespace defaults to "default" for namespaced kinds.
ObjectRef parse_ref(const JsonNode& node) {
  ObjectRef ref;
  JsonNode kind = node.required("kind");
  ref.kind = kind.string();
  if (!is_known_kind(ref.kind) && !is_kueue_kind(ref.kind)) {
    kind.fail("unknown kind \"" + ref.kind + "\" (known kinds: " + known_kinds() + ")");
  }
  ref.name = node.required("name").string();
  if (ref.name.empty()) node.required("name").fail("name must not be empty");
  if (is_namespaced(ref.kind)) {
    ref.namespace_ = "default";
    if (auto ns = node.get("namespace")) ref.namespace_ = ns->string();
  } else if (auto ns = node.get("namespace")) {
    ns->fail("a " + ref.kind + " has no namespace");
  }
  return ref;
}

Action parse_action(const JsonNode& node, KindFilter& kinds) {
  node.reject_unknown_keys(
      {"at", "apply", "delete", "patch", "cordon", "uncordon", "scale", "gpuHealth"});
  Action action;
  action.pointer = node.pointer();
  action.line = node.source().line_of(node.pointer());
  action.at = parse_time(node.required("at"));
  std::optional<JsonNode> body;
  std::string_view verb_name;
  for (const auto& [name, verb] : kVerbs) {
    std::optional<JsonNode> candidate = node.get(name);
    if (!candidate) continue;
    if (body) {
      candidate->fail("an action has exactly one verb, got \"" + std::string(verb_name) +
                      "\" and \"" + std::string(name) + "\"");
    }
    body = candidate;
    verb_name = name;
    action.verb = verb;
  }
  if (!body) {
    node.fail(
        "an action needs one verb: apply, delete, patch, cordon, uncordon, scale or gpuHealth");
  }
  switch (action.verb) {
    case Verb::Apply: {
      // An object, a `kind: List`, or an array of either. Room for one object an entry, the
      // usual count, is made first: a pod moved at every growth of a 10,000-pod array was a
      // tenth of the time such an action took to read.
      const std::vector<JsonNode> entries =
          body->json().is_array() ? body->elements() : std::vector<JsonNode>{*body};
      action.objects.reserve(entries.size());
      for (const JsonNode& entry : entries) {
        for (const JsonNode& item : kinds.kept(objects_of(entry))) {
          action.objects.push_back(parse_object(item));
        }
      }
      break;
    }
    case Verb::Delete:
      body->reject_unknown_keys({"kind", "namespace", "name", "gracePeriodSeconds"});
      action.target = parse_ref(*body);
      if (auto grace = body->get("gracePeriodSeconds")) {
        action.grace_period_seconds = grace->integer();
        if (*action.grace_period_seconds < 0) grace->fail("must be greater than or equal to 0");
      }
      break;
    case Verb::Patch: {
      body->reject_unknown_keys({"kind", "namespace", "name", "merge"});
      action.target = parse_ref(*body);
      action.patch = merge_patch(body->required("merge").object().dump());
      break;
    }
    case Verb::Cordon:
    case Verb::Uncordon:
      action.target = ObjectRef{"Node", "", body->string()};
      if (action.target.name.empty()) body->fail("node name must not be empty");
      break;
    case Verb::Scale: {
      body->reject_unknown_keys({"kind", "namespace", "name", "replicas"});
      action.target = parse_ref(*body);
      if (action.target.kind != "Deployment" && action.target.kind != "ReplicaSet" &&
          action.target.kind != "StatefulSet") {
        body->required("kind").fail(
            "scale applies to a Deployment, a ReplicaSet or a StatefulSet, not a " +
            action.target.kind);
      }
      action.replicas =
          static_cast<std::int32_t>(body->required("replicas").integer_in(0, 1'000'000));
      break;
    }
    case Verb::GpuHealth: {
      // scenario-format.md §3: {"node": "h1", "gpu": 3, "healthy": false}.
      body->reject_unknown_keys({"node", "gpu", "healthy"});
      action.target = ObjectRef{"Node", "", body->required("node").string()};
      if (action.target.name.empty()) body->required("node").fail("node name must not be empty");
      action.gpu = static_cast<int>(body->required("gpu").integer_in(0, 1023));
      action.healthy = body->required("healthy").boolean();
      break;
    }
  }
  return action;
}

nlohmann::ordered_json ref_json(const ObjectRef& ref) {
  nlohmann::ordered_json out = {{"kind", ref.kind}};
  if (!ref.namespace_.empty()) out["namespace"] = ref.namespace_;
  out["name"] = ref.name;
  return out;
}

}  // namespace

std::vector<Action> parse_timeline(const JsonNode& node, KindFilter& kinds) {
  std::vector<JsonNode> items = node.elements();
  if (items.size() > kMaxTimelineActions) {
    node.fail("timeline has " + std::to_string(items.size()) + " actions; the limit is " +
              std::to_string(kMaxTimelineActions));
  }
  std::vector<Action> timeline;
  timeline.reserve(items.size());
  for (const JsonNode& item : items) {
    Action action = parse_action(item, kinds);
    if (!timeline.empty() && action.at < timeline.back().at) {
      item.required("at").fail("timeline is not in time order: " + format_duration(action.at) +
                               " after " + format_duration(timeline.back().at));
    }
    timeline.push_back(std::move(action));
  }
  return timeline;
}

nlohmann::ordered_json action_json(const Action& action) {
  using ordered = nlohmann::ordered_json;
  ordered out = {{"at", format_duration(action.at)}};
  switch (action.verb) {
    case Verb::Apply: {
      ordered objects = ordered::array();
      for (const Object& object : action.objects) {
        objects.push_back(ordered::parse(to_json(object).dump()));
      }
      out["apply"] = objects.size() == 1 ? objects[0] : objects;
      break;
    }
    case Verb::Delete:
      out["delete"] = ref_json(action.target);
      if (action.grace_period_seconds) {
        out["delete"]["gracePeriodSeconds"] = *action.grace_period_seconds;
      }
      break;
    case Verb::Patch:
      out["patch"] = ref_json(action.target);
      out["patch"]["merge"] = ordered::parse(action.patch->merge_patch());
      break;
    case Verb::Cordon:
      out["cordon"] = action.target.name;
      break;
    case Verb::Uncordon:
      out["uncordon"] = action.target.name;
      break;
    case Verb::Scale:
      out["scale"] = ref_json(action.target);
      out["scale"]["replicas"] = action.replicas;
      break;
    case Verb::GpuHealth:
      out["gpuHealth"] = {
          {"node", action.target.name}, {"gpu", action.gpu}, {"healthy", action.healthy}};
      break;
  }
  return out;
}

}  // namespace gpusched::io
