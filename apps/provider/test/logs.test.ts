import { connect } from "node:net";
import { expect, it } from "vitest";
import { basic, CREDENTIALS, GOOD_AUTH, PATHS, startProvider, validSchema } from "./helpers.ts";

it("logs one structured entry per request, never the credentials", async () => {
  const entries: Record<string, unknown>[] = [];
  const s = await startProvider({ log: (e) => entries.push(e) });
  try {
    await s.call("POST", PATHS.createSchema, JSON.stringify(validSchema()));
    await s.call("POST", PATHS.createSchema, "{", basic(CREDENTIALS.username, "guess"));
    await s.call("GET", `${PATHS.createSchema}?token=${encodeURIComponent(CREDENTIALS.password)}`);
  } finally {
    await s.provider.close();
  }
  const requests = entries.filter((e) => e.msg === "request");
  expect(requests.map((e) => e.status)).toEqual([201, 401, 200]);
  expect(requests[0]).toMatchObject({ method: "POST", path: `/v1${PATHS.createSchema}` });
  const text = JSON.stringify(entries);
  for (const secret of [CREDENTIALS.password, CREDENTIALS.username, GOOD_AUTH.slice(6), "guess"]) {
    expect(text).not.toContain(secret);
  }
});

it("never logs the query string of a request refused below the app (no Host, malformed chunking)", async () => {
  const entries: Record<string, unknown>[] = [];
  const s = await startProvider({ log: (e) => entries.push(e) });
  const secret = encodeURIComponent(CREDENTIALS.password);
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(s.baseUrl).port), "127.0.0.1", () =>
        socket.write(text),
      );
      let out = "";
      socket.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        // One answer is all this test reads: a kept-alive socket is then closed here.
        if (out.includes("\r\n\r\n")) socket.end();
      });
      socket.on("close", () => resolve(out));
      socket.on("error", reject);
    });
  try {
    const noHost = await raw(`GET /v1${PATHS.createSchema}?password=${secret} HTTP/1.1\r\n\r\n`);
    const badChunks = await raw(
      `POST /v1${PATHS.createSchema}?token=${secret} HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    );
    expect(noHost.startsWith("HTTP/1.1 400 ")).toBe(true);
    expect(badChunks.startsWith("HTTP/1.1 4")).toBe(true);
  } finally {
    await s.provider.close();
  }
  const below = entries.filter((e) => e.below === "http");
  expect(below.length).toBeGreaterThanOrEqual(2);
  expect(below).toContainEqual(expect.objectContaining({ path: `/v1${PATHS.createSchema}` }));
  expect(JSON.stringify(entries)).not.toContain(secret);
});
