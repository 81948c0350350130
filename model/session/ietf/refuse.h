// RefuseTask: answers a request with REQUEST_ERROR and closes its stream cleanly (once our FIN is
// out and the requester's half ended).
#pragma once

#include <string>

#include "model/session/ietf/request.h"

namespace moq::session::ietf {

class RefuseTask final : public RequestTask {
 public:
  RefuseTask(IetfSession& s, TaskPoolBase& p) : RequestTask(s, p, "ietf request refusal") {}
  void start(SendStreamPtr send, core::StreamInput& input, w::RequestErrorCode code,
             std::string reason);

 protected:
  Poll step() override;
  void clear() override;

 private:
  w::RequestError error_;
  bool sent_ = false;
};

}  // namespace moq::session::ietf
