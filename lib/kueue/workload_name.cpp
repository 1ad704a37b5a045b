#include "kueue/workload_name.hpp"

#include <array>
#include <cctype>
#include <cstdint>

#include "kueue/sha_blocks.hpp"

namespace gpusched::kueue {

namespace {

constexpr std::uint32_t rotl(std::uint32_t x, int n) {
  return (x << n) | (x >> (32 - n));
}

}  // namespace

std::string sha1_hex(std::string_view data) {
  std::array<std::uint32_t, 5> h{0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  const std::string msg = sha_padded(data);
  for (std::size_t chunk = 0; chunk < msg.size(); chunk += 64) {
    std::array<std::uint32_t, 80> w{};
    sha_load_block(msg, chunk, w);
    for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
      std::uint32_t f = 0;
      std::uint32_t k = 0;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5A827999u;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ED9EBA1u;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8F1BBCDCu;
      } else {
        f = b ^ c ^ d;
        k = 0xCA62C1D6u;
      }
      const std::uint32_t t = rotl(a, 5) + f + e + k + w[i];
      e = d;
      d = c;
      c = rotl(b, 30);
      b = a;
      a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint32_t v : h) {
    for (int i = 28; i >= 0; i -= 4) out.push_back(kHex[(v >> i) & 0xf]);
  }
  return out;
}

std::string workload_name_for_owner(std::string_view owner_name, std::string_view owner_uid,
                                    std::string_view kind, std::string_view group) {
  // maxPrefixLength: 253 - 1 - 5 (ShortWorkloadNames is off in Kueue 0.19).
  constexpr std::size_t kMaxPrefix = 253 - 1 - 5;
  std::string prefix;
  for (char c : kind)
    prefix.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  prefix += "-";
  prefix += owner_name;
  if (prefix.size() > kMaxPrefix) prefix.resize(kMaxPrefix);
  std::string hashed(kind);
  hashed += "\n";
  hashed += group;
  hashed += "\n";
  hashed += owner_name;
  hashed += "\n";
  hashed += owner_uid;
  return prefix + "-" + sha1_hex(hashed).substr(0, 5);
}

}  // namespace gpusched::kueue
