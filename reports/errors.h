// The reports' error values are the results schema library's (reports/schema/status.h): the one
// library reports/ depends on.
#pragma once

#include "reports/schema/status.h"

namespace moq::reports {

using results::Error;
using results::Result;
using results::Status;

}  // namespace moq::reports
