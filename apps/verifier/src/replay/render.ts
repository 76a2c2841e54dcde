import type { Via } from "../http/exchange.ts";
import type { CheckResult, VerifyReport } from "../results.ts";
import type { Expected } from "../rules/types.ts";
import { type AuthExpr, readsEnv, toJs } from "./shell-auth.ts";

/** Everything a replay file holds, worked out (see {@link planReplay}). */
export interface ReplaySpec {
  readonly check: CheckResult;
  /** The rule in plain words, and where it comes from. */
  readonly rule: string;
  readonly source: string;
  readonly method: string;
  /** The provider's base URL of the run, and the request's path after it (or a whole URL). */
  readonly providerUrl: string;
  readonly path: string;
  /** Headers as sent, without Authorization and the hop-by-hop ones. */
  readonly headers: Readonly<Record<string, string>>;
  readonly authorization?: AuthExpr;
  /** The body, exactly as sent. */
  readonly body?: string;
  /** The provider state to set up first (Pact's state-change protocol). */
  readonly state?: { readonly url: string; readonly body: string };
  /** What the run sent with every request: `--header` values (by variable), TLS files, `--insecure`. */
  readonly via?: Via;
  readonly expected: Expected;
  readonly tool: string;
  /** The file's own name, for its "how to run" line. */
  readonly fileName?: string;
}

/** Nothing that ends a line may reach a `//` comment: the text would run on as code. */
const comment = (s: string): string => s.replace(/[\r\n\u2028\u2029]+/g, " ");
const js = (v: unknown): string => JSON.stringify(v);

/** Each assertion of `expected`, in words. */
export function expectedWords(e: Expected): string[] {
  const out: string[] = [];
  if (e.status)
    out.push(
      e.renameOn422
        ? `status ${e.status.join(" or ")} (a 422 for a name the provider already holds is allowed when the same schema under a new name gets ${e.status[0]})`
        : `status ${e.status.join(" or ")}`,
    );
  if (e.statusBelow !== undefined) out.push(`a status below ${e.statusBelow}`);
  if (e.errorBody)
    out.push(
      `${e.errorBody.from <= 400 && !e.status?.every((s) => s >= 400) ? `when the status is ${e.errorBody.from} or more, ` : ""}the error body: Content-Type application/json with error and error_description (strings) and errors (an array of ${e.errorBody.errorsItems.map((k) => (k === "string" ? "strings" : "objects {attribute, message, code}")).join(" or ")})`,
    );
  if (e.contentType) out.push(`Content-Type ${e.contentType}`);
  for (const v of e.values ?? [])
    out.push(
      v.matches !== undefined
        ? `${v.path} matches /${v.matches}/`
        : v.type !== undefined
          ? `${v.path} is a ${v.type}`
          : `${v.path} is ${js(v.equals)}`,
    );
  if (e.bodyLike !== undefined) out.push(`a JSON body shaped like ${js(e.bodyLike)}`);
  if (e.noSuccessBody) out.push("no body on a success (2xx)");
  return out;
}

const HELPERS = `
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly truncated: boolean;
}

/** Sends one request as is (node:http adds only Host and Connection) and reads up to 1 MiB. */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const bytes = body === undefined ? undefined : Buffer.from(body, "utf8");
  const all = bytes === undefined ? headers : { ...headers, "content-length": String(bytes.length) };
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = (target.protocol === "https:" ? httpsRequest : httpRequest)(target, { method, headers: all, ...TLS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > MAX_BODY) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated: true });
        }
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated: false }));
      res.on("error", reject);
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(\`no answer from \${url} within \${TIMEOUT_MS} ms\`)));
    req.on("error", reject);
    req.end(bytes);
  });
}

const MAX_BODY = 1024 * 1024;
const TIMEOUT_MS = Number(process.env.IDP_TIMEOUT_MS || 10_000);

const mediaType = (a: Answer): string => String(a.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();

function json(a: Answer): any {
  expect(a.truncated, "the body is longer than 1 MiB").toBe(false);
  try {
    return JSON.parse(a.body.toString("utf8"));
  } catch {
    expect.fail(\`the \${a.status} body is not JSON: \${a.body.toString("utf8").slice(0, 200)}\`);
  }
}`;

