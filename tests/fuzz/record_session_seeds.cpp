// `fuzz_session_seeds DIR` records the session fuzz target's seed corpus
// (tests/fuzz/session_seeds.h) into DIR, one file per seed. The committed corpus is
// tests/fuzz/corpus/session; record it again with: build/dev/tests/fuzz/fuzz_session_seeds
// tests/fuzz/corpus/session
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/fuzz/session_seeds.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_session_seeds DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const std::vector<moq::fuzz::SessionSeed> seeds = moq::fuzz::record_session_seeds();
  for (const moq::fuzz::SessionSeed& s : seeds)
    std::ofstream(dir / s.name, std::ios::binary)
        .write(reinterpret_cast<const char*>(s.script.data()),
               static_cast<std::streamsize>(s.script.size()));
  std::printf("fuzz_session_seeds: %zu session seeds in %s\n", seeds.size(), argv[1]);
  return 0;
}
