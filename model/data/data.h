// The data model in one include: Origin -> Broadcast -> Track -> Group -> Frame.
// See model/data/README.md for the objects, handles, ownership and wake rules.
#pragma once

#include "model/data/broadcast.h"
#include "model/data/errors.h"
#include "model/data/frame.h"
#include "model/data/group.h"
#include "model/data/origin.h"
#include "model/data/preferences.h"
#include "model/data/track.h"
