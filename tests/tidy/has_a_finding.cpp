// Not built: tools/tidy must report the class named against the project's naming rule below
// (catches-a-finding runs it on this file alone).
namespace moq {

class lower_case_class {};

}  // namespace moq
