// Everything moq-lite puts on the wire, for -06 and -07-wip. See README.md for the table.
// Control messages decode into owned values (std::string, std::vector): they are off the hot
// path. GROUP / FRAME / DATAGRAM headers are plain integers and never copy payload bytes.
#pragma once

#include "model/wire/lite/announce.h"
#include "model/wire/lite/auth.h"
#include "model/wire/lite/datagram.h"
#include "model/wire/lite/error_codes.h"
#include "model/wire/lite/fetch.h"
#include "model/wire/lite/goaway.h"
#include "model/wire/lite/group.h"
#include "model/wire/lite/limits.h"
#include "model/wire/lite/probe.h"
#include "model/wire/lite/setup.h"
#include "model/wire/lite/stream_type.h"
#include "model/wire/lite/subscribe.h"
#include "model/wire/lite/track.h"
#include "model/wire/lite/version.h"
