#include "model/names.hpp"

#include <string>

namespace gpusched {
namespace {

// utilrand's alphanums: no vowels, no confusable characters.
constexpr std::string_view kAlphanums = "bcdfghjklmnpqrstvwxz2456789";

std::uint32_t fnv32a(std::string_view data) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : data) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

void append_list(std::string& out, const ResourceList& list) {
  for (const auto& [k, v] : list) out += k + "=" + v.to_string() + ",";
  out += ";";
}

void append_labels(std::string& out, const Labels& labels) {
  for (const auto& [k, v] : labels) out += k + "=" + v + ",";
  out += ";";
}

std::string canonical(const PodTemplateSpec& t) {
  std::string out;
  append_labels(out, t.metadata.labels);
  append_labels(out, t.metadata.annotations);
  for (const auto* list : {&t.spec.init_containers, &t.spec.containers}) {
    for (const Container& c : *list) {
      out += c.name + "|" + c.restart_policy + "|";
      append_list(out, c.requests);
      append_list(out, c.limits);
      for (const ContainerPort& p : c.ports) {
        out += std::to_string(p.container_port) + ":" + std::to_string(p.host_port) + "/" +
               p.protocol + "@" + p.host_ip + ",";
      }
      out += ";";
    }
    out += "#";
  }
  append_list(out, t.spec.overhead);
  append_labels(out, t.spec.node_selector);
  for (const Toleration& tol : t.spec.tolerations) {
    out += tol.key + (tol.op == TolerationOperator::Exists ? "~" : "=") + tol.value + ":" +
           (tol.effect ? std::string(to_string(*tol.effect)) : "") + ",";
  }
  out += "|" + t.spec.priority_class_name + "|" + std::to_string(t.spec.priority.value_or(0)) +
         "|" + t.spec.scheduler_name + "|" + t.spec.restart_policy + "|" +
         std::to_string(t.spec.termination_grace_period_seconds);
  if (const auto& na = t.spec.affinity->node_affinity) {
    auto term = [&](const NodeSelectorTerm& selector) {
      for (const auto* reqs : {&selector.match_expressions, &selector.match_fields}) {
        for (const auto& r : *reqs) {
          out += r.key + "/" + std::to_string(static_cast<int>(r.op));
          for (const auto& v : r.values) out += "," + v;
          out += ";";
        }
        out += "&";
      }
    };
    if (na->required) {
      for (const auto& t2 : *na->required) term(t2);
    }
    out += "|";
    for (const auto& p : na->preferred) {
      out += std::to_string(p.weight) + ":";
      term(p.preference);
    }
  }
  return out;
}

}  // namespace

std::string pod_template_hash(const PodTemplateSpec& spec) {
  // rand.SafeEncodeString(fmt.Sprint(hash)): each decimal digit mapped into the alphabet.
  const std::string digits = std::to_string(fnv32a(canonical(spec)));
  std::string out;
  for (char d : digits) out += kAlphanums[static_cast<std::size_t>(d) % kAlphanums.size()];
  return out;
}

std::string generated_suffix(std::string_view owner, std::uint64_t counter) {
  std::uint32_t h = fnv32a(std::string(owner) + "#" + std::to_string(counter));
  std::string out;
  for (int i = 0; i < 5; ++i) {
    out += kAlphanums[h % kAlphanums.size()];
    h /= static_cast<std::uint32_t>(kAlphanums.size());
    h ^= fnv32a(out);  // keep the later characters as varied as the first
  }
  return out;
}

}  // namespace gpusched
