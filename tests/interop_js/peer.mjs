// One side of the JavaScript interop test: moq-dev's @moq/lite, unmodified from npm, publishing or
// subscribing through a relay reached over WebSocket (QMux-00 framing, @moq/qmux).
//
//   node peer.mjs pub|sub URL --alpn A --broadcast B --track T --groups G --frames F
//                 --frame-size LIST [--timeout SECONDS]
//
// The payload and the hash are moqbench's own (moqbench publish --help): byte i of frame f of
// group g is (g*131 + f*31 + i) mod 251, frame sizes take LIST in turn within each group, and the
// hash is SHA-256 over every frame in arrival order as an 8-byte big-endian length and the bytes.
// Both roles print one "summary:" line; the subscriber checks every byte, the order and the clean
// end of the track, and on the first disagreement prints where and the bytes of both sides.
// Exit 0: done in full; 1: a disagreement, an error or the timeout; 2: bad arguments.
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";

import QmuxSession from "@moq/qmux";
import * as Moq from "@moq/lite";
import WebSocket from "ws";

// PEER_TRACE=FILE: every WebSocket message both ways, one line each (direction, size, the first
// bytes in hex), so a failure can show the QMux frame where the two sides parted.
const traceFile = process.env.PEER_TRACE;
function trace(direction, data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer ?? data, data.byteOffset ?? 0, data.byteLength ?? data.length);
  const shown = Buffer.from(bytes.subarray(0, 48)).toString("hex").replace(/(..)(?!$)/g, "$1 ");
  appendFileSync(traceFile, `${direction} ${bytes.length} B: ${shown}${bytes.length > 48 ? " ..." : ""}\n`);
}
class TracedWebSocket extends WebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => trace("recv", event.data));
  }
  send(data, ...rest) {
    trace("send", data);
    return super.send(data, ...rest);
  }
}

// The package is written for Node 22 (shared research notes, js-peer section 0); Debian's and the
// CI image's Node lack these three.
globalThis.WebSocket = traceFile ? TracedWebSocket : (globalThis.WebSocket ?? WebSocket);
Promise.withResolvers ??= function withResolvers() {
  let resolve, reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};
Set.prototype.difference ??= function difference(other) {
  const out = new Set();
  for (const v of this) if (!other.has(v)) out.add(v);
  return out;
};
// The library narrates every stream at debug level: kept only with PEER_DEBUG=1.
if (process.env.PEER_DEBUG !== "1") console.debug = () => {};

