#include "model/wire/ietf/field_error.h"

namespace moq::wire::ietf {

Error make_error(const char* message, const char* field, const std::string& why, uint64_t code) {
  return Error{code, std::string(message) + ": field '" + field + "': " + why};
}

}  // namespace moq::wire::ietf
