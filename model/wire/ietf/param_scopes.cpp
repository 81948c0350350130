// Which parameters each message form may carry, per draft (spec 3.4 "Allowed in" columns).
#include "model/wire/ietf/params.h"

namespace moq::wire::ietf {

namespace {
constexpr uint64_t T(ParamType t) {
  return uint64_t(t);
}
}  // namespace

// ---- Scopes ----

ParamMask param_bit(uint64_t type) {
  switch (type) {
    case 0x02:
      return 1u << 0;
    case 0x03:
      return 1u << 1;
    case 0x04:
      return 1u << 2;
    case 0x06:
      return 1u << 3;
    case 0x08:
      return 1u << 4;
    case 0x09:
      return 1u << 5;
    case 0x0A:
      return 1u << 6;
    case 0x10:
      return 1u << 7;
    case 0x20:
      return 1u << 8;
    case 0x21:
      return 1u << 9;
    case 0x22:
      return 1u << 10;
    case 0x23:
      return 1u << 11;
    case 0x25:
      return 1u << 12;
    case 0x26:
      return 1u << 13;
    case 0x27:
      return 1u << 14;
    case 0x28:
      return 1u << 15;
    case 0x29:
      return 1u << 16;
    case 0x32:
      return 1u << 17;
    case 0x34:
      return 1u << 18;
    case 0x35:
      return 1u << 19;
    default:
      return 0;
  }
}

const char* param_scope_name(ParamScope s) {
  switch (s) {
    case ParamScope::Subscribe:
      return "SUBSCRIBE";
    case ParamScope::SubscribeOk:
      return "SUBSCRIBE_OK";
    case ParamScope::Publish:
      return "PUBLISH";
    case ParamScope::PublishOk:
      return "PUBLISH_OK";
    case ParamScope::TrackStatus:
      return "TRACK_STATUS";
    case ParamScope::TrackStatusOk:
      return "TRACK_STATUS_OK";
    case ParamScope::Fetch:
      return "FETCH";
    case ParamScope::FetchOk:
      return "FETCH_OK";
    case ParamScope::PublishNamespace:
      return "PUBLISH_NAMESPACE";
    case ParamScope::SubscribeNamespace:
      return "SUBSCRIBE_NAMESPACE";
    case ParamScope::SubscribeTracks:
      return "SUBSCRIBE_TRACKS";
    case ParamScope::NamespaceOk:
      return "namespace REQUEST_OK";
    case ParamScope::UpdateSubscription:
      return "REQUEST_UPDATE (subscription)";
    case ParamScope::UpdateFetch:
      return "REQUEST_UPDATE (fetch)";
    case ParamScope::UpdatePublishNamespace:
      return "REQUEST_UPDATE (PUBLISH_NAMESPACE)";
    case ParamScope::UpdateSubscribeNamespace:
      return "REQUEST_UPDATE (SUBSCRIBE_NAMESPACE)";
    case ParamScope::UpdateSubscribeTracks:
      return "REQUEST_UPDATE (SUBSCRIBE_TRACKS)";
    case ParamScope::UpdateOk:
      return "REQUEST_UPDATE_OK";
    case ParamScope::PublishStateNotify:
      return "PUBLISH_STATE_NOTIFY";
    case ParamScope::Fill:
      return "FILL_PARAMETERS";
  }
  return "?";
}

// The "Allowed in" columns of spec 3.4, per draft. The -22 scopes are [D22-INFERRED] (taken from
// the WG main text and the interop runner's requirement catalogue, see README).
ParamMask allowed_params(ParamScope scope, IetfVersion v) {
  auto m = [](std::initializer_list<ParamType> types) {
    ParamMask out = 0;
    for (ParamType t : types)
      out |= param_bit(T(t));
    return out;
  };
  using P = ParamType;
  const ParamMask kRange4 =
      m({P::SubgroupFilter, P::ObjectIdFilter, P::PriorityFilter, P::ObjectPropertyFilter});
  if (v == IetfVersion::Draft18) {
    switch (scope) {
      case ParamScope::Subscribe:
        return m({P::ObjectDeliveryTimeout, P::AuthorizationToken, P::RendezvousTimeout,
                  P::SubgroupDeliveryTimeout, P::Forward, P::SubscriberPriority, P::LocationFilter,
                  P::GroupOrder, P::NewGroupRequest});
      case ParamScope::SubscribeOk:
        return m({P::Expires, P::LargestObject});
      case ParamScope::Publish:
        return m({P::AuthorizationToken, P::Expires, P::LargestObject, P::Forward});
      case ParamScope::PublishOk:
        return m({P::ObjectDeliveryTimeout, P::SubgroupDeliveryTimeout, P::Expires, P::Forward,
                  P::SubscriberPriority, P::LocationFilter, P::GroupOrder, P::NewGroupRequest});
      case ParamScope::TrackStatus:
        return m({P::AuthorizationToken});
      case ParamScope::TrackStatusOk:
        return m({P::LargestObject});
      case ParamScope::Fetch:
        return m({P::AuthorizationToken, P::FillTimeout, P::SubscriberPriority, P::GroupOrder});
      case ParamScope::FetchOk:
        return 0;
      case ParamScope::PublishNamespace:
      case ParamScope::SubscribeNamespace:
        return m({P::AuthorizationToken});
      case ParamScope::SubscribeTracks:
        return m({P::AuthorizationToken, P::Forward});
      case ParamScope::NamespaceOk:
        return 0;
      case ParamScope::UpdateSubscription:
        return m({P::ObjectDeliveryTimeout, P::AuthorizationToken, P::SubgroupDeliveryTimeout,
                  P::Forward, P::SubscriberPriority, P::LocationFilter, P::NewGroupRequest});
      case ParamScope::UpdateFetch:
        return m({P::AuthorizationToken, P::SubscriberPriority});
      case ParamScope::UpdatePublishNamespace:
        return m({P::AuthorizationToken});
      case ParamScope::UpdateSubscribeNamespace:
      case ParamScope::UpdateSubscribeTracks:
        return m({P::AuthorizationToken, P::TrackNamespacePrefix});
      case ParamScope::UpdateOk:
        return m({P::Expires, P::LargestObject});
      case ParamScope::PublishStateNotify:
      case ParamScope::Fill:
        return 0;
    }
    return 0;
  }
  switch (scope) {
    case ParamScope::Subscribe:
      return m({P::ObjectDeliveryTimeout, P::AuthorizationToken, P::RendezvousTimeout,
                P::SubgroupDeliveryTimeout, P::Forward, P::SubscriberPriority, P::LocationFilter,
                P::GroupOrder, P::FillParameters, P::NewGroupRequest, P::IncludeProperties}) |
             kRange4;
    case ParamScope::SubscribeOk:
      return m({P::Expires, P::LargestObject});
    case ParamScope::Publish:
      return m({P::ObjectDeliveryTimeout, P::AuthorizationToken, P::SubgroupDeliveryTimeout,
                P::Expires, P::LargestObject, P::Forward, P::SubscriberPriority, P::LocationFilter,
                P::GroupOrder});
    case ParamScope::PublishOk:
      return m({P::Expires});
    case ParamScope::TrackStatus:
      return m({P::AuthorizationToken, P::IncludeProperties});
    case ParamScope::TrackStatusOk:
      return m({P::LargestObject});
    case ParamScope::Fetch:
      return m({P::AuthorizationToken, P::FillTimeout, P::SubscriberPriority, P::LocationFilter,
                P::GroupOrder, P::IncludeProperties}) |
             kRange4;
    case ParamScope::FetchOk:
      return 0;
    case ParamScope::PublishNamespace:
    case ParamScope::SubscribeNamespace:
      return m({P::AuthorizationToken});
    case ParamScope::SubscribeTracks:
      return m({P::AuthorizationToken, P::Forward, P::GroupOrder, P::TrackPropertyFilter,
                P::IncludeProperties}) |
             kRange4;
    case ParamScope::NamespaceOk:
      return m({P::Expires});
    case ParamScope::UpdateSubscription:
      return m({P::ObjectDeliveryTimeout, P::AuthorizationToken, P::SubgroupDeliveryTimeout,
                P::Forward, P::SubscriberPriority, P::LocationFilter, P::FillParameters,
                P::NewGroupRequest}) |
             kRange4;
    case ParamScope::UpdateFetch:
      return m({P::AuthorizationToken, P::SubscriberPriority});
    case ParamScope::UpdatePublishNamespace:
      return m({P::AuthorizationToken});
    case ParamScope::UpdateSubscribeNamespace:
      return m({P::AuthorizationToken, P::TrackNamespacePrefix});
    case ParamScope::UpdateSubscribeTracks:
      return m({P::AuthorizationToken, P::TrackNamespacePrefix, P::Forward,
                P::TrackPropertyFilter}) |
             kRange4;
    case ParamScope::UpdateOk:
      return m({P::Expires, P::LargestObject});
    case ParamScope::PublishStateNotify:
      return m({P::LargestObject, P::Forward, P::LocationFilter});
    case ParamScope::Fill:
      return m({P::FillTimeout, P::SubscriberPriority, P::LocationFilter, P::GroupOrder}) | kRange4;
  }
  return 0;
}

ParamMask allowed_params_for_message(MessageType type, IetfVersion v) {
  auto a = [v](ParamScope s) { return allowed_params(s, v); };
  switch (type) {
    case MessageType::Subscribe:
      return a(ParamScope::Subscribe);
    case MessageType::SubscribeOk:
      return a(ParamScope::SubscribeOk);
    case MessageType::Publish:
      return a(ParamScope::Publish);
    case MessageType::TrackStatus:
      return a(ParamScope::TrackStatus);
    case MessageType::Fetch:
      return a(ParamScope::Fetch);
    case MessageType::FetchOk:
      return a(ParamScope::FetchOk);
    case MessageType::PublishNamespace:
      return a(ParamScope::PublishNamespace);
    case MessageType::SubscribeNamespace:
      return a(ParamScope::SubscribeNamespace);
    case MessageType::SubscribeTracks:
      return a(ParamScope::SubscribeTracks);
    case MessageType::PublishStateNotify:
      return a(ParamScope::PublishStateNotify);
    case MessageType::RequestUpdate:
      return a(ParamScope::UpdateSubscription) | a(ParamScope::UpdateFetch) |
             a(ParamScope::UpdatePublishNamespace) | a(ParamScope::UpdateSubscribeNamespace) |
             a(ParamScope::UpdateSubscribeTracks);
    case MessageType::RequestOk:
    case MessageType::PublishOkLegacy:
      return a(ParamScope::PublishOk) | a(ParamScope::TrackStatusOk) | a(ParamScope::NamespaceOk) |
             a(ParamScope::UpdateOk);
    default:
      return 0;
  }
}

}  // namespace moq::wire::ietf
