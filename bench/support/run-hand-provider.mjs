#!/usr/bin/env node
// Runs the hand-written provider of @idp/fault-providers (or one of its hostile transports) in its
// own process, for benchmarks and for tests that must measure the verifier's memory apart from the
// provider's. Prints one line, `BASE_URL STATES_URL`, then serves until SIGTERM/SIGINT.
//
//   IDP_USERNAME=u IDP_PASSWORD=p node bench/support/run-hand-provider.mjs \
//     [--fault NAME ...] [--reading default|observed-service] [--unique-names] \
//     [--user-before-body] [--missing-field reject|accept] [--port N]
//     [--state-handlers additive|reset-on-setup|reset-on-teardown] [--json-content-type TYPE]
//     [--limit PLACE=MAX:UNIT:STATUS ...]   e.g. 'rules.features.*.labels[].keywords[]=100:utf16:422'
//                                          (UNIT codePoints, utf16 or bytes; a string's longest)
//   node bench/support/run-hand-provider.mjs --hostile hang|reset|drip|...   (no credentials needed)
//
// --record FILE writes every request it receives (method, path, headers, body) as NDJSON, in order
// of arrival: bench:verifier replays them with a raw client. --stats FILE writes, when it stops,
// how many requests arrived, when the first and the last did (epoch ms) and how busy its thread was
// between them (event-loop utilisation).
//
// Node >= 22.18 runs the package's TypeScript sources directly (type stripping).
import { closeSync, openSync, writeFileSync, writeSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  FAULTS,
  HOSTILE_KINDS,
  isFault,
  STATE_HANDLERS,
  startHandProvider,
  startHostile,
} from "../../packages/fault-providers/src/index.ts";

const usage = (message) => {
  process.stderr.write(`run-hand-provider: ${message}\n`);
  process.exit(2);
};

let values;
try {
  ({ values } = parseArgs({
    options: {
      fault: { type: "string", multiple: true, default: [] },
      reading: { type: "string", default: "default" },
      "unique-names": { type: "boolean", default: false },
      "user-before-body": { type: "boolean", default: false },
      "missing-field": { type: "string", default: "reject" },
      "state-handlers": { type: "string", default: "additive" },
      "json-content-type": { type: "string" },
      limit: { type: "string", multiple: true, default: [] },
      hostile: { type: "string" },
      port: { type: "string", default: "0" },
      record: { type: "string" },
      stats: { type: "string" },
    },
  }));
} catch (error) {
  usage(error.message);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  usage(`--port: expected an integer 0-65535, got "${values.port}"`);

let running;
const stats = { requests: 0, first: undefined, last: undefined, file: undefined, close: () => {} };
if (values.hostile !== undefined) {
  if (!HOSTILE_KINDS.includes(values.hostile))
    usage(`--hostile: expected one of ${HOSTILE_KINDS.join(", ")}, got "${values.hostile}"`);
  running = await startHostile(values.hostile, { port });
} else {
  // Not turbo inputs: this script runs outside turbo's tasks.
  const { IDP_USERNAME: username, IDP_PASSWORD: password } = process.env;
  if (!username || password === undefined || password === "")
    usage("IDP_USERNAME and IDP_PASSWORD must be set (the credentials the provider accepts)");
  for (const f of values.fault)
    if (!isFault(f)) usage(`--fault: expected one of ${FAULTS.join(", ")}, got "${f}"`);
  if (!["default", "observed-service"].includes(values.reading))
    usage(`--reading: expected default or observed-service, got "${values.reading}"`);
  if (!["reject", "accept"].includes(values["missing-field"]))
    usage(`--missing-field: expected reject or accept, got "${values["missing-field"]}"`);
  if (!STATE_HANDLERS.includes(values["state-handlers"]))
    usage(
      `--state-handlers: expected one of ${STATE_HANDLERS.join(", ")}, got "${values["state-handlers"]}"`,
    );
  const limits = values.limit.map((text) => {
    const m = /^([^=]+)=(\d+):(codePoints|utf16|bytes):(\d{3})$/.exec(text);
    if (!m)
      usage(
        `--limit: expected PLACE=MAX:UNIT:STATUS (UNIT codePoints, utf16 or bytes), got "${text}"`,
      );
    return { at: m[1], maxLength: Number(m[2]), unit: m[3], status: Number(m[4]) };
  });
  const record = values.record === undefined ? undefined : openSync(values.record, "w");
  stats.file = values.stats;
  stats.close = () => record !== undefined && closeSync(record);
  // Hop-by-hop and framing headers are the sender's own business: the replay sets them again.
  const skip = new Set(["host", "connection", "content-length", "keep-alive", "transfer-encoding"]);
  const onRequest = (r) => {
    // Epoch milliseconds (sub-millisecond): the bench compares them with its own clock.
    const now = performance.timeOrigin + performance.now();
    stats.first ??= now;
    stats.last = now;
    stats.requests++;
    if (record === undefined) return;
    const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !skip.has(k)));
    const body = r.body === "too-large" ? "" : r.body.toString("base64");
    writeSync(record, `${JSON.stringify({ method: r.method, url: r.url, headers, body })}\n`);
  };
  running = await startHandProvider({
    onRequest,
    credentials: { username, password },
    faults: values.fault,
    reading: values.reading,
    uniqueNames: values["unique-names"],
    userBeforeBody: values["user-before-body"],
    missingField: values["missing-field"],
    stateHandlers: values["state-handlers"],
    ...(values["json-content-type"] ? { jsonContentType: values["json-content-type"] } : {}),
    limits,
    port,
    keepRequests: 0,
  });
}
// How busy the provider's one thread was (event-loop utilisation) and the CPU its process used (all
// its threads), sampled every 50 ms, so the bench can read both between the first and the last
// request (a saturated provider is near 1).
const elu = [];
const eluTimer = setInterval(
  () =>
    elu.push({
      t: performance.timeOrigin + performance.now(),
      ...performance.eventLoopUtilization(),
      // The whole process's CPU (its thread and V8's), µs: what the provider costs the machine.
      cpu: (({ user, system }) => user + system)(process.cpuUsage()),
    }),
  50,
);
eluTimer.unref();
/** Busy fraction of the event loop between epoch ms `a` and `b` (from the nearest samples). */
const busyBetween = (a, b) => {
  const from = elu.findLast((s) => s.t <= a) ?? elu[0];
  const to = elu.find((s) => s.t >= b) ?? elu.at(-1);
  if (!from || !to || to === from) return undefined;
  return {
    busy: (to.active - from.active) / (to.active + to.idle - from.active - from.idle),
    cpuMicros: to.cpu - from.cpu,
  };
};
process.stdout.write(`${running.baseUrl} ${running.statesUrl}\n`);
const stop = () =>
  running.close().then(() => {
    stats.close();
    const between = stats.first === undefined ? undefined : busyBetween(stats.first, stats.last);
    if (stats.file)
      writeFileSync(
        stats.file,
        JSON.stringify({
          requests: stats.requests,
          first: stats.first,
          last: stats.last,
          busy: between?.busy,
          cpuMicros: between?.cpuMicros,
        }),
      );
    process.exit(0);
  });
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