const ENV_HELPERS = `
/** A credential or a gateway header's value, from the environment (never written into this file). */
function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(\`set \${name}: the replay sends what the run sent from the environment (IDP_USERNAME, IDP_PASSWORD, IDP_HEADER_*)\`);
  return value;
}

/** Every letter in the other case (how the run made this wrong credential). */
const swapCase = (s: string): string =>
  [...s].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join("");`;

const ERROR_BODY = `
/** R2's error body: application/json, error and error_description strings, errors an array of ERRORS_ITEMS. */
function expectErrorBody(a: Answer, errorsItems: readonly string[]): any {
  expect(mediaType(a), \`Content-Type of the \${a.status} answer\`).toBe("application/json");
  const body = json(a);
  expect(typeof body?.error, "type of error").toBe("string");
  expect(typeof body?.error_description, "type of error_description").toBe("string");
  expect(Array.isArray(body?.errors), "errors is an array").toBe(true);
  for (const [i, item] of (body.errors as unknown[]).entries()) {
    const isObject = typeof item === "object" && item !== null && !Array.isArray(item) &&
      ["attribute", "message", "code"].every((k) => typeof (item as Record<string, unknown>)[k] === "string");
    const ok = (errorsItems.includes("string") && typeof item === "string") || (errorsItems.includes("object") && isObject);
    expect(ok, \`errors[\${i}] = \${JSON.stringify(item)} must be one of: \${errorsItems.join(", ")}\`).toBe(true);
  }
  return body;
}`;

const VALUE_AT = `
/** The value at a JSONPath of the form $.a.b[0]. */
function valueAt(body: unknown, path: string): unknown {
  let value: any = body;
  for (const [, key, index] of path.slice(1).matchAll(/\\.([^.[\\]]+)|\\[(\\d+)\\]/g))
    value = value === null || value === undefined ? undefined : value[key ?? Number(index)];
  return value;
}

const typeOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);`;

const SHAPE = `
/** Where the body's shape differs from the example's (the same JSON type at each path; extra keys allowed). */
function shapeProblems(actual: unknown, example: unknown, path = "$"): string[] {
  const type = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (type(actual) !== type(example)) return [\`\${path}: expected a \${type(example)}, got \${JSON.stringify(actual)}\`];
  if (Array.isArray(example) && Array.isArray(actual) && example.length > 0)
    return actual.flatMap((item, i) => shapeProblems(item, example[0], \`\${path}[\${i}]\`));
  if (type(example) === "object")
    return Object.entries(example as object).flatMap(([k, v]) =>
      shapeProblems((actual as Record<string, unknown>)[k], v, \`\${path}.\${k}\`),
    );
  return [];
}`;

