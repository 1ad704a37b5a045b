#include "kueue/pod_role_hash.hpp"

#include <array>
#include <cstdint>
#include <map>

#include "kueue/sha_blocks.hpp"

namespace gpusched::kueue {

namespace {

constexpr std::uint32_t rotr(std::uint32_t x, int n) {
  return (x >> n) | (x << (32 - n));
}

constexpr std::array<std::uint32_t, 64> kRound = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u};

/// encoding/json's string: quotes, backslashes and control characters escaped, and the HTML
/// characters <, >, & as \u003c, \u003e, \u0026 (json.Marshal escapes HTML).
void append_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      out += "\\u00";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    } else if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(s[i + 2]) == 0xa8 ||
                static_cast<unsigned char>(s[i + 2]) == 0xa9)) {
      // U+2028 and U+2029.
      out += static_cast<unsigned char>(s[i + 2]) == 0xa8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
}

/// A ResourceList: null when nil (the API decodes an absent map as nil), else its quantities in
/// canonical form by name.
void append_resources(std::string& out, const ResourceList& list) {
  if (list.empty()) {
    out += "null";
    return;
  }
  out.push_back('{');
  bool first = true;
  for (const auto& [name, quantity] : list) {
    if (!first) out.push_back(',');
    first = false;
    append_string(out, name);
    out.push_back(':');
    append_string(out, quantity.to_string());
  }
  out.push_back('}');
}

/// ContainersShape: per container {"ports": ..., "resources": {"requests": ...}}.
void append_containers(std::string& out, const std::vector<Container>& containers) {
  if (containers.empty()) {
    out += "null";
    return;
  }
  out.push_back('[');
  for (std::size_t i = 0; i < containers.size(); ++i) {
    if (i > 0) out.push_back(',');
    const Container& c = containers[i];
    out += "{\"ports\":";
    if (c.ports.empty()) {
      out += "null";
    } else {
      out.push_back('[');
      for (std::size_t p = 0; p < c.ports.size(); ++p) {
        if (p > 0) out.push_back(',');
        // v1.ContainerPort's fields in declaration order, the omitempty ones left out when empty.
        const ContainerPort& port = c.ports[p];
        out.push_back('{');
        if (!port.name.empty()) {
          out += "\"name\":";
          append_string(out, port.name);
          out.push_back(',');
        }
        if (port.host_port != 0) out += "\"hostPort\":" + std::to_string(port.host_port) + ",";
        out += "\"containerPort\":" + std::to_string(port.container_port);
        if (!port.protocol.empty()) {
          out += ",\"protocol\":";
          append_string(out, port.protocol);
        }
        if (!port.host_ip.empty()) {
          out += ",\"hostIP\":";
          append_string(out, port.host_ip);
        }
        out.push_back('}');
      }
      out.push_back(']');
    }
    out += ",\"resources\":{\"requests\":";
    append_resources(out, c.requests);
    out += "}}";
  }
  out.push_back(']');
}

}  // namespace

std::string sha256_hex(std::string_view data) {
  std::array<std::uint32_t, 8> h{0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  const std::string msg = sha_padded(data);
  for (std::size_t chunk = 0; chunk < msg.size(); chunk += 64) {
    std::array<std::uint32_t, 64> w{};
    sha_load_block(msg, chunk, w);
    for (int i = 16; i < 64; ++i) {
      const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::array<std::uint32_t, 8> v = h;
    for (int i = 0; i < 64; ++i) {
      const std::uint32_t s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
      const std::uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
      const std::uint32_t t1 = v[7] + s1 + ch + kRound[i] + w[i];
      const std::uint32_t s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
      const std::uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      const std::uint32_t t2 = s0 + maj;
      v[7] = v[6];
      v[6] = v[5];
      v[5] = v[4];
      v[4] = v[3] + t1;
      v[3] = v[2];
      v[2] = v[1];
      v[1] = v[0];
      v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; ++i) h[i] += v[i];
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint32_t x : h) {
    for (int i = 28; i >= 0; i -= 4) out.push_back(kHex[(x >> i) & 0xf]);
  }
  return out;
}

RoleHash role_hash(const PodSpec& spec) {
  RoleHash out;
  // json.Marshal sorts a map's keys: SpecShape's in byte order.
  std::string json = "{\"spec\":{\"affinity\":";
  if (!(*spec.affinity == Affinity{})) {
    out.exact = false;
    json += "{}";
  } else {
    json += "null";
  }
  json += ",\"containers\":";
  append_containers(json, *spec.containers);
  json += ",\"initContainers\":";
  append_containers(json, *spec.init_containers);
  json += ",\"nodeSelector\":";
  if (spec.node_selector.empty()) {
    json += "null";
  } else {
    json.push_back('{');
    bool first = true;
    for (const auto& [key, value] : spec.node_selector) {
      if (!first) json.push_back(',');
      first = false;
      append_string(json, key);
      json.push_back(':');
      append_string(json, value);
    }
    json.push_back('}');
  }
  json += ",\"overhead\":";
  if (!spec.overhead.empty()) out.exact = false;
  append_resources(json, spec.overhead);
  json += ",\"priority\":";
  json += spec.priority ? std::to_string(*spec.priority) : "null";
  json += ",\"resourceClaims\":null";
  if (!spec.resource_claims.empty()) out.exact = false;
  if (spec.resources) {
    // Pod-level requests join the shape only when spec.resources is set.
    json += ",\"resources\":";
    append_resources(json, spec.resources->requests);
    out.exact = false;
  }
  json += ",\"runtimeClassName\":null,\"tolerations\":";
  if (spec.tolerations->empty()) {
    json += "null";
  } else {
    json.push_back('[');
    bool first = true;
    for (const Toleration& t : *spec.tolerations) {
      if (!first) json.push_back(',');
      first = false;
      // v1.Toleration's fields in declaration order, all omitempty. An Equal operator may have
      // been written or left out (its default): the JSON differs, so the hash may.
      std::string fields;
      const auto field = [&fields](std::string_view name, std::string_view value) {
        if (value.empty()) return;
        if (!fields.empty()) fields.push_back(',');
        append_string(fields, name);
        fields.push_back(':');
        append_string(fields, value);
      };
      field("key", t.key);
      if (t.op == TolerationOperator::Exists) {
        field("operator", "Exists");
      } else {
        field("operator", "Equal");
        out.exact = false;
      }
      field("value", t.value);
      if (t.effect) field("effect", to_string(*t.effect));
      if (t.toleration_seconds) {
        if (!fields.empty()) fields.push_back(',');
        fields += "\"tolerationSeconds\":" + std::to_string(*t.toleration_seconds);
      }
      json += "{" + fields + "}";
    }
    json.push_back(']');
  }
  json += ",\"topologySpreadConstraints\":";
  if (spec.topology_spread_constraints->empty()) {
    json += "null";
  } else {
    json += "[]";
    out.exact = false;
  }
  json += "}}";
  out.hash = sha256_hex(json).substr(0, 8);
  return out;
}

}  // namespace gpusched::kueue
