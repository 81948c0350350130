// The moq-transport drafts this codec speaks (draft-ietf-moq-transport-18 and -22, and -17 for
// interop only), and one predicate per wire or behaviour difference between them: "8.N" below is
// difference N between -18 and -22, "17.N" difference N between -17 and -18, the rows of the
// Predicates tables in model/wire/ietf/README.md. Codecs and sessions branch on these
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

// Draft17 is interop-only (VersionInfo::interop_only): it is the draft @moq/lite speaks, the one
// independent moq-transport stack reachable from CI.
enum class IetfVersion : uint8_t { Draft17, Draft18, Draft22 };

// Every moq-transport field from draft-17 on uses the leading-ones varint
// (draft-ietf-moq-transport, variable-length integers).
inline constexpr VarintForm kVarint = VarintForm::LeadingOnes;

// The registry entry of a draft (model/wire/version.h), and the other way round.
constexpr Version registry_version(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return Version::Transport17;
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
    case Version::Transport17:
      return IetfVersion::Draft17;
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
// Internal identifiers only (0xff0000NN no longer goes on the wire): 0xff000011 / 0xff000012 /
// 0xff000016.
constexpr uint32_t version_id(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return 0xff000011u;
    case IetfVersion::Draft18:
      return 0xff000012u;
    case IetfVersion::Draft22:
      return 0xff000016u;
  }
  unreachable();
}
constexpr const char* version_name(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return "draft-17";
    case IetfVersion::Draft18:
      return "draft-18";
    case IetfVersion::Draft22:
      return "draft-22";
  }
  unreachable();
}