function assertions(e: Expected): string[] {
  const out: string[] = [];
  if (e.renameOn422 && e.status) {
    out.push(`  let status = answer.status;
  if (status === 422) {
    // A provider may refuse a schema name it already holds (conformance.md §1): send the same
    // schema once more under a name never sent before.
    const renamed = JSON.parse(REQUEST.body ?? "{}");
    renamed.schema.name = \`idp-replay-\${Date.now()}-\${Math.random().toString(36).slice(2)}\`;
    status = (await send(URL_, REQUEST.method, headers, JSON.stringify(renamed))).status;
  }
  expect(status, "status").toBe(${e.status[0]});`);
  } else if (e.status?.length === 1)
    out.push(`  expect(answer.status, "status").toBe(${e.status[0]});`);
  else if (e.status)
    out.push(
      `  expect(${js(e.status)}, \`status \${answer.status} must be one of ${e.status.join(", ")}\`).toContain(answer.status);`,
    );
  if (e.statusBelow !== undefined)
    out.push(`  expect(answer.status, "status").toBeLessThan(${e.statusBelow});`);
  if (e.contentType)
    out.push(`  expect(mediaType(answer), "Content-Type").toBe(${js(e.contentType)});`);
  const needsBody = (e.values?.length ?? 0) > 0 || e.bodyLike !== undefined;
  if (e.errorBody) {
    const { from, errorsItems } = e.errorBody;
    const call = `expectErrorBody(answer, ${js(errorsItems)})`;
    if (e.status?.every((s) => s >= from)) out.push(`  const body = ${call};`);
    else {
      out.push(`  if (answer.status >= ${from}) ${call};`);
      if (needsBody) out.push("  const body = json(answer);");
    }
  } else if (needsBody) out.push("  const body = json(answer);");
  for (const v of e.values ?? []) {
    const at = `valueAt(body, ${js(v.path)})`;
    if (v.matches !== undefined)
      out.push(`  expect(String(${at}), ${js(v.path)}).toMatch(new RegExp(${js(v.matches)}));`);
    else if (v.type !== undefined)
      out.push(`  expect(typeOf(${at}), "type of ${v.path}").toBe(${js(v.type)});`);
    else out.push(`  expect(${at}, ${js(v.path)}).toEqual(${js(v.equals)});`);
  }
  if (e.bodyLike !== undefined)
    out.push(`  expect(shapeProblems(body, ${js(e.bodyLike)}), "the body's shape").toEqual([]);`);
  if (e.noSuccessBody)
    out.push(`  if (answer.status >= 200 && answer.status <= 299)
    expect(answer.body.length, \`bytes in the \${answer.status} success body\`).toBe(0);`);
  return out;
}

/** The run's TLS for the replay's requests: its files (overridable by the environment), `--insecure`. */
function tlsConst(via: Via | undefined): string {
  const tls = via?.tls;
  if (!tls) return "const TLS = {};";
  const file = (variable: string, path: string) =>
    `readFileSync(process.env.${variable} || ${js(path)}, "utf8")`;
  const parts = [
    ...(tls.ca ? [`ca: [...rootCertificates, ${file("IDP_CA_CERT", tls.ca)}]`] : []),
    ...(tls.cert ? [`cert: ${file("IDP_CLIENT_CERT", tls.cert)}`] : []),
    ...(tls.key ? [`key: ${file("IDP_CLIENT_KEY", tls.key)}`] : []),
    ...(tls.insecure ? ["rejectUnauthorized: false"] : []),
  ];
  // NODE_EXTRA_CA_CERTS, when the run had it, Node reads by itself.
  return `const TLS = { ${parts.join(", ")} };`;
}

