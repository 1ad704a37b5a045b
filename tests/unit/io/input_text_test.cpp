// Text in the wrong encoding is named, with what to do about it, where the parsers would call it
// binary data.
#include "io/input_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include "gpusched/error.hpp"
#include "support/temp_dir.hpp"

namespace gpusched {
namespace {

using namespace std::string_literals;

TEST_CASE("UTF-16 and UTF-32 input is refused with a hint to re-save it as UTF-8", "[io]") {
  struct Row {
    const char* name;
    std::string text;
    const char* encoding;
  };
  const std::vector<Row> rows = {
      {"UTF-16LE with a byte-order mark", "\xff\xfe{\0\"\0"s, "UTF-16"},
      {"UTF-16BE with a byte-order mark", "\xfe\xff\0{\0\""s, "UTF-16"},
      {"UTF-16LE without one", "n\0a\0m\0e\0"s, "UTF-16"},
      {"UTF-16BE without one", "\0n\0a\0m\0e"s, "UTF-16"},
      {"UTF-32LE", "\xff\xfe\0\0{\0\0\0"s, "UTF-32"},
  };
  for (const Row& row : rows) {
    for (const char* file : {"s.json", "s.yaml"}) {
      INFO(row.name << " in " << file);
      try {
        const io::ParsedText parsed(file, row.text);
        FAIL("parsed");
      } catch (const InputError& e) {
        CHECK(e.file() == file);
        CHECK(e.line() == 1);
        CHECK(e.reason() == "the file is "s + row.encoding +
                                " text; gpusched reads UTF-8: re-save it as UTF-8 (for example "
                                "`iconv -f " +
                                row.encoding + " -t UTF-8`)");
      }
    }
  }
}

TEST_CASE("UTF-8, with or without a byte-order mark, reads as before", "[io]") {
  for (const std::string& text : {R"({"name": "x"})"s, "\xef\xbb\xbf{\"name\": \"x\"}"s}) {
    const io::ParsedText parsed("s.json", text);
    CHECK(parsed.root().json().at("name") == "x");
  }
}

/// The reason read_input_file gives for `path`, or "" when it reads it.
std::string refusal(const std::string& path) {
  try {
    (void)io::read_input_file(path, path);
    return "";
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    return e.reason();
  }
}

// Issue 19: the size limit was checked on the file's size, which a device or a pipe does not
// have, so /dev/zero was read until memory ran out.
TEST_CASE("a device is read up to the size limit, then refused", "[io][limits]") {
  CHECK(refusal("/dev/zero") == "file is larger than the limit of 256 MiB");
  CHECK(refusal("/dev/null") == "");
}

TEST_CASE("a pipe is read whole, and refused once it passes the size limit", "[io][limits]") {
  const test::TempDir dir;
  const std::string fifo = dir.at("fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // A writer that ends: its text is read as a file's.
  std::thread writer([&] {
    const int fd = open(fifo.c_str(), O_WRONLY);
    const std::string text = R"({"name": "from a pipe"})";
    CHECK(write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    close(fd);
  });
  CHECK(io::read_input_file(fifo, fifo) == R"({"name": "from a pipe"})");
  writer.join();
  // A writer that never ends (`yes > fifo`): the reader stops at the limit and closes the pipe,
  // which ends the writer with EPIPE (SIGPIPE ignored meanwhile).
  const auto previous = std::signal(SIGPIPE, SIG_IGN);
  std::thread endless([&] {
    const int fd = open(fifo.c_str(), O_WRONLY);
    const std::string chunk(1 << 16, 'y');
    while (write(fd, chunk.data(), chunk.size()) > 0) {
    }
    close(fd);
  });
  CHECK(refusal(fifo) == "file is larger than the limit of 256 MiB");
  endless.join();
  std::signal(SIGPIPE, previous);
}

}  // namespace
}  // namespace gpusched
