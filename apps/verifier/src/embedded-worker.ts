// The embedded reference provider's thread (embedded.ts): apps/provider serves from here, so its
// work runs on a core of its own instead of between the verifier's requests on the sending thread
// (the two shared one thread before, and the provider's half of the work then set the pace).
import { parentPort, workerData } from "node:worker_threads";
import type { EmbeddedReply, EmbeddedRequest, EmbeddedStart } from "./embedded-messages.ts";

const port = parentPort;
if (!port) throw new Error("embedded-worker: not a worker thread");
const { credentials } = workerData as EmbeddedStart;
const post = (m: EmbeddedReply) => port.postMessage(m);

let close: (() => Promise<void>) | undefined;
port.on("message", (m: EmbeddedRequest) => {
  if (m.type !== "close") return;
  void (close ? close() : Promise.resolve()).finally(() => {
    post({ type: "closed" });
    port.close();
  });
});

try {
  const { createProvider } = await import("@idp/provider");
  const provider = createProvider({
    db: ":memory:",
    credentials,
    providerStates: true,
    log: (entry) => {
      if (entry.level === "error") post({ type: "log", message: String(entry.msg) });
    },
  });
  const { baseUrl, providerStatesUrl } = await provider.listen({ port: 0, host: "127.0.0.1" });
  close = () => provider.close();
  post({ type: "listening", baseUrl, providerStatesUrl });
} catch (e) {
  const error = e as { code?: unknown; message?: unknown };
  post({
    type: "failed",
    message: String(error?.message ?? e),
    ...(typeof error?.code === "string" ? { code: error.code } : {}),
  });
}