// 8.2: GOAWAY ends with a Request ID (control stream only) in -18; -19 removed it, and -17 did not
// have it yet (17.4).
constexpr bool goaway_has_request_id(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return false;
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}
// 8.8 / [AMBIG-1]: -18's table still lists 0x1E PUBLISH_OK; we send REQUEST_OK (0x07) and, under
// -18, accept 0x1E as a REQUEST_OK. -22 reserves 0x1E. -17 answers PUBLISH with 0x1E (17.5).
constexpr bool accepts_publish_ok_type(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
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
    case IetfVersion::Draft17:
    case IetfVersion::Draft18:
      return false;
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// ---- draft-17 (interop only) against draft-18: "17.N" ----
// Where @moq/lite departs from draft-17, the predicate follows the package, since interop with it
// is why -17 is here; each such choice says so.

// 17.1: every request message (SUBSCRIBE, PUBLISH, PUBLISH_NAMESPACE, SUBSCRIBE_NAMESPACE,
// TRACK_STATUS, FETCH, REQUEST_UPDATE) carries a Required Request ID Delta after its Request ID in
// -17; -18 removed the field. We write 0 (no dependency) and ignore the value read, as @moq/lite
// does: nothing in this stack orders one request after another.
constexpr bool has_required_request_id_delta(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 17.2: -17's SUBSCRIBE_NAMESPACE is type 0x11 and carries Subscribe Options (0 PUBLISH,
// 1 NAMESPACE, 2 both) after the prefix; -18 made it 0x50 without options (namespaces only) and
// moved pushed tracks to SUBSCRIBE_TRACKS (0x51), which -17 lacks.
constexpr bool subscribe_namespace_has_options(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 17.3: the 7-byte leading-ones varint (first byte 1111110x) is invalid in -17 (@moq/lite rejects
// it) and valid from -18 on. The encoder never writes it (model/base/varint.h); decoders of -17
// fields refuse it.
constexpr bool accepts_seven_byte_varint(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return false;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 17.4: GOAWAY is New Session URI and Timeout only (see goaway_has_request_id), and @moq/lite
// closes the whole session on any message after SETUP on the control stream, GOAWAY included, so
// towards a -17 peer the control stream stays quiet after SETUP: goaway() stops taking new
// requests without telling the peer.
constexpr bool sends_goaway(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return false;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 17.5: -17 answers PUBLISH with PUBLISH_OK (0x1E, parameters only); -18 with REQUEST_OK (0x07).
constexpr bool publish_answered_by_publish_ok(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 17.6: -18 adds the Redirect structure to REQUEST_ERROR (code REDIRECT 0x34) and the code
// UNSUPPORTED_EXTENSION (0x33); a -17 REQUEST_ERROR is Code, Retry Interval and Reason only.
constexpr bool request_error_has_redirect(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return false;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 17.7: -18 adds the FIRST_OBJECT bit (0x40) to SUBGROUP_HEADER types; -17 has 0x10-0x1D and
// 0x30-0x3D only (and @moq/lite refuses the others).
constexpr bool has_first_object_subgroup_types(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return false;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 17.8: PUBLISH_DONE status codes 5 and 6 are swapped in -17 (5 EXPIRED, 6 TOO_FAR_BEHIND) relative
// to -18 (5 TOO_FAR_BEHIND, 6 EXPIRED). PublishDoneStatus holds the -18 meaning; the codec maps.
constexpr bool publish_done_5_6_swapped(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 17.9: -17 has no SUBGROUP_DELIVERY_TIMEOUT (0x06), FILL_TIMEOUT (0x0A) or TRACK_NAMESPACE_PREFIX
// (0x34) parameter, and calls 0x02 DELIVERY_TIMEOUT (param_scopes.cpp has its table).
constexpr bool has_draft18_parameters(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return false;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return true;
  }
  unreachable();
}

// 17.10: message parameter values. Draft-17 gives each parameter its own encoding (uint8 for
// FORWARD, SUBSCRIBER_PRIORITY and GROUP_ORDER, a bare Location for LARGEST_OBJECT), as -18 does;
// @moq/lite writes and reads every parameter by the parity of its type (even: one varint; odd:
// a length and bytes). The two agree only for values below 128 and not at all for LARGEST_OBJECT,
// so under -17 we use the package's form: a subscriber priority of 128 or more, or a
// LARGEST_OBJECT in SUBSCRIBE_OK, would otherwise make it misread the message and fail.
constexpr bool params_by_parity(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 17.11: the objects of a -17 fetch stream write their Group ID and Object ID fields absolutely
// (-18 delta-codes them against the previous object). Known from third-party draft-17 notes only:
// @moq/lite implements no FETCH in -17 (it aborts a FETCH stream), so only our own -17 peers
// exercise it.
constexpr bool fetch_objects_absolute(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 17.12 (a peer deviation, not a draft difference): @moq/lite ends a subscription it publishes by
// FIN on the request stream, without PUBLISH_DONE, and as a subscriber reads nothing after
// SUBSCRIBE_OK (the unread bytes of a PUBLISH_DONE keep it from seeing the FIN). So under -17 a
// subscriber takes that FIN as the track's clean end (TRACK_ENDED, stream count unknown), and a
// publisher ends a subscription the same way: FIN alone, or a reset where PUBLISH_DONE would
// carry an error.
constexpr bool fin_ends_subscription(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 17.13 (a peer deviation): @moq/lite aborts a SUBSCRIBE whose filter is not NextGroupStart (1)
// or LargestObject (2), so a -17 subscription from a floor asks for NextGroupStart: groups before
// it are for a FETCH (as moqbench subscribe fetches them), and the JS publisher, which sends only
// the groups it starts after a SUBSCRIBE, ignores the filter anyway.
constexpr bool subscribe_filter_live_only(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

// 17.14 (a peer deviation): @moq/lite keeps a subscription under its own request id until its
// SUBSCRIBE_OK has been read, and drops a group stream whose alias it does not know yet, which a
// stream that overtakes the SUBSCRIBE_OK has; a -17 publisher answers with Track Alias = the
// SUBSCRIBE's request id, as the JS publisher does (unique in the session, as request ids are).
constexpr bool alias_is_request_id(IetfVersion v) {
  switch (v) {
    case IetfVersion::Draft17:
      return true;
    case IetfVersion::Draft18:
    case IetfVersion::Draft22:
      return false;
  }
  unreachable();
}

}  // namespace moq::wire::ietf
