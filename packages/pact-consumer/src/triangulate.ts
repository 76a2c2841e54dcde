// Triangulation of the three descriptions of the IDP interface, offline:
//   zod contracts (@idp/contracts)  <->  recorded pacts (pacts/*.json)  <->  OpenAPI export.
// 1. zod:        every pact interaction is checked against the contracts (request body classified
//                by `classifyJsonBody`, status documented, error body `ErrorBody`, no success body).
// 2. openapi:    the export round-trips byte for byte and says what the contracts say about the
//                three detailed operations (statuses, request shape, error body).
// 3. comparator: every pact is compared with the export by @pactflow/openapi-pact-comparator.
// Bad input (no pacts, unreadable JSON, comparator missing) is a PactsCliError (exit 2); a check
// that finds a problem is a failed check (exit 1).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import {
  AUTHENTICATION_FAILED,
  authRejectionProblem,
  classifyRequestBody,
  DETAILED_OPERATION_IDS,
  type DetailedOperation,
  type DetailedOperationId,
  defaultProfile,
  detailedOperations,
  errorBodyProblem,
  expectedRejection,
  findBodyProblem,
  isJsonContentType,
  type ObservedResponse,
  openApiJson,
  type Problem,
  rejectionProblem,
  successBodyProblem,
  undocumentedStatusProblem,
} from "@idp/contracts";
import { PactsCliError } from "./errors.ts";
import { PACTS_DIR } from "./pact-names.ts";

export type TriangulationLayer = "zod" | "openapi" | "comparator";

/** One thing wrong, said about one interaction (its description) or about the whole source. */
export interface TriangulationProblem {
  readonly interaction?: string;
  readonly message: string;
}

export interface TriangulationCheck {
  readonly layer: TriangulationLayer;
  /** What was checked, e.g. the pact file (relative to the working directory) or the export. */
  readonly subject: string;
  /** One line: what holds, or what broke. */
  readonly summary: string;
  readonly ok: boolean;
  readonly problems: readonly TriangulationProblem[];
  /** Comparator warnings: shown, never failing. */
  readonly warnings: readonly TriangulationProblem[];
}

export interface TriangulationReport {
  readonly ok: boolean;
  readonly checks: readonly TriangulationCheck[];
  readonly pactFiles: readonly string[];
  readonly interactions: number;
  readonly durationMs: number;
}

export interface TriangulateOptions {
  /** Pact files or folders of `*.json` pacts; default: the repository's `pacts/`, else `./pacts`. */
  readonly pacts?: readonly string[];
  /** An OpenAPI export to check (e.g. docs/openapi.json); default: generated in memory. */
  readonly openapi?: string;
  /** For messages: paths are shown relative to this folder (default: the working directory). */
  readonly cwd?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Pact files: reading and the parts of V2/V3/V4 HTTP interactions the checks need.
// ---------------------------------------------------------------------------------------------

/** Expands files and folders (their `*.json`, sorted) into pact files. */
export function pactFilesFrom(paths: readonly string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    if (!existsSync(path))
      throw new PactsCliError("E_CONFIG", `pact path ${path} does not exist (--pacts PATH)`);
    if (statSync(path).isDirectory()) {
      const inDir = readdirSync(path)
        .filter((name) => name.endsWith(".json"))
        .sort()
        .map((name) => join(path, name));
      if (inDir.length === 0)
        throw new PactsCliError("E_CONFIG", `no pact files (*.json) in ${path}`);
      files.push(...inDir);
    } else {
      files.push(path);
    }
  }
  return files;
}

export interface PactDocument {
  readonly file: string;
  readonly json: Record<string, unknown>;
  readonly specVersion: number;
  readonly interactions: readonly Record<string, unknown>[];
}

