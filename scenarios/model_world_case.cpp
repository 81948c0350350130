#include "scenarios/model_world_case.h"

#include <string>

#include "harness/runner/delivery.h"
#include "scenarios/bench_util.h"

namespace moq::scenarios {

Status check_world_group_axes(const harness::CaseSpec& spec) {
  if (Status st = check_world_axes(spec); !st) return st;
  Result<GroupShape> group = group_shape(spec);
  if (!group) return group.error();
  return {};
}

Status ModelWorldCase::build_world() {
  payloads_ = harness::PayloadSource(
      shape_.frame_size, kDistinctRounds * config_.publishers * shape_.groups * shape_.frames);
  if (Status st = world_.build(config_); !st) return st;
  const uint64_t frames_per_round = shape_.groups * shape_.frames;
  for (ModelViewer& v : world_.viewers())
    v.log.reserve(frames_per_round);
  first_sequences_.resize(world_.publishers().size());
  return {};
}

Status ModelWorldCase::write_round(uint64_t round) {
  std::vector<ModelPublisher>& pubs = world_.publishers();
  for (size_t p = 0; p < pubs.size(); ++p) {
    if (pubs[p].viewers == 0) continue;
    for (uint64_t g = 0; g < shape_.groups; ++g) {
      Result<GroupProducer> made = pubs[p].track.append_group();
      if (!made) return Error{0, "publisher " + std::to_string(p) + ": " + made.error().message};
      GroupProducer& group = *made;
      if (g == 0) first_sequences_[p] = group.sequence();
      const uint64_t base = first_payload(round, p, g);
      const uint64_t first_timestamp = round * shape_.timestamps_per_round + g * shape_.frames;
      for (uint64_t k = 0; k < shape_.frames; ++k) {
        if (!group.append(first_timestamp + k, payloads_.payload(base + k))) [[unlikely]]
          return group.write_frame(first_timestamp + k, payloads_.payload(base + k));
      }
      if (Status st = group.finish(); !st) return st;
    }
  }
  return {};
}

Status ModelWorldCase::deliver_to_relays() {
  if (!world_.relayed()) return {};
  return world_.settle("delivering the round's groups to the relays");
}

harness::RoundCheck ModelWorldCase::check_round(uint64_t round) {
  harness::DeliveryCombiner expected;
  for (const ModelViewer& v : world_.viewers()) {
    harness::DeliveryHasher h;
    for (uint64_t g = 0; g < shape_.groups; ++g) {
      const uint64_t base = first_payload(round, v.publisher, g);
      for (uint64_t k = 0; k < shape_.frames; ++k)
        h.add_frame(payloads_.payload(base + k));
    }
    expected.add(h.result());
  }
  return {world_.delivered(), expected.result(), world_.check_upstream_subscriptions()};
}

}  // namespace moq::scenarios
