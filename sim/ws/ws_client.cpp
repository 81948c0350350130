#include "sim/ws/ws_client.h"

namespace moq::sim::ws {

Result<WsUrl> parse_ws_url(const std::string& url) {
  const std::string scheme = "ws://";
  if (url.compare(0, 6, "wss://") == 0)
    return Error{0, "URL '" + url + "': wss:// (TLS) is not supported; use ws://"};
  if (url.compare(0, scheme.size(), scheme) != 0)
    return Error{0, "URL '" + url + "': a WebSocket URL starts with ws://"};
  const std::string rest = url.substr(scheme.size());
  const size_t slash = rest.find_first_of("/?");
  WsUrl out;
  out.host_port = rest.substr(0, slash);
  out.path = slash == std::string::npos ? "/" : rest.substr(slash);
  if (out.host_port.empty()) return Error{0, "URL '" + url + "': no host"};
  return out;
}

Result<std::unique_ptr<WsClient>> WsClient::connect(Executor& executor, quic::UdpLoop& loop,
                                                    const std::string& url,
                                                    const std::vector<std::string>& alpns,
                                                    uint64_t timeout_ns) {
  return connect(executor, loop, url, alpns, timeout_ns, WsCarrierSettings{});
}

Result<std::unique_ptr<WsClient>> WsClient::connect(Executor& executor, quic::UdpLoop& loop,
                                                    const std::string& url,
                                                    const std::vector<std::string>& alpns,
                                                    uint64_t timeout_ns,
                                                    WsCarrierSettings settings) {
  Result<WsUrl> parts = parse_ws_url(url);
  if (!parts) return parts.error();
  if (alpns.empty()) return Error{0, url + ": no ALPN to offer"};
  Result<Address> at = Address::parse(parts->host_port, 80);
  if (!at) return Error{0, "URL '" + url + "': " + at.error().message};
  Result<std::unique_ptr<TcpConnection>> tcp = TcpConnection::connect(loop, *at);
  if (!tcp) return Error{0, url + ": " + tcp.error().message};
  settings.alpns = alpns;
  Result<std::unique_ptr<WsCarrier>> carrier =
      WsCarrier::dial(executor, std::move(*tcp), url, settings);
  if (!carrier) return carrier.error();
  std::unique_ptr<WsClient> client(new WsClient(std::move(*carrier)));
  WsCarrier& c = *client->carrier_;
  const auto ready = [&c] {
    return c.finished() || !c.end_reason().empty() ||
           (c.connection() && (c.connection()->established() || c.connection()->close_error()));
  };
  const std::string what = "WebSocket connect to " + url;
  if (Status st = loop.run_until(ready, timeout_ns, what.c_str()); !st)
    return Error{0, what + ": no answer within " + std::to_string(timeout_ns / 1'000'000) + " ms"};
  if (!c.end_reason().empty()) return Error{0, what + ": " + c.end_reason()};
  if (c.connection()->close_error())
    return Error{0, what + ": " + c.connection()->close_error()->message};
  return client;
}

WsClient::~WsClient() = default;

}  // namespace moq::sim::ws
