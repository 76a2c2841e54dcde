import { z } from "zod";
import { type BrokerSettings, brokerAuthorization, brokerRefusal } from "./broker-settings.ts";
import { PactsCliError } from "./errors.ts";

// The Pact Broker's HAL API, read directly (GET only): its index resources (pacticipants, versions,
// environments, integrations, deployed and released versions) and its matrix. Every answer is parsed
// with zod at this boundary, so the rest of idp-pacts works on checked data; a refusal of the login
// is one line saying what to change, anything else a broker would not answer is one line naming the
// resource, what was received and what was expected.

const Link = z.object({ href: z.string() });

const Environments = z.object({
  _embedded: z
    .object({
      environments: z.array(
        z.object({ uuid: z.string(), name: z.string(), production: z.boolean().optional() }),
      ),
    })
    .optional(),
});

const Integrations = z.object({
  _embedded: z
    .object({
      integrations: z.array(
        z.object({
          consumer: z.object({ name: z.string() }),
          provider: z.object({ name: z.string() }),
        }),
      ),
    })
    .optional(),
});

const Pacticipants = z.object({
  _embedded: z.object({ pacticipants: z.array(z.object({ name: z.string() })) }).optional(),
});

const VersionEntry = z.object({
  _embedded: z.object({
    pacticipant: z.object({ name: z.string() }),
    version: z.object({ number: z.string() }),
  }),
});
const DeployedVersions = z.object({
  _embedded: z.object({ deployedVersions: z.array(VersionEntry) }).optional(),
});
const ReleasedVersions = z.object({
  _embedded: z.object({ releasedVersions: z.array(VersionEntry) }).optional(),
});

const RowVersion = z.object({ number: z.string(), branch: z.string().nullish() });
const MatrixRow = z.object({
  consumer: z.object({ name: z.string(), version: RowVersion }),
  provider: z.object({ name: z.string(), version: RowVersion.nullable() }),
  pact: z.object({ createdAt: z.string().nullish(), _links: z.object({ self: Link }).optional() }),
  verificationResult: z
    .object({
      success: z.boolean(),
      verifiedAt: z.string().nullish(),
      _links: z.object({ self: Link }).optional(),
    })
    .nullable(),
  ignored: z.boolean().optional(),
});
const Matrix = z.object({
  summary: z.object({ deployable: z.boolean().nullable(), reason: z.string() }),
  matrix: z.array(MatrixRow),
});

/** One row of the broker's matrix: a pact and, if any, one verification of it. */
export type MatrixRow = z.output<typeof MatrixRow>;
/** The broker's matrix for a query: its own verdict and the rows it considered. */
export type MatrixAnswer = z.output<typeof Matrix>;

/** An environment the broker knows. */
export interface BrokerEnvironment {
  readonly uuid: string;
  readonly name: string;
  readonly production: boolean;
}

/** A consumer and a provider with a pact between them. */
export interface Integration {
  readonly consumer: string;
  readonly provider: string;
}

/** A version of a pacticipant recorded in an environment. */
export interface RecordedVersion {
  readonly pacticipant: string;
  readonly version: string;
  /** `deployed` (record-deployment) or `released` (record-release, still supported). */
  readonly how: "deployed" | "released";
}

/** Options of the API client. */
export interface BrokerApiOptions {
  /** @defaultValue the global fetch */
  readonly fetch?: typeof fetch;
  /** Per request. @defaultValue 30 000 */
  readonly timeoutMs?: number;
}

const enc = encodeURIComponent;

/** `at matrix[0].provider.name: received 7 (a number); expected a string`, from zod's first issue. */
function issueText(error: z.ZodError, data: unknown): string {
  const issue = error.issues[0];
  if (!issue) return "not what was expected";
  const path = issue.path.reduce<string>(
    (text, seg) =>
      typeof seg === "number" ? `${text}[${seg}]` : text ? `${text}.${String(seg)}` : String(seg),
    "",
  );
  let node: unknown = data;
  for (const seg of issue.path) node = (node as Record<PropertyKey, unknown> | undefined)?.[seg];
  const received =
    node === undefined
      ? "nothing"
      : `${JSON.stringify(node)?.slice(0, 60)} (${node === null ? "null" : Array.isArray(node) ? "an array" : `a ${typeof node}`})`;
  const expected = /expected (\w+)/.exec(issue.message)?.[1];
  return `at ${path || "(the answer)"}: received ${received}; expected ${expected ? `a value of type ${expected}` : issue.message}`;
}

