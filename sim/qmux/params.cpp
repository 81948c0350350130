#include "sim/qmux/params.h"

#include <cstdio>
#include <string>

#include "model/base/varint.h"
#include "sim/qmux/frame.h"

namespace moq::sim::qmux {

namespace {

constexpr VarintForm kQuic = VarintForm::Quic;

struct Field {
  uint64_t id;
  uint64_t TransportParams::*value;
  const char* name;
};

constexpr Field kFields[] = {
    {param_id::kInitialMaxData, &TransportParams::initial_max_data, "initial_max_data"},
    {param_id::kInitialMaxStreamDataBidiLocal, &TransportParams::initial_max_stream_data_bidi_local,
     "initial_max_stream_data_bidi_local"},
    {param_id::kInitialMaxStreamDataBidiRemote,
     &TransportParams::initial_max_stream_data_bidi_remote, "initial_max_stream_data_bidi_remote"},
    {param_id::kInitialMaxStreamDataUni, &TransportParams::initial_max_stream_data_uni,
     "initial_max_stream_data_uni"},
    {param_id::kInitialMaxStreamsBidi, &TransportParams::initial_max_streams_bidi,
     "initial_max_streams_bidi"},
    {param_id::kInitialMaxStreamsUni, &TransportParams::initial_max_streams_uni,
     "initial_max_streams_uni"},
};

Error param_error(const std::string& why) {
  return Error{qmux_error::kTransportParameter, "QX_TRANSPORT_PARAMETERS: " + why};
}

}  // namespace

size_t encode_params(const TransportParams& params, uint8_t* out) {
  size_t n = 0;
  for (const Field& f : kFields) {
    const uint64_t v = params.*f.value;
    if (v == 0) continue;
    n += encode_varint(f.id, kQuic, out + n);
    n += encode_varint(varint_size(v, kQuic), kQuic, out + n);
    n += encode_varint(v, kQuic, out + n);
  }
  return n;
}

std::vector<uint8_t> encode_params(const TransportParams& params) {
  std::vector<uint8_t> out(kMaxParamsSize);
  out.resize(encode_params(params, out.data()));
  return out;
}

Result<TransportParams> decode_params(std::span<const uint8_t> payload) {
  TransportParams out;
  uint32_t seen = 0;
  size_t pos = 0;
  while (pos < payload.size()) {
    const VarintDecode id = decode_varint(payload.subspan(pos), kQuic);
    if (id.status != DecodeStatus::Ok)
      return param_error("a parameter id cut short at byte " + std::to_string(pos));
    pos += id.length;
    const VarintDecode len = decode_varint(payload.subspan(pos), kQuic);
    if (len.status != DecodeStatus::Ok)
      return param_error("the length of parameter " + std::to_string(id.value) + " cut short");
    pos += len.length;
    if (len.value > payload.size() - pos)
      return param_error("parameter " + std::to_string(id.value) + " says " +
                         std::to_string(len.value) + " bytes, " +
                         std::to_string(payload.size() - pos) + " are left");
    const std::span<const uint8_t> value = payload.subspan(pos, static_cast<size_t>(len.value));
    pos += static_cast<size_t>(len.value);
    const Field* field = nullptr;
    size_t index = 0;
    for (; index < std::size(kFields); ++index) {
      if (kFields[index].id == id.value) {
        field = &kFields[index];
        break;
      }
    }
    if (!field || value.empty()) continue;  // unknown ids and empty values are skipped
    if (seen & (1u << index)) return param_error(std::string(field->name) + " given twice");
    seen |= 1u << index;
    const VarintDecode v = decode_varint(value, kQuic);
    if (v.status != DecodeStatus::Ok || v.length != value.size())
      return param_error(std::string(field->name) + ": a value of " + std::to_string(value.size()) +
                         " bytes that is not one varint");
    const bool count =
        id.value == param_id::kInitialMaxStreamsBidi || id.value == param_id::kInitialMaxStreamsUni;
    if (count && v.value > kMaxStreamsLimit)
      return param_error(std::string(field->name) + " = " + std::to_string(v.value) +
                         " exceeds 2^60");
    out.*field->value = v.value;
  }
  return out;
}

}  // namespace moq::sim::qmux