/** The text of a self-contained vitest file that replays one failure. */
export function renderReplay(
  spec: ReplaySpec,
  report: Pick<VerifyReport, "startedAt" | "seed">,
): string {
  const { check, expected } = spec;
  const f = check.failure;
  const where = [
    f?.seed !== undefined ? `seed ${f.seed}` : undefined,
    f?.counterexamplePath ? `path ${f.counterexamplePath}` : undefined,
    f?.shrinks !== undefined ? `shrunk ${f.shrinks} times` : undefined,
  ].filter(Boolean);
  const viaHeaders = Object.entries(spec.via?.headers ?? {});
  const usesEnv =
    (spec.authorization !== undefined && readsEnv(spec.authorization)) || viaHeaders.length > 0;
  const envNames = [
    ...(spec.authorization !== undefined && readsEnv(spec.authorization)
      ? ["IDP_USERNAME=...", "IDP_PASSWORD=..."]
      : []),
    ...viaHeaders.map(([, variable]) => `${variable}=...`),
  ];
  const relative = !/^https?:\/\//.test(spec.path);
  const lines = [
    `// Replays the failure of idp-verify check ${comment(check.id)} (run of ${report.startedAt}${where.length ? `, ${where.join(", ")}` : ""}), written by ${spec.tool}.`,
    "//",
    `// The rule: ${comment(spec.rule)}`,
    `//   source: ${comment(spec.source)}`,
    `// What the provider did: ${comment(f?.message ?? "")}`,
    "// The answer the rule expects:",
    ...expectedWords(expected).map((w) => `//   - ${comment(w)}`),
    "//",
    `// It sends the run's request again (${envNames.length > 0 ? `the same bytes while ${envNames.map((n) => n.replace("=...", "")).join(", ")} hold the run's values` : "the same bytes"}) and fails while the provider answers as it did;`,
    "// it passes once the provider is fixed. It needs only vitest, rooted at this file's folder:",
    `//   IDP_PROVIDER_URL=${comment(spec.providerUrl)}${spec.state ? ` IDP_PROVIDER_STATES_URL=${comment(spec.state.url)}` : ""}${envNames.length > 0 ? ` ${envNames.join(" ")}` : ""} npx vitest run --root <this folder> ${comment(spec.fileName ?? "<this file>")}`,
    "// (the URLs default to those of the run).",
    ...(spec.via?.tls
      ? [
          "// TLS as the run had it: the files by IDP_CA_CERT, IDP_CLIENT_CERT, IDP_CLIENT_KEY (default: the run's).",
        ]
      : []),
    spec.via?.tls ? 'import { readFileSync } from "node:fs";' : "",
    'import { request as httpRequest } from "node:http";',
    'import { request as httpsRequest } from "node:https";',
    spec.via?.tls?.ca ? 'import { rootCertificates } from "node:tls";' : "",
    'import { expect, test } from "vitest";',
    "",
    tlsConst(spec.via),
    viaHeaders.length > 0
      ? `/** The \`--header\`s of the run, each value from its environment variable. */\nconst VIA_HEADERS = (): Record<string, string> => ({ ${viaHeaders.map(([name, variable]) => `${js(name)}: env(${js(variable)})`).join(", ")} });`
      : "const VIA_HEADERS = (): Record<string, string> => ({});",
    relative
      ? `const PROVIDER_URL = (process.env.IDP_PROVIDER_URL || ${js(spec.providerUrl)}).replace(/\\/+$/, "");`
      : "",
    spec.state
      ? `const STATES_URL = process.env.IDP_PROVIDER_STATES_URL || ${js(spec.state.url)};`
      : "",
    "",
    "/** The request as the run sent it (Authorization is rebuilt below, from the environment). */",
    "const REQUEST = {",
    `  method: ${js(spec.method)},`,
    `  path: ${js(spec.path)},`,
    `  headers: ${js(spec.headers)} as Record<string, string>,`,
    `  body: ${spec.body === undefined ? "undefined" : js(spec.body)} as string | undefined,`,
    "};",
    `const URL_ = ${relative ? `\`\${PROVIDER_URL}\${REQUEST.path}\`` : "REQUEST.path"};`,
    spec.state ? `const STATE = ${js(spec.state.body)};` : "",
    HELPERS,
    usesEnv ? ENV_HELPERS : "",
    expected.errorBody ? ERROR_BODY : "",
    expected.values?.length ? VALUE_AT : "",
    expected.bodyLike !== undefined ? SHAPE : "",
    "",
    `test(${js(`${check.id}: ${spec.rule}`)}, async () => {`,
    spec.authorization
      ? `  const headers = { ...REQUEST.headers, ...VIA_HEADERS(), authorization: ${toJs(spec.authorization)} };`
      : "  const headers = { ...REQUEST.headers, ...VIA_HEADERS() };",
  ];
  const body = [
    "  const answer = await send(URL_, REQUEST.method, headers, REQUEST.body);",
    ...assertions(expected),
  ];
  if (spec.state)
    lines.push(
      `  const setup = await send(STATES_URL, "POST", { "content-type": "application/json", ...VIA_HEADERS() }, STATE);
  expect(setup.status, \`provider state setup: \${setup.body.toString("utf8").slice(0, 200)}\`).toBeLessThan(300);`,
      "  try {",
      ...body.map((l) => `  ${l}`),
      "  } finally {",
      '    const teardown = JSON.stringify({ ...JSON.parse(STATE), action: "teardown" });',
      '    await send(STATES_URL, "POST", { "content-type": "application/json", ...VIA_HEADERS() }, teardown).catch(() => undefined);',
      "  }",
    );
  else lines.push(...body);
  // Up to three requests (a state setup, the request, a renamed retry), each with its own timeout.
  lines.push("}, 3 * TIMEOUT_MS + 5_000);", "");
  return lines.filter((l, i, all) => !(l === "" && all[i - 1] === "")).join("\n");
}