/** A read-only client of one broker's HAL API. */
export class BrokerApi {
  readonly settings: BrokerSettings;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(settings: BrokerSettings, options: BrokerApiOptions = {}) {
    this.settings = settings;
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** GET `path` (from the broker's base URL), parsed with `schema`; `undefined` on 404. */
  async #get<T extends z.ZodType>(
    path: string,
    schema: T,
    what: string,
  ): Promise<z.output<T> | undefined> {
    const url = `${this.settings.baseUrl}${path}`;
    const where = `the Pact Broker at ${this.settings.baseUrl}`;
    let res: Response;
    try {
      res = await this.#fetch(url, {
        headers: {
          accept: "application/hal+json, application/json",
          ...(this.settings.login
            ? { authorization: brokerAuthorization(this.settings.login) }
            : {}),
        },
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (cause) {
      const why = (cause as { cause?: { code?: string } }).cause?.code ?? (cause as Error).name;
      throw new PactsCliError(
        "E_BROKER_ANSWER",
        `cannot reach ${where} (GET ${path}: ${why}); check PACT_BROKER_BASE_URL`,
        { cause },
      );
    }
    const text = await res.text();
    if (res.status === 404) return undefined;
    const refused = brokerRefusal(res.status, this.settings, false);
    if (refused) throw new PactsCliError("E_BROKER_REFUSED", refused);
    if (!res.ok)
      throw new PactsCliError(
        "E_BROKER_ANSWER",
        `${where} answered GET ${path} with ${res.status}: ${text.split("\n")[0]?.slice(0, 200) ?? ""}; expected ${what}`,
      );
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (cause) {
      throw new PactsCliError(
        "E_BROKER_ANSWER",
        `${where} answered GET ${path} with text that is not JSON (${JSON.stringify(text.slice(0, 60))}); expected ${what} (is PACT_BROKER_BASE_URL the broker's address?)`,
        { cause },
      );
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success)
      throw new PactsCliError(
        "E_BROKER_ANSWER",
        `${where} answered GET ${path} with JSON that is not ${what}: ${issueText(parsed.error, data)}`,
      );
    return parsed.data;
  }

  /** The names of every pacticipant the broker knows. */
  async pacticipants(): Promise<string[]> {
    const doc = await this.#get("/pacticipants", Pacticipants, "the broker's pacticipants");
    return (doc?._embedded?.pacticipants ?? []).map((p) => p.name);
  }

  /** Whether the broker knows this pacticipant. */
  async hasPacticipant(name: string): Promise<boolean> {
    return (
      (await this.#get(`/pacticipants/${enc(name)}`, z.object({}), "a pacticipant")) !== undefined
    );
  }

  /** Whether the broker knows this version of the pacticipant. */
  async hasVersion(pacticipant: string, version: string): Promise<boolean> {
    const doc = await this.#get(
      `/pacticipants/${enc(pacticipant)}/versions/${enc(version)}`,
      z.object({}),
      "a pacticipant version",
    );
    return doc !== undefined;
  }

  /** Every environment the broker knows (a fresh broker has none). */
  async environments(): Promise<BrokerEnvironment[]> {
    const doc = await this.#get("/environments", Environments, "the broker's environments");
    return (doc?._embedded?.environments ?? []).map((e) => ({
      uuid: e.uuid,
      name: e.name,
      production: e.production ?? false,
    }));
  }

  /** Every integration (consumer and provider with a pact between them). */
  async integrations(): Promise<Integration[]> {
    const doc = await this.#get("/integrations", Integrations, "the broker's integrations");
    return (doc?._embedded?.integrations ?? []).map((i) => ({
      consumer: i.consumer.name,
      provider: i.provider.name,
    }));
  }

  /** The versions currently deployed, or released and supported, in an environment. */
  async versionsIn(environment: BrokerEnvironment): Promise<RecordedVersion[]> {
    const base = `/environments/${enc(environment.uuid)}`;
    const [deployed, released] = await Promise.all([
      this.#get(
        `${base}/deployed-versions/currently-deployed`,
        DeployedVersions,
        "deployed versions",
      ),
      this.#get(
        `${base}/released-versions/currently-supported`,
        ReleasedVersions,
        "released versions",
      ),
    ]);
    const entry = (how: RecordedVersion["how"]) => (e: z.output<typeof VersionEntry>) => ({
      pacticipant: e._embedded.pacticipant.name,
      version: e._embedded.version.number,
      how,
    });
    return [
      ...(deployed?._embedded?.deployedVersions ?? []).map(entry("deployed")),
      ...(released?._embedded?.releasedVersions ?? []).map(entry("released")),
    ];
  }

  /**
   * The matrix: `selectors` (a pacticipant, and optionally its version), with the broker's own
   * options (`latestby`, `environment`, `success`, `limit`).
   */
  async matrix(
    selectors: readonly { readonly pacticipant: string; readonly version?: string }[],
    options: {
      readonly latestby?: "cvp" | "cvpv";
      readonly environment?: string;
      readonly success?: readonly boolean[];
      readonly limit?: number;
    } = {},
  ): Promise<MatrixAnswer> {
    const query = [
      ...selectors.flatMap((s) => [
        `q[][pacticipant]=${enc(s.pacticipant)}`,
        ...(s.version !== undefined ? [`q[][version]=${enc(s.version)}`] : []),
      ]),
      ...(options.latestby ? [`latestby=${options.latestby}`] : []),
      ...(options.environment ? [`environment=${enc(options.environment)}`] : []),
      ...(options.success ?? []).map((s) => `success[]=${s}`),
      `limit=${options.limit ?? 1000}`,
    ].join("&");
    const doc = await this.#get(`/matrix?${query}`, Matrix, "the broker's matrix");
    if (!doc)
      throw new PactsCliError(
        "E_BROKER_ANSWER",
        `the Pact Broker at ${this.settings.baseUrl} has no matrix (GET /matrix answered 404); expected a Pact Broker`,
      );
    return doc;
  }
}
