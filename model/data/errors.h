// Error codes the data model produces (Error::code). Sessions map them to wire codes; a reason
// given by a caller (abort, reject) keeps the caller's code.
#pragma once

#include <cstdint>

namespace moq::data_error {

constexpr uint64_t kProducerDropped = 0x2001;  // a producer handle was dropped before finishing
constexpr uint64_t kCancelled = 0x2002;        // a request lost all its consumers before an answer
constexpr uint64_t kNotFound = 0x2003;         // no such track or broadcast
constexpr uint64_t kDuplicate = 0x2004;        // the group sequence, track name or path is taken
constexpr uint64_t kClosed = 0x2005;           // the object was finished, aborted or closed
constexpr uint64_t kTooLarge = 0x2006;         // a write would exceed a size limit
constexpr uint64_t kInvalid = 0x2007;          // an argument out of range (empty path, ...)
constexpr uint64_t kRequestDropped = 0x2008;   // a track request handle dropped unanswered

}  // namespace moq::data_error