function usage(why) {
  process.stderr.write(`peer.mjs: ${why}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const [role, url, ...rest] = argv;
  if (role !== "pub" && role !== "sub") usage(`role must be pub or sub, not '${role ?? ""}'`);
  if (!url || !url.startsWith("ws://")) usage(`URL must be ws://HOST:PORT/..., not '${url ?? ""}'`);
  const opts = { role, url, timeout: 30 };
  for (let i = 0; i < rest.length; i += 2) {
    const key = rest[i], value = rest[i + 1];
    if (value === undefined) usage(`${key} needs a value`);
    if (key === "--alpn") opts.alpn = value;
    else if (key === "--broadcast") opts.broadcast = value;
    else if (key === "--track") opts.track = value;
    else if (key === "--groups") opts.groups = Number(value);
    else if (key === "--frames") opts.frames = Number(value);
    else if (key === "--frame-size") opts.sizes = value.split(",").map(Number);
    else if (key === "--timeout") opts.timeout = Number(value);
    else usage(`unknown option '${key}'`);
  }
  for (const k of ["alpn", "broadcast", "track"]) if (!opts[k]) usage(`--${k} is required`);
  for (const k of ["groups", "frames", "timeout"])
    if (!Number.isInteger(opts[k]) || opts[k] < 1) usage(`--${k} must be a positive integer`);
  if (!opts.sizes || opts.sizes.some((s) => !Number.isInteger(s) || s < 0))
    usage("--frame-size must be a comma list of sizes in bytes");
  return opts;
}

const frameSize = (opts, f) => opts.sizes[f % opts.sizes.length];

function pattern(g, f, size) {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (g * 131 + f * 31 + i) % 251;
  return out;
}

class FrameHash {
  #hash = createHash("sha256");
  frames = 0;
  bytes = 0;
  add(payload) {
    const len = Buffer.alloc(8);
    len.writeBigUInt64BE(BigInt(payload.length));
    this.#hash.update(len).update(payload);
    this.frames += 1;
    this.bytes += payload.length;
  }
  hex() {
    return this.#hash.digest("hex");
  }
}

const hex = (bytes) => Buffer.from(bytes).toString("hex").replace(/(..)(?!$)/g, "$1 ");

// Up to 16 bytes either side of the first difference, from both sides.
function firstDifference(expected, received) {
  let at = 0;
  while (at < expected.length && at < received.length && expected[at] === received[at]) at++;
  const from = Math.max(0, at - 8);
  return (
    `first difference at byte ${at} (expected ${expected.length} bytes, received ` +
    `${received.length}); bytes ${from}..: expected [${hex(expected.subarray(from, from + 16))}]` +
    ` received [${hex(received.subarray(from, from + 16))}]`
  );
}

async function connect(opts) {
  const url = new URL(opts.url);
  const transport = new QmuxSession(url, { protocols: [opts.alpn] });
  // A refused or dropped WebSocket ends `closed` and leaves `ready` pending.
  await Promise.race([
    transport.ready,
    transport.closed.then((info) => {
      throw new Error(`the WebSocket to ${opts.url} closed before it opened: ${JSON.stringify(info)}`);
    }),
  ]);
  // The library reads the negotiated protocol synchronously: only a transport that is ready
  // makes it skip its legacy in-band handshake.
  if (transport.protocol !== opts.alpn)
    throw new Error(`the relay chose '${transport.protocol}', not '${opts.alpn}'`);
  return Moq.Connection.connect(url, { transport });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function publish(opts) {
  const conn = await connect(opts);
  const broadcast = new Moq.Broadcast();
  conn.publish(Moq.Path.from(opts.broadcast), broadcast);
  console.log(`ready: published ${opts.broadcast} as ${conn.version}`);
  let request;
  for (;;) {
    request = await broadcast.requested();
    if (!request) throw new Error("the broadcast closed before any subscriber asked for a track");
    if (request.track.name === opts.track) break;
    request.track.close(new Error(`no track '${request.track.name}'`));
  }
  const hash = new FrameHash();
  for (let g = 0; g < opts.groups; g++) {
    const group = request.track.appendGroup();
    for (let f = 0; f < opts.frames; f++) {
      const payload = pattern(g, f, frameSize(opts, f));
      group.writeFrame(payload);
      hash.add(payload);
    }
    group.close();
  }
  // The library gives no signal that its group streams were written out; the track's end goes
  // on the request stream, which can overtake them, so let them drain first.
  await sleep(500);
  request.track.close();
  broadcast.close();
  await sleep(200);
  conn.close();
  console.log(`summary: sent ${opts.groups} groups, ${hash.frames} frames, ${hash.bytes} bytes, sha256 ${hash.hex()}`);
}

async function subscribe(opts) {
  const conn = await connect(opts);
  console.log(`ready: connected as ${conn.version}`);
  // Wait for the broadcast to be announced (SUBSCRIBE_NAMESPACE to the relay, NAMESPACE back),
  // as a viewer that does not know whether the publisher is there yet would.
  const path = Moq.Path.from(opts.broadcast);
  const announced = conn.announced(path);
  for (;;) {
    const entry = await announced.next();
    if (!entry) throw new Error(`the announcements ended before ${opts.broadcast} was announced`);
    if (entry.path === path && entry.active) break;
  }
  announced.close();
  console.log(`announced: ${opts.broadcast}`);
  const hash = new FrameHash();
  const broadcast = conn.consume(path);
  const track = broadcast.subscribe(opts.track, 0);
  // Each group has a stream of its own, so groups may arrive out of sequence: one that comes
  // early waits for its turn, and they are checked in sequence.
  const early = new Map();
  for (let g = 0; g < opts.groups; g++) {
    while (!early.has(g)) {
      const group = await track.recvGroup();
      if (!group) {
        const seen = [...early.keys()].sort((a, b) => a - b);
        throw new Error(`the track ended without group ${g} (groups after it that did arrive: [${seen}])`);
      }
      const seq = Number(group.sequence);
      if (seq < g || early.has(seq)) throw new Error(`group ${seq} arrived twice`);
      if (seq >= opts.groups) throw new Error(`group ${seq} arrived beyond the ${opts.groups} expected`);
      early.set(seq, group);
    }
    const group = early.get(g);
    early.delete(g);
    for (let f = 0; ; f++) {
      const payload = await group.readFrame();
      if (!payload) {
        if (f < opts.frames) throw new Error(`group ${g} ended after ${f} of ${opts.frames} frames`);
        break;
      }
      if (f >= opts.frames) throw new Error(`group ${g}: frame ${f} arrived after the ${opts.frames} expected`);
      const expected = pattern(g, f, frameSize(opts, f));
      if (Buffer.compare(Buffer.from(expected), Buffer.from(payload)) !== 0)
        throw new Error(`group ${g} frame ${f}: ${firstDifference(expected, payload)}`);
      hash.add(payload);
    }
  }
  // Nothing may follow the last group: the track must end, cleanly.
  const extra = await track.recvGroup();
  if (extra) throw new Error(`group ${extra.sequence} arrived after the ${opts.groups} expected`);
  track.close();
  conn.close();
  console.log(`summary: received ${opts.groups} groups, ${hash.frames} frames, ${hash.bytes} bytes, sha256 ${hash.hex()}`);
}

const opts = parseArgs(process.argv.slice(2));
const timer = setTimeout(() => {
  process.stderr.write(`peer.mjs ${opts.role}: not done after ${opts.timeout} s\n`);
  process.exit(1);
}, opts.timeout * 1000);
try {
  await (opts.role === "pub" ? publish(opts) : subscribe(opts));
  clearTimeout(timer);
  // The library keeps timers of its own after close; nothing is left to wait for.
  process.exit(0);
} catch (err) {
  process.stderr.write(`peer.mjs ${opts.role}: ${err?.message ?? err}\n`);
  process.exit(1);
}
