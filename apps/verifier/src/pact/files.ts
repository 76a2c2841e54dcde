import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { BrokerAuth, PactSource } from "../config/parse.ts";
import { firstLineOf, VerifyError } from "../errors.ts";
import type { ProxySettings, TlsSettings } from "../http/settings.ts";
import { transportFor } from "../http/transport.ts";
import type { Secrets } from "../secrets.ts";
import { refusalText } from "./broker.ts";

// Pact files are read with zod: what idp-verify needs of them (names, descriptions, states, the
// request Pact will send) is checked; everything else passes through to Pact's verifier untouched.

const StateUse = z.object({
  name: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});

const Interaction = z.looseObject({
  description: z.string({ error: "every interaction needs a description (string)" }),
  type: z.string().optional(),
  providerState: z.string().optional(),
  providerStates: z.array(StateUse).optional(),
  request: z
    .looseObject({
      method: z.string(),
      path: z.string(),
    })
    .optional(),
});

const PactDocument = z.looseObject({
  consumer: z.object({ name: z.string() }, { error: "consumer.name (string) is missing" }),
  provider: z.object({ name: z.string() }, { error: "provider.name (string) is missing" }),
  interactions: z.array(z.unknown(), { error: "interactions (array) is missing" }),
});

export interface PactStateUse {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface PactInteraction {
  readonly description: string;
  readonly providerStates: readonly PactStateUse[];
  readonly method?: string;
  readonly path?: string;
  /** The interaction as in the file (what a subset copy of the pact holds). */
  readonly raw: unknown;
}

export interface PactFile {
  /** Where it came from, as the user gave it (a path or a URL without user-info). */
  readonly location: string;
  readonly source: PactSource;
  readonly consumer: string;
  readonly provider: string;
  readonly interactions: readonly PactInteraction[];
  /** The whole document, for subset copies. */
  readonly document: Readonly<Record<string, unknown>>;
}

/** Parses one pact document. @throws VerifyError E_PACT_UNREADABLE naming the pact and the field. */
export function parsePact(text: string, location: string, source: PactSource): PactFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new VerifyError("E_PACT_UNREADABLE", `pact ${location} is not JSON: ${firstLineOf(e)}`);
  }
  const doc = PactDocument.safeParse(json);
  if (!doc.success)
    throw new VerifyError(
      "E_PACT_UNREADABLE",
      `pact ${location} is not a pact file: ${issueText(doc.error)}`,
    );
  const interactions = doc.data.interactions.map((raw, i): PactInteraction => {
    const it = Interaction.safeParse(raw);
    if (!it.success)
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `pact ${location}: interactions[${i}]: ${issueText(it.error)}`,
      );
    const states = it.data.providerStates
      ? it.data.providerStates.map((s) => ({ name: s.name, params: s.params ?? {} }))
      : it.data.providerState
        ? [{ name: it.data.providerState, params: {} }]
        : [];
    return {
      description: it.data.description,
      providerStates: states,
      ...(it.data.request ? { method: it.data.request.method, path: it.data.request.path } : {}),
      raw,
    };
  });
  return {
    location,
    source,
    consumer: doc.data.consumer.name,
    provider: doc.data.provider.name,
    interactions,
    document: doc.data as Record<string, unknown>,
  };
}

const issueText = (e: z.ZodError): string => {
  const issue = e.issues[0];
  const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue?.message ?? "invalid"}`;
};

/** Files of a folder: every *.json inside (not recursive), sorted. */
function filesOf(path: string): string[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new VerifyError(
      "E_PACT_UNREADABLE",
      `cannot read pact path ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  if (!isDir) return [path];
  return readdirSync(path)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => join(path, f));
}

/**
 * Reads every pact source before anything else runs: files, folders (every *.json inside) and
 * http(s) URLs (body capped at 16 MiB, no redirects). A source that holds no pact is exit 2.
 */
export async function loadPacts(
  sources: readonly PactSource[],
  options: {
    readonly timeoutMs: number;
    readonly secrets: Secrets;
    readonly auth?: BrokerAuth;
    readonly proxy?: ProxySettings;
    /** The run's TLS settings (`--ca-cert`, `--insecure`, client certificate): the broker's too. */
    readonly tls?: TlsSettings;
  },
): Promise<PactFile[]> {
  const out: PactFile[] = [];
  for (const source of sources) {
    if (source.kind === "path") {
      const files = filesOf(source.path);
      if (files.length === 0)
        throw new VerifyError("E_NO_PACTS", `no pact files (*.json) in ${source.path}`);
      for (const file of files) {
        let text: string;
        try {
          text = readFileSync(file, "utf8");
        } catch (e) {
          throw new VerifyError(
            "E_PACT_UNREADABLE",
            `cannot read pact ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
          );
        }
        out.push(parsePact(text, file, { kind: "path", path: file }));
      }
    } else out.push(parsePact(await fetchPact(source, options), source.url, source));
  }
  return out;
}

async function fetchPact(
  source: Extract<PactSource, { kind: "url" }>,
  options: {
    readonly timeoutMs: number;
    readonly secrets: Secrets;
    readonly auth?: BrokerAuth;
    readonly proxy?: ProxySettings;
    /** The run's TLS settings (`--ca-cert`, `--insecure`, client certificate): the broker's too. */
    readonly tls?: TlsSettings;
  },
): Promise<string> {
  const u = new URL(source.url);
  const pool = transportFor(u.origin, {
    connections: 1,
    proxy: options.proxy ?? {},
    ...(options.tls ? { tls: options.tls } : {}),
  });
  try {
    const res = await pool.send(
      {
        method: "GET",
        path: `${u.pathname}${u.search}`,
        headers: {
          accept: "application/hal+json, application/json",
          ...(source.authorization ? { authorization: source.authorization } : {}),
        },
      },
      { timeoutMs: options.timeoutMs, maxBodyBytes: 16 * 1024 * 1024 },
    );
    if (res.kind === "transport-error")
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `cannot fetch pact ${source.url}: ${res.code}: ${options.secrets.scrub(res.message)}`,
      );
    if (res.status !== 200)
      throw new VerifyError(
        "E_PACT_UNREADABLE",
        `cannot fetch pact ${source.url}: it answered ${refusalText(res.status, options.auth)}`,
      );
    if (res.truncated)
      throw new VerifyError("E_PACT_UNREADABLE", `pact ${source.url} is larger than 16 MiB`);
    return res.body.toString("utf8");
  } finally {
    await pool.destroy();
  }
}
