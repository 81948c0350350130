// Where an --out or --html path really writes: standard output for "-", the file at the end of a
// symlink chain (replaced atomically in its own directory, so the link stays), or, for a path
// that exists and is not a regular file (a FIFO, a character device, a socket), that node itself,
// opened and written in place and never replaced, renamed over or removed.
#pragma once

#include <string>

#include "reports/schema/status.h"

namespace moq::results {

enum class OutputKind {
  kStdout,   // "-"
  kRegular,  // a regular file, or a name not yet taken in an existing directory
  kInPlace,  // an existing node that is not a regular file: written once, where it is
};

struct OutputTarget {
  OutputKind kind = OutputKind::kRegular;
  std::string given;   // the path as the user wrote it, for messages
  std::string target;  // kRegular / kInPlace: the path after following every symlink
};

// Resolves path. A missing directory, a directory, a symlink loop or a dangling chain into a
// missing directory is an error naming the path.
Result<OutputTarget> resolve_output(const std::string& path);

// Writes text to the target. kRegular: to "<target>.tmp" beside the target, fsync'd, then renamed
// over it, so a reader sees the old file or the new one. kInPlace: opened for writing without
// creating or truncating and written once; opening a FIFO blocks until a reader opens it (a
// reader is what a FIFO is for). kStdout: written to file descriptor 1.
Status write_output(const OutputTarget& out, const std::string& text);

}  // namespace moq::results
