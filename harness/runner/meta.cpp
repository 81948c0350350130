#include "harness/runner/meta.h"

#include <elf.h>
#include <link.h>
#include <sys/utsname.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "harness/runner/build_info.h"

namespace moq::harness {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) return line.substr(start);
  }
  struct utsname u;
  if (uname(&u) == 0) return std::string("unknown ") + u.machine + " CPU";
  return "unknown CPU";
}

std::string kernel_name() {
  struct utsname u;
  if (uname(&u) != 0) return "unknown kernel";
  return std::string(u.sysname) + " " + u.release;
}

std::optional<std::string> executable_path() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return std::nullopt;
  return exe.string();
}

namespace {

// dl_iterate_phdr visits the executable first; its notes hold the build id.
int find_build_id(struct dl_phdr_info* info, size_t, void* out) {
  auto* id = static_cast<std::optional<std::string>*>(out);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    // The loader gives the segment as an address; there is no pointer to derive it from.
    const char* at = reinterpret_cast<const char*>(  // NOLINT(performance-no-int-to-ptr)
        info->dlpi_addr + ph.p_vaddr);
    const char* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const char* name = at + sizeof note;
      const char* desc = name + ((note.n_namesz + 3) & ~3u);
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0 && desc + note.n_descsz <= end) {
        static constexpr char kHex[] = "0123456789abcdef";
        std::string hex;
        for (ElfW(Word) b = 0; b < note.n_descsz; ++b) {
          const auto byte = static_cast<unsigned char>(desc[b]);
          hex += kHex[byte >> 4];
          hex += kHex[byte & 15];
        }
        *id = std::move(hex);
        return 1;
      }
      at = desc + ((note.n_descsz + 3) & ~3u);
    }
  }
  return 1;  // only the executable, the first object visited
}

}  // namespace

std::optional<std::string> executable_build_id() {
  std::optional<std::string> id;
  dl_iterate_phdr(find_build_id, &id);
  return id;
}

results::Meta make_meta(results::CounterBackend backend, const std::string& event,
                        std::optional<int> pinned_cpu, std::vector<std::string> command_line) {
  const BuildInfo& build = build_info();
  results::Meta meta;
  meta.tool_version = build.tool_version;
  if (build.git_commit[0] != '\0') meta.git_commit = build.git_commit;
  meta.git_dirty = build.git_dirty;
  meta.compiler = build.compiler;
  meta.compiler_flags = build.compiler_flags;
  meta.build_type = build.build_type;
  meta.cpu_model = cpu_model();
  meta.kernel = kernel_name();
  meta.counter_backend = backend;
  if (backend != results::CounterBackend::kNone) meta.counter_event = event;
  if (pinned_cpu && *pinned_cpu >= 0) meta.pinned_cpu = static_cast<uint32_t>(*pinned_cpu);
  meta.command_line = std::move(command_line);
  meta.start_time = results::iso8601_utc(static_cast<int64_t>(std::time(nullptr)));
  meta.executable = executable_path();
  meta.build_id = executable_build_id();
  return meta;
}

}  // namespace moq::harness