/** Reads one pact file; anything that is not a pact with an `interactions` array is bad input. */
export function readPact(file: string): PactDocument {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new PactsCliError(
      "E_CONFIG",
      `cannot read pact ${file}: ${(cause as Error).message.split("\n")[0]}`,
      { cause },
    );
  }
  if (!isObject(json) || !Array.isArray(json.interactions))
    throw new PactsCliError("E_CONFIG", `${file} is not a pact file (no "interactions" array)`);
  const metadata = isObject(json.metadata) ? json.metadata : {};
  const spec =
    (isObject(metadata.pactSpecification) ? metadata.pactSpecification.version : undefined) ??
    (isObject(metadata["pact-specification"]) ? metadata["pact-specification"].version : undefined);
  const specVersion = typeof spec === "string" ? Number.parseInt(spec, 10) || 2 : 2;
  const interactions = json.interactions.map((interaction, index) => {
    if (!isObject(interaction))
      throw new PactsCliError("E_CONFIG", `${file}: interaction ${index} is not an object`);
    return interaction;
  });
  return { file, json, specVersion, interactions };
}

interface HttpPart {
  readonly headers: Readonly<Record<string, readonly string[]>>;
  /** Absent: no body. `text` is set when the body is not JSON (or is base64-encoded). */
  readonly body?: {
    readonly json?: unknown;
    readonly text?: string;
    readonly contentType?: string;
  };
}

function headersOf(part: Record<string, unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!isObject(part.headers)) return out;
  for (const [name, value] of Object.entries(part.headers)) {
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    out[name.toLowerCase()] = [...(out[name.toLowerCase()] ?? []), ...values];
  }
  return out;
}

/** V4 bodies are `{content, contentType, encoded}`; V2/V3 bodies are the JSON value itself. */
function httpPart(part: unknown, specVersion: number): HttpPart {
  const p = isObject(part) ? part : {};
  const headers = headersOf(p);
  if (!("body" in p) || p.body === undefined || p.body === null) return { headers };
  if (specVersion < 4) return { headers, body: { json: p.body } };
  const body = isObject(p.body) ? p.body : { content: p.body };
  const contentType =
    typeof body.contentType === "string" ? body.contentType : headers["content-type"]?.[0];
  const withType = contentType === undefined ? {} : { contentType };
  if (body.content === undefined || body.content === "") return { headers };
  if (body.encoded === "base64" || body.encoded === true) {
    const text = Buffer.from(String(body.content), "base64").toString("utf8");
    return { headers, body: { text, ...withType } };
  }
  if (typeof body.content === "string" && contentType && !isJsonContentType(contentType))
    return { headers, body: { text: body.content, ...withType } };
  return { headers, body: { json: body.content, ...withType } };
}

// ---------------------------------------------------------------------------------------------
// Layer 1: zod contracts <-> pacts.
// ---------------------------------------------------------------------------------------------

