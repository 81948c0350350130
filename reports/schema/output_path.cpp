#include "reports/schema/output_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace moq::results {
namespace {

namespace fs = std::filesystem;

// The kernel's own limit on links followed in one lookup (MAXSYMLINKS): a longer chain is a loop.
constexpr int kMaxSymlinkHops = 40;

Error io_error(const std::string& what, const std::string& path, int err) {
  return Error{what + " " + path + ": " + std::strerror(err)};
}

Status write_all(int fd, const std::string& text, const std::string& path) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot write", path, errno);
    }
    done += static_cast<size_t>(n);
  }
  return {};
}

Status replace_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return io_error("cannot create", tmp, errno);
  Status written = write_all(fd, text, tmp);
  if (written.ok() && ::fsync(fd) != 0) written = io_error("cannot flush", tmp, errno);
  if (::close(fd) != 0 && written.ok()) written = io_error("cannot close", tmp, errno);
  if (written.ok() && std::rename(tmp.c_str(), path.c_str()) != 0)
    written = io_error("cannot rename " + tmp + " to", path, errno);
  if (!written.ok()) ::unlink(tmp.c_str());
  return written;
}

Status write_in_place(const std::string& path, const std::string& text) {
  // No O_CREAT (it exists and must stay what it is) and no O_TRUNC (meaningless on a FIFO or a
  // device, and never wanted there).
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return io_error("cannot open", path, errno);
  Status written = write_all(fd, text, path);
  if (::close(fd) != 0 && written.ok()) written = io_error("cannot close", path, errno);
  return written;
}

}  // namespace

Result<OutputTarget> resolve_output(const std::string& path) {
  OutputTarget out;
  out.given = path;
  if (path == "-") {
    out.kind = OutputKind::kStdout;
    return out;
  }
  if (path.empty()) return Error{"an empty output path (give a file name, or - for stdout)"};
  fs::path at = path;
  for (int hop = 0;; ++hop) {
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0) {
      if (errno != ENOENT) return io_error("cannot inspect", at.string(), errno);
      const fs::path dir = at.has_parent_path() ? at.parent_path() : fs::path(".");
      std::error_code ec;
      if (!fs::is_directory(dir, ec)) {
        std::string msg = "the directory " + dir.string() + " does not exist";
        if (at.string() != path) msg += " (" + path + " links to " + at.string() + ")";
        return Error{msg};
      }
      out.kind = OutputKind::kRegular;
      break;
    }
    if (S_ISLNK(st.st_mode)) {
      if (hop == kMaxSymlinkHops) return Error{path + ": too many levels of symbolic links"};
      std::error_code ec;
      const fs::path next = fs::read_symlink(at, ec);
      if (ec) return Error{"cannot read the link " + at.string() + ": " + ec.message()};
      // A relative link target is relative to the directory holding the link.
      at = next.is_absolute() ? next : at.parent_path() / next;
      continue;
    }
    if (S_ISDIR(st.st_mode)) return Error{path + ": is a directory (name a file in it)"};
    out.kind = S_ISREG(st.st_mode) ? OutputKind::kRegular : OutputKind::kInPlace;
    break;
  }
  out.target = at.string();
  return out;
}

Status write_output(const OutputTarget& out, const std::string& text) {
  switch (out.kind) {
    case OutputKind::kStdout: {
      // Whatever the streams still hold goes first, so the document is not cut into.
      std::cout.flush();
      std::fflush(stdout);
      return write_all(STDOUT_FILENO, text, "standard output");
    }
    case OutputKind::kInPlace:
      return write_in_place(out.target, text);
    case OutputKind::kRegular:
      break;
  }
  return replace_atomically(out.target, text);
}

}  // namespace moq::results
