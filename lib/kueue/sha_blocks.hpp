#pragma once
// What SHA-1 and SHA-256 share (FIPS 180-4 §5.1.1, §5.2.1): the padded message and its 64-byte
// blocks read as big-endian 32-bit words.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpusched::kueue {

/// `data`, a 1 bit, zeros to 56 mod 64 bytes, then its length in bits, big-endian.
[[nodiscard]] inline std::string sha_padded(std::string_view data) {
  std::string msg(data);
  const std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
  msg.push_back(static_cast<char>(0x80));
  while (msg.size() % 64 != 56) msg.push_back('\0');
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bits >> (i * 8)) & 0xff));
  return msg;
}

/// The first 16 words of a message schedule: the block at `chunk`, big-endian.
template <std::size_t N>
void sha_load_block(const std::string& msg, std::size_t chunk, std::array<std::uint32_t, N>& w) {
  static_assert(N >= 16);
  for (std::size_t i = 0; i < 16; ++i) {
    const auto byte = [&](std::size_t k) {
      return static_cast<std::uint32_t>(static_cast<unsigned char>(msg[chunk + 4 * i + k]));
    };
    w[i] = (byte(0) << 24) | (byte(1) << 16) | (byte(2) << 8) | byte(3);
  }
}

}  // namespace gpusched::kueue
