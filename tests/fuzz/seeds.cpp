// Writes the fuzz targets' seed corpora: `fuzz_seeds DIR` makes DIR/wire_lite and DIR/wire_ietf,
// one file per sample encoding of the wire tests, with the leading bytes each target reads (a
// version, a decoder). Generated rather than committed, so the seeds follow the codecs.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/wire_ietf/decoder_checks.h"
#include "tests/wire_lite/codecs.h"

namespace {

using Bytes = std::vector<uint8_t>;

class SeedDir {
 public:
  explicit SeedDir(std::filesystem::path dir) : dir_(std::move(dir)) {
    std::filesystem::create_directories(dir_);
  }
  void add(uint8_t version, uint8_t decoder, const Bytes& body) {
    Bytes b = {version, decoder};
    b.insert(b.end(), body.begin(), body.end());
    std::ofstream(dir_ / ("seed-" + std::to_string(count_++)), std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  }
  size_t count() const { return count_; }

 private:
  std::filesystem::path dir_;
  size_t count_ = 0;
};

size_t write_lite(const std::filesystem::path& dir) {
  namespace lite = moq::wire::lite::test;
  SeedDir out(dir);
  const std::vector<lite::Codec> codecs = lite::all_codecs();
  for (size_t v = 0; v < std::size(lite::kVersions); ++v)
    for (size_t c = 0; c < codecs.size(); ++c)
      for (const lite::Buf& s : codecs[c].seeds(lite::kVersions[v]))
        out.add(static_cast<uint8_t>(v), static_cast<uint8_t>(c), s);
  return out.count();
}

size_t write_ietf(const std::filesystem::path& dir) {
  namespace ietf = moq::wire::ietf::test;
  SeedDir out(dir);
  for (size_t v = 0; v < std::size(ietf::kVersions); ++v) {
    const moq::wire::ietf::IetfVersion version = ietf::kVersions[v];
    const uint8_t vb = static_cast<uint8_t>(v);
    for (const moq::wire::ietf::ControlMessage& m : ietf::sample_messages(version))
      out.add(vb, 0, ietf::encode(m, version));
    for (const Bytes& s : ietf::subgroup_seeds())
      out.add(vb, 1, s);
    for (const Bytes& s : ietf::fetch_seeds(version)) {
      out.add(vb, 2, s);
      out.add(vb, 3, s);
    }
    for (const Bytes& s : ietf::datagram_seeds())
      out.add(vb, 4, s);
  }
  return out.count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seeds DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const size_t lite = write_lite(dir / "wire_lite");
  const size_t ietf = write_ietf(dir / "wire_ietf");
  std::printf("fuzz_seeds: %zu wire_lite and %zu wire_ietf seeds in %s\n", lite, ietf, argv[1]);
  return 0;
}