function templateRegex(path: string): RegExp {
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replace(/\{\w+\}/g, "[^/]+")}$`);
}

const OPERATION_ROUTES = DETAILED_OPERATION_IDS.map((id) => ({
  op: detailedOperations[id],
  regex: templateRegex(detailedOperations[id].path),
}));

/** The detailed operation a pact request addresses (method + path template), if any. */
export function operationFor(method: string, path: string): DetailedOperation | undefined {
  const bare = path.split("?")[0] ?? path;
  return OPERATION_ROUTES.find((r) => r.op.method === method.toUpperCase() && r.regex.test(bare))
    ?.op;
}

/** The pact's response as the contracts' judges read it (a V2/V3 JSON body is re-serialised). */
function observedResponse(status: number, res: HttpPart): ObservedResponse {
  const contentType = res.headers["content-type"]?.[0] ?? res.body?.contentType;
  const body = res.body === undefined ? "" : (res.body.text ?? JSON.stringify(res.body.json));
  return { status, contentType, body };
}

/** An R2 problem of the contracts' judge, said about a pact's expected response. */
function errorBodyMessage(problem: Problem, status: number, res: HttpPart): string {
  switch (problem.kind) {
    case "content-type":
      return `response: Content-Type is ${problem.received === "none" ? "missing" : problem.received}, an error answer is application/json (R2)`;
    case "not-json":
      return res.body === undefined
        ? `response: a ${status} has the error body {error, error_description, errors}, the pact expects none (R2)`
        : `response: the ${status} body is not JSON, expected the error body (R2)`;
    default:
      return `response: the ${status} body is not the error body (R2): ${problem.received}`;
  }
}

/** Every problem of one interaction against the zod contracts; empty when it conforms. */
export function interactionProblems(
  interaction: Record<string, unknown>,
  specVersion: number,
): string[] {
  const problems: string[] = [];
  if (specVersion >= 4 && interaction.type !== undefined && interaction.type !== "Synchronous/HTTP")
    return [
      `is a ${String(interaction.type)} interaction; the IDP interface is HTTP only (Synchronous/HTTP)`,
    ];
  const request = isObject(interaction.request) ? interaction.request : {};
  const response = isObject(interaction.response) ? interaction.response : {};
  const method = typeof request.method === "string" ? request.method.toUpperCase() : "";
  const path = typeof request.path === "string" ? request.path : "";
  const op = operationFor(method, path);
  if (!op) {
    return [
      `${method || "(no method)"} ${path || "(no path)"} is not an operation of @idp/contracts ` +
        `(detailed: ${OPERATION_ROUTES.map((r) => `${r.op.method} ${r.op.path}`).join(", ")}; ` +
        "paths are relative to the base address and start with /marketing/)",
    ];
  }
  const status = typeof response.status === "number" ? response.status : Number.NaN;
  const req = httpPart(request, specVersion);
  const res = httpPart(response, specVersion);

  // Request: credentials (R1) and the body against the operation's request shape (R4/R5, §3).
  if (status !== 401 && !/^Basic \S/.test(req.headers.authorization?.[0] ?? ""))
    problems.push(
      `request: expects ${status} without Basic credentials, but a request without acceptable credentials gets 401 (R1)`,
    );
  const reqType = req.headers["content-type"]?.[0] ?? req.body?.contentType;
  if (!req.body) {
    problems.push(`request: no body; ${op.id} takes a JSON body (${op.requestShape})`);
  } else {
    if (!isJsonContentType(reqType))
      problems.push(`request: Content-Type is ${reqType ?? "missing"}, expected application/json`);
    const raw = req.body.text ?? JSON.stringify(req.body.json);
    const classification = classifyRequestBody(op.id, raw);
    const violations = classification.outcome === "valid" ? "" : bodyWords(op.id, raw);
    if (status === 400 || status === 422) {
      if (classification.outcome === "valid")
        problems.push(
          `request: the body is a valid ${op.requestShape}, so a conforming provider accepts it; the pact expects ${status} (R4)`,
        );
      else if (classification.outcome === "unspecified")
        problems.push(
          `request: the body breaks only rules the default profile does not assert (${violations}); a conforming provider may accept it, the pact expects ${status}`,
        );
      else if (rejectionProblem(op.id, raw, status)) {
        const expected = expectedRejection(op.id, raw);
        problems.push(
          `request: the body is invalid (${violations}), which gets ${expected?.status} (conformance.md §3), but the pact expects ${status}`,
        );
      }
    } else if (status !== 401 && classification.outcome !== "valid") {
      // 401 is decided before the body; every other answer presumes a valid body (§3, order of checks).
      problems.push(
        `request: the body is not a valid ${op.requestShape} (${violations}), but the pact expects ${status}`,
      );
    }
  }

  // Response: documented status (R3), no success body (R8), error body (R1, R2), judged by the
  // contracts' own judges; only the wording here is about a pact.
  const observed = observedResponse(status, res);
  if (undocumentedStatusProblem(op.id, status)) {
    problems.push(
      `response: status ${Number.isNaN(status) ? "(none)" : status} is not documented for ${op.id} (documented: ${defaultProfile.documentedStatuses[op.id].join(", ")}) (R3)`,
    );
  } else if (status < 400) {
    if (successBodyProblem(observed))
      problems.push(`response: a ${status} carries no body (R8), the pact expects one`);
  } else {
    const bodyProblem = errorBodyProblem(observed);
    const authProblem = status === 401 ? authRejectionProblem(observed) : undefined;
    if (bodyProblem) problems.push(errorBodyMessage(bodyProblem, status, res));
    else if (authProblem)
      problems.push(
        `response: a 401 has error "${AUTHENTICATION_FAILED}" (R1), the pact has ${authProblem.received}`,
      );
  }
  return problems;
}

const describeInteraction = (interaction: Record<string, unknown>, index: number) =>
  typeof interaction.description === "string" && interaction.description !== ""
    ? interaction.description
    : `interaction ${index}`;

export function checkPactWithContracts(pact: PactDocument, subject: string): TriangulationCheck {
  const problems: TriangulationProblem[] = pact.interactions.flatMap((interaction, index) =>
    interactionProblems(interaction, pact.specVersion).map((message) => ({
      interaction: describeInteraction(interaction, index),
      message,
    })),
  );
  const broken = new Set(problems.map((p) => p.interaction)).size;
  const n = pact.interactions.length;
  return {
    layer: "zod",
    subject,
    ok: problems.length === 0 && n > 0,
    summary:
      n === 0
        ? `${subject}: no interactions to check`
        : problems.length === 0
          ? `${subject}: ${n} interactions conform to @idp/contracts (requests and responses)`
          : `${subject}: ${broken} of ${n} interactions break @idp/contracts`,
    problems: n === 0 ? [{ message: "the pact has no interactions; record them first" }] : problems,
    warnings: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Layer 2: the OpenAPI export round-trips and says what the contracts say.
// ---------------------------------------------------------------------------------------------

function firstDifference(a: string, b: string): string {
  const la = a.split("\n");
  const lb = b.split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i])
      return `line ${i + 1}: ${JSON.stringify((la[i] ?? "(end)").trim().slice(0, 80))} vs ${JSON.stringify((lb[i] ?? "(end)").trim().slice(0, 80))}`;
  }
  return "same lines";
}

/** Problems of an OpenAPI text against the contracts; `generated` is today's `openApiJson()`. */
export function openApiProblems(text: string, generated: string, fromFile: boolean): string[] {
  const problems: string[] = [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return [`not JSON: ${(error as Error).message}`];
  }
  const again = `${JSON.stringify(doc, null, 2)}\n`;
  if (again !== text)
    problems.push(
      `does not round-trip: JSON.parse then JSON.stringify(…, 2) differs at ${firstDifference(text, again)}`,
    );
  if (fromFile && text !== generated)
    problems.push(
      `differs from the export of @idp/contracts at ${firstDifference(text, generated)} ` +
        "(regenerate: pnpm --filter @idp/contracts openapi --out ../../docs/openapi.json)",
    );
  if (!isObject(doc)) return [...problems, "is not a JSON object"];
  if (typeof doc.openapi !== "string" || !doc.openapi.startsWith("3.1"))
    problems.push(`openapi is ${JSON.stringify(doc.openapi)}, expected 3.1.x`);
  const paths = isObject(doc.paths) ? doc.paths : {};
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const errorSchema = schemas.ErrorBody;
  const required =
    isObject(errorSchema) && Array.isArray(errorSchema.required) ? errorSchema.required : [];
  for (const key of ["error", "error_description", "errors"])
    if (!required.includes(key))
      problems.push(`components.schemas.ErrorBody does not require "${key}" (R2)`);
  for (const id of DETAILED_OPERATION_IDS) {
    const op = detailedOperations[id];
    const where = `${op.method} ${op.path}`;
    const pathItem = paths[op.path];
    const operation = isObject(pathItem) ? pathItem[op.method.toLowerCase()] : undefined;
    if (!isObject(operation)) {
      problems.push(`${where} (${id}) is missing`);
      continue;
    }
    if (operation.operationId !== id)
      problems.push(
        `${where}: operationId is ${JSON.stringify(operation.operationId)}, expected "${id}"`,
      );
    if (Boolean(operation.deprecated) !== Boolean(op.deprecated))
      problems.push(
        `${where}: deprecated is ${Boolean(operation.deprecated)}, the contracts say ${Boolean(op.deprecated)}`,
      );
    const requestBody = isObject(operation.requestBody) ? operation.requestBody : {};
    const content = isObject(requestBody.content) ? requestBody.content : {};
    const media = isObject(content["application/json"]) ? content["application/json"] : {};
    const ref = isObject(media.schema) ? media.schema.$ref : undefined;
    const expectedRef = `#/components/schemas/${op.requestShape}`;
    if (ref !== expectedRef)
      problems.push(
        `${where}: request body schema is ${JSON.stringify(ref)}, expected ${expectedRef}`,
      );
    else if (!isObject(schemas[op.requestShape]))
      problems.push(`${where}: ${expectedRef} is not defined`);
    const responses = isObject(operation.responses) ? operation.responses : {};
    const statuses = Object.keys(responses).sort().join(", ");
    const documented = op.documentedStatuses.map(String).sort().join(", ");
    if (statuses !== documented)
      problems.push(
        `${where}: responses are ${statuses || "(none)"}, the contracts document ${documented} (R3)`,
      );
    for (const status of op.documentedStatuses) {
      const answer = responses[String(status)];
      if (!isObject(answer)) continue;
      const answerContent = isObject(answer.content) ? answer.content : undefined;
      if (status < 400 && answerContent && Object.keys(answerContent).length > 0)
        problems.push(`${where}: ${status} has content, but a success answer carries no body (R8)`);
      if (status >= 400) {
        const json = answerContent?.["application/json"];
        const schemaRef = isObject(json) && isObject(json.schema) ? json.schema.$ref : undefined;
        if (schemaRef !== "#/components/schemas/ErrorBody")
          problems.push(`${where}: ${status} is not application/json ErrorBody (R2)`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Layer 3: @pactflow/openapi-pact-comparator, in process.
// ---------------------------------------------------------------------------------------------

/** What the comparator yields (its own typings do not resolve under NodeNext; see the README). */
interface ComparatorResult {
  readonly code: string;
  readonly message: string;
  readonly type: "error" | "warning" | "info";
  readonly mockDetails?: {
    readonly interactionDescription?: string | null;
    readonly location?: string;
    readonly value?: unknown;
  };
  readonly specDetails?: { readonly location?: string };
}
interface Comparator {
  compare(pact: unknown): AsyncIterable<ComparatorResult>;
}
interface ComparatorModule {
  readonly Comparator: new (options: { readonly oas: unknown }) => Comparator;
}

/** Resolved from this package at runtime; a non-literal specifier keeps it out of the bundle. */
export const COMPARATOR_PACKAGE: string = "@pactflow/openapi-pact-comparator";

export async function loadComparator(oas: unknown): Promise<Comparator> {
  let mod: ComparatorModule;
  try {
    mod = (await import(COMPARATOR_PACKAGE)) as ComparatorModule;
  } catch (cause) {
    throw new PactsCliError(
      "E_CONFIG",
      `cannot load ${COMPARATOR_PACKAGE} (${(cause as Error).message.split("\n")[0]}); install it next to @idp/pact-consumer`,
      { cause },
    );
  }
  return new mod.Comparator({ oas });
}

const comparatorProblem = (r: ComparatorResult): TriangulationProblem => {
  const where = r.mockDetails?.location ? ` at ${r.mockDetails.location}` : "";
  const description = r.mockDetails?.interactionDescription;
  return {
    ...(description ? { interaction: description } : {}),
    message: `${r.code}: ${r.message}${where}`,
  };
};

export async function comparePact(
  comparator: Comparator,
  pact: PactDocument,
  subject: string,
  against: string,
): Promise<TriangulationCheck> {
  const problems: TriangulationProblem[] = [];
  const warnings: TriangulationProblem[] = [];
  for await (const result of comparator.compare(pact.json)) {
    if (result.type === "error") problems.push(comparatorProblem(result));
    else if (result.type === "warning") warnings.push(comparatorProblem(result));
  }
  const broken = new Set(problems.map((p) => p.interaction)).size;
  return {
    layer: "comparator",
    subject,
    ok: problems.length === 0,
    summary:
      problems.length === 0
        ? `${subject}: compatible with ${against} (@pactflow/openapi-pact-comparator${warnings.length > 0 ? `, ${warnings.length} warnings` : ""})`
        : `${subject}: ${problems.length} incompatibilities with ${against} in ${broken} interactions (@pactflow/openapi-pact-comparator)`,
    problems,
    warnings,
  };
}

// ---------------------------------------------------------------------------------------------
// The whole triangulation, and its rendering.
// ---------------------------------------------------------------------------------------------

export async function triangulate(options: TriangulateOptions = {}): Promise<TriangulationReport> {
  const started = performance.now();
  const cwd = options.cwd ?? process.cwd();
  const show = (path: string) => {
    const rel = relative(cwd, path);
    return rel === "" || rel.startsWith("..") ? path : rel;
  };
  // Default: the repository's pacts/ (this package in the workspace), else ./pacts (installed).
  const defaultPacts = existsSync(PACTS_DIR) ? PACTS_DIR : join(cwd, "pacts");
  const pactPaths = (options.pacts?.length ? options.pacts : [defaultPacts]).map((p) =>
    resolve(cwd, p),
  );
  const files = pactFilesFrom(pactPaths);
  const pacts = files.map(readPact);

  const generated = openApiJson();
  let openApiText = generated;
  let openApiSubject = "the OpenAPI export of @idp/contracts";
  if (options.openapi !== undefined) {
    const file = resolve(cwd, options.openapi);
    try {
      openApiText = readFileSync(file, "utf8");
    } catch (cause) {
      throw new PactsCliError(
        "E_CONFIG",
        `cannot read --openapi ${options.openapi}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`,
        { cause },
      );
    }
    openApiSubject = show(file);
  }
  let oas: unknown;
  try {
    oas = JSON.parse(openApiText);
  } catch (cause) {
    throw new PactsCliError(
      "E_CONFIG",
      `${openApiSubject} is not JSON: ${(cause as Error).message}`,
      { cause },
    );
  }

  const checks: TriangulationCheck[] = [];
  for (const pact of pacts) checks.push(checkPactWithContracts(pact, show(pact.file)));

  const openApi = openApiProblems(openApiText, generated, options.openapi !== undefined);
  checks.push({
    layer: "openapi",
    subject: openApiSubject,
    ok: openApi.length === 0,
    summary:
      openApi.length === 0
        ? `${openApiSubject}: round-trips byte for byte${options.openapi !== undefined ? ", equals the export of @idp/contracts" : ""}, and documents the ${DETAILED_OPERATION_IDS.length} detailed operations as the contracts do`
        : `${openApiSubject}: ${openApi.length} problems`,
    problems: openApi.map((message) => ({ message })),
    warnings: [],
  });

  const comparator = await loadComparator(oas);
  for (const pact of pacts)
    checks.push(await comparePact(comparator, pact, show(pact.file), openApiSubject));

  return {
    ok: checks.every((c) => c.ok),
    checks,
    pactFiles: files,
    interactions: pacts.reduce((n, p) => n + p.interactions.length, 0),
    durationMs: performance.now() - started,
  };
}

const line = (p: TriangulationProblem) =>
  p.interaction === undefined ? p.message : `"${p.interaction}": ${p.message}`;

/** One line per check (✓/✗ layer: summary), the problems indented under a failed one. */
export function renderTriangulation(report: TriangulationReport): string {
  const out: string[] = [];
  for (const check of report.checks) {
    out.push(`${check.ok ? "✓" : "✗"} ${check.layer}: ${check.summary}`);
    for (const p of check.problems) out.push(`    ${line(p)}`);
    for (const w of check.warnings) out.push(`    warning: ${line(w)}`);
  }
  const failed = report.checks.filter((c) => !c.ok).length;
  out.push(
    `contracts:check: ${report.ok ? "passed" : "FAILED"}, ${report.checks.length - failed} of ${report.checks.length} checks passed, ` +
      `${report.interactions} interactions in ${report.pactFiles.length} pact files, ${Math.round(report.durationMs)} ms`,
  );
  return `${out.join("\n")}\n`;
}

/** What a pact's request body breaks, in plain words: `at schema.name: received 42 (an integer); expected a string`. */
function bodyWords(operation: DetailedOperationId, raw: string): string {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return `received text that is not JSON; expected a JSON object`;
  }
  const f = findBodyProblem(operation, body, { profile: defaultProfile });
  return f ? `at ${f.path}: received ${f.received}; expected ${f.expected}` : "";
}
