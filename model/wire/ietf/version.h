// The two moq-transport drafts this codec speaks (draft-ietf-moq-transport-18 and -22), and one
// predicate per wire or behaviour difference between them: "8.N" below is difference N, the row
// N of the Predicates table in model/wire/ietf/README.md. Codecs and sessions branch on these
// predicates, never on the version enum directly, so each difference has one name. Each
// predicate is an exhaustive switch: a new IetfVersion does not compile until every predicate
// says what it does.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "model/base/unreachable.h"
#include "model/base/varint.h"
#include "model/wire/version.h"

namespace moq::wire::ietf {

enum class IetfVersion : uint8_t { Draft18, Draft22 };

// Every moq-transport field from draft-17 on uses the leading-ones varint
// (draft-ietf-moq-transport, variable-length integers).
inline constexpr VarintForm kVarint = VarintForm::LeadingOnes;

// The registry entry of a draft (model/wire/version.h), and the other way round.
constexpr Version registry_version(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return Version::Transport18;
    case IetfVersion::Draft22:
      return Version::Transport22;
  }
  unreachable();
}
// nullopt for a version of the other family.
constexpr std::optional<IetfVersion> ietf_version(Version v) {
  switch (v) {
    case Version::Transport18:
      return IetfVersion::Draft18;
    case Version::Transport22:
      return IetfVersion::Draft22;
    case Version::Lite06:
    case Version::Lite07Wip:
      return std::nullopt;
  }
  unreachable();
}

// 8.1: the version is chosen only by ALPN ("moqt-" plus the draft number).
constexpr std::string_view alpn(IetfVersion v) {
  return version_alpn(registry_version(v));
}
constexpr std::optional<IetfVersion> version_from_alpn(std::string_view alpn) {
  const std::optional<Version> v = moq::version_from_alpn(alpn);
  return v ? ietf_version(*v) : std::nullopt;
}
// Internal identifiers only (0xff0000NN no longer goes on the wire): 0xff000012 / 0xff000016.
constexpr uint32_t version_id(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return 0xff000012u;
    case IetfVersion::Draft22:
      return 0xff000016u;
  }
  unreachable();
}
constexpr const char* version_name(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return "draft-18";
    case IetfVersion::Draft22:
      return "draft-22";
  }
  unreachable();
}

// 8.2: GOAWAY ends with a Request ID (control stream only) in -18; -19 removed it.
constexpr bool goaway_has_request_id(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return true;
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 8.3: -18 FETCH carries a Fetch Type and then a Standalone range or a Joining reference; -22
// FETCH is Request ID, Namespace, Name, Parameters, with the range in LOCATION_FILTER.
constexpr bool fetch_has_fetch_type(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return true;
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 8.4 [D22-INFERRED]: FETCH_OK End Location is "last object + 1, object 0 = whole group" in -18
// and the inclusive last location in -22.
constexpr bool fetch_ok_end_is_inclusive(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 8.5: -22 replaces the joining FETCH (Fetch Types 2 and 3, error 0x32) with fill:
// FILL_PARAMETERS (0x23) in SUBSCRIBE / REQUEST_UPDATE answered on a fill fetch stream.
constexpr bool has_fill(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 8.6: parameter 0x21 is the length-prefixed SUBSCRIPTION_FILTER (types 1-4) in -18 and the
// typed LOCATION_FILTER (types 0-5, no length) in -22.
constexpr bool location_filter_is_typed(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 8.7: -22 adds the range filter parameters 0x25-0x29 (gated by MAX_FILTER_RANGES).
constexpr bool has_range_filters(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}
// 8.7: -22 adds INCLUDE_PROPERTIES (0x35).
constexpr bool has_include_properties(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}
// 8.7: in -18 PUBLISH_OK (a REQUEST_OK answering PUBLISH) carries the subscriber's delivery
// parameters; in -22 it does not (they go in a REQUEST_UPDATE) and PUBLISH carries them.
constexpr bool publish_ok_has_subscription_params(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return true;
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 8.8: -22 adds PUBLISH_STATE_NOTIFY (0x22).
constexpr bool has_publish_state_notify(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}
// 8.8 / [AMBIG-1]: -18's table still lists 0x1E PUBLISH_OK; we send REQUEST_OK (0x07) and, under
// -18 only, accept 0x1E as a REQUEST_OK. -22 reserves 0x1E.
constexpr bool accepts_publish_ok_type(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return true;
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}
// 8.8: 0x0F is PUBLISH_BLOCKED in -18 and PUBLISH_SKIPPED in -22 (same layout).
constexpr const char* publish_blocked_name(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return "PUBLISH_BLOCKED";
    case IetfVersion::Draft22:
      return "PUBLISH_SKIPPED";
  }
  unreachable();
}

// 8.9: -22 adds the Setup Options MAX_FILTER_RANGES (0x06) and MAX_REQUEST_UPDATES (0x08); under
// -18 they are unknown options and are ignored.
constexpr bool has_limit_setup_options(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 8.10: the -22 error registries add TOO_MANY_REQUEST_UPDATES (session 0x1B),
// CONFLICTING_FILTERS (0x35) and INVALID_FILTER (0x36), and drop DUPLICATE_SUBSCRIPTION (0x19)
// and INVALID_JOINING_REQUEST_ID (0x32) [removal D22-INFERRED]. See codes.h for the tables.
constexpr bool has_draft22_error_registry(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 8.11: -22 allows several subscriptions per track (sharing aliases); -18 allows one per role
// and answers a second with DUPLICATE_SUBSCRIPTION.
constexpr bool allows_duplicate_subscriptions(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 8.13: -22 fetch streams add the End of Timed-Out Range marker (0x20C).
constexpr bool has_timed_out_range_marker(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

}  // namespace moq::wire::ietf
