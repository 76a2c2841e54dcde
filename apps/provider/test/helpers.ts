import { createConnection } from "node:net";
import { detailedOperations, ErrorBody, operationPath } from "@idp/contracts";
import { expect } from "vitest";
import { createProvider, type IdpProvider, type ProviderOptions } from "../src/index.ts";

export const CREDENTIALS = { username: "idp-test-user", password: "s3cret:with colon é" } as const;

export const basic = (username: string, password: string): string =>
  `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;

export const GOOD_AUTH = basic(CREDENTIALS.username, CREDENTIALS.password);

export interface Started {
  readonly provider: IdpProvider;
  readonly baseUrl: string;
  readonly providerStatesUrl: string;
  /** Sends a request to `baseUrl + path` with good credentials unless `authorization` is given. */
  call(
    method: string,
    path: string,
    body?: string,
    authorization?: string | null,
  ): Promise<Response>;
}

/** A provider on 127.0.0.1 port 0 (the OS picks a free port, so test files never collide). */
export async function startProvider(options: Partial<ProviderOptions> = {}): Promise<Started> {
  const provider = createProvider({ credentials: CREDENTIALS, log: () => {}, ...options });
  const { baseUrl, providerStatesUrl } = await provider.listen({ port: 0 });
  return {
    provider,
    baseUrl,
    providerStatesUrl,
    call(method, path, body, authorization = GOOD_AUTH) {
      const headers: Record<string, string> = {};
      if (authorization !== null) headers.authorization = authorization;
      if (body !== undefined) headers["content-type"] = "application/json";
      return fetch(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
    },
  };
}

/** R2: every >= 400 answer is JSON with error, error_description and errors[]. Returns the body. */
export async function expectErrorBody(response: Response, status: number): Promise<ErrorBody> {
  const text = await response.text();
  expect({ status: response.status, text }).toMatchObject({ status });
  expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
  const parsed = ErrorBody.safeParse(JSON.parse(text));
  expect(parsed.success, text).toBe(true);
  return parsed.data as ErrorBody;
}

/** R8: a success answer with the given status and an empty body. */
export async function expectNoBody(response: Response, status: number): Promise<void> {
  const text = await response.text();
  expect({ status: response.status, text }).toEqual({ status, text: "" });
}

export const validSchema = (name = "customers") => ({
  schema: {
    name,
    fields: [
      { name: "email", type: "string", unique: true },
      { name: "age", type: "integer" },
      { name: "seen_at", type: "date_time", unique: false },
    ],
    permissions: { write_protected: false, read_protected: true },
  },
});

export const validPush = () => ({
  data: {
    message: "Hello",
    title: "Greeting",
    small_icon: "ic_notify",
    vibrate: true,
    vibrate_duration: 300,
    auto_cancel: true,
    big_style: false,
    activity_class: "com.example.Main",
    badge: 1,
    sound: "default",
  },
});

export const validRules = () => ({
  rules: {
    features: {
      sports: {
        labels: [{ name: "football", keywords: ["goal", "match"] }],
        classifier: { type: "likes", categories: ["Sports"], threshold: 0.5, excluded_words: [] },
      },
    },
    parameters: { excluded_words: ["the"] },
  },
});

// Paths come from the contracts' catalogue, so a path typo here cannot hide a provider bug.
export const PATHS = {
  createSchema: operationPath(detailedOperations.createSchema),
  push: (id: string) => operationPath(detailedOperations.pushToUserDevices, { id }),
  clusteringRules: operationPath(detailedOperations.updateClusteringRules),
} as const;

/** One answer read off a raw socket. */
export interface RawAnswer {
  /** Everything the server sent, as text. */
  readonly raw: string;
  /** The status of the first answer, or undefined when none came. */
  readonly status: number | undefined;
  /** Header names lower-cased, of the first answer. */
  readonly headers: Readonly<Record<string, string>>;
  /** The first answer's body (by Content-Length). */
  readonly body: string;
  /** ms from connecting to the server closing the connection (or to `waitMs`). */
  readonly elapsedMs: number;
  /** The server closed the connection. */
  readonly closed: boolean;
}

/**
 * Sends raw bytes over TCP (for what an HTTP client will not send: a bad Host, HTTP/1.0, CONNECT,
 * a request line with `*`, a slow client) and collects the answer until the server closes the
 * connection or `waitMs` passes. `drip` writes one more chunk every `dripEveryMs` until the close.
 * With `untilAnswer`, it also stops once one whole answer came (for a server that keeps the
 * connection open): a loaded machine can take longer than any fixed wait to answer.
 */
export function rawRequest(
  port: number,
  bytes: string,
  {
    waitMs = 5_000,
    drip,
    dripEveryMs = 100,
    untilAnswer = false,
  }: { waitMs?: number; drip?: string; dripEveryMs?: number; untilAnswer?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = createConnection(port, "127.0.0.1");
    let raw = "";
    let dripper: ReturnType<typeof setInterval> | undefined;
    const finish = (closed: boolean) => {
      clearInterval(dripper);
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswer(raw), raw, elapsedMs: performance.now() - started, closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      raw += chunk;
      if (untilAnswer && wholeAnswer(raw)) finish(false);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => finish(true));
    socket.on("connect", () => {
      if (bytes !== "") socket.write(Buffer.from(bytes, "latin1"));
      if (drip !== undefined) {
        dripper = setInterval(() => {
          if (socket.writable) socket.write(drip);
        }, dripEveryMs);
      }
    });
  });
}

/**
 * The final answer's head in `raw` (interim 1xx answers skipped) and the text after it; undefined
 * until that head has come whole. `raw` is latin1: one character per byte received.
 */
function finalHead(
  raw: string,
): { status: number; headers: Record<string, string>; rest: string } | undefined {
  let text = raw;
  while (/^HTTP\/1\.[01] 1\d\d /.test(text)) text = text.slice(text.indexOf("\r\n\r\n") + 4);
  const match = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
  const end = text.indexOf("\r\n\r\n");
  if (match === null || end < 0) return undefined;
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, end).split("\r\n").slice(1)) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(match[1]), headers, rest: text.slice(end + 4) };
}

/** Whether `raw` holds a final answer's head and, as its Content-Length says, all of its body. */
function wholeAnswer(raw: string): boolean {
  const head = finalHead(raw);
  const length = Number(head?.headers["content-length"] ?? Number.NaN);
  return head !== undefined && Number.isFinite(length) && head.rest.length >= length;
}

function parseAnswer(raw: string): Pick<RawAnswer, "status" | "headers" | "body"> {
  const head = finalHead(raw);
  if (head === undefined) return { status: undefined, headers: {}, body: "" };
  const length = Number(head.headers["content-length"] ?? Number.NaN);
  const rest = Buffer.from(head.rest, "latin1");
  const body = (Number.isFinite(length) ? rest.subarray(0, length) : rest).toString("utf8");
  return { status: head.status, headers: head.headers, body };
}

/** R2 on a raw answer: JSON Content-Type and `error`, `error_description`, `errors`. */
export function expectRawErrorBody(answer: RawAnswer, status: number): ErrorBody {
  expect({ status: answer.status, raw: answer.raw.slice(0, 300) }).toMatchObject({ status });
  expect(answer.headers["content-type"]).toMatch(/^application\/json\b/);
  const parsed = ErrorBody.safeParse(JSON.parse(answer.body));
  expect(parsed.success, answer.body).toBe(true);
  return parsed.data as ErrorBody;
}
