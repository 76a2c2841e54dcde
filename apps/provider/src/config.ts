import { parseArgs } from "node:util";

export interface CliConfig {
  readonly port: number;
  readonly host: string;
  readonly db: string;
  readonly credentials: { readonly username: string; readonly password: string };
  readonly providerStates: boolean;
  readonly loginUsers: readonly string[];
  readonly otherLoginAppUsers: readonly string[];
}

export type CliParse =
  | { readonly kind: "run"; readonly config: CliConfig }
  | { readonly kind: "help" }
  | { readonly kind: "error"; readonly message: string };

export const DEFAULT_DB_FILE = "./idp-provider.sqlite";

export const USAGE = `Usage: idp-provider [options]

Serves the IDP API under /v1 (reference provider, SQLite-backed).

Options:
  --port N               port to listen on (default 8080; 0 picks a free one)
  --host H               address to bind (default 127.0.0.1)
  --db PATH              SQLite file, or :memory: (default ${DEFAULT_DB_FILE})
  --username U           Basic username (env IDP_USERNAME); required
  --password P           Basic password (env IDP_PASSWORD); required
  --provider-states      serve Pact's state-change endpoint at /_pact/provider-states
                         (unauthenticated: for contract verification only)
  --login-user ID        create a login user of this login app (repeatable)
  --other-login-user ID  create a login user of another login app (repeatable)
  -h, --help             show this help
`;

/** Turns argv and the environment into one validated config. Never throws, never exits. */
export function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliParse {
  let values: ReturnType<typeof parse>["values"];
  // `pnpm start -- --port 1` passes the "--" through (pnpm 12); a leading one is not a terminator here.
  const args = argv[0] === "--" ? argv.slice(1) : argv;
  try {
    values = parse(args).values;
  } catch (error) {
    // parseArgs explains some errors over several lines; the first names the flag.
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "error", message: message.split("\n")[0] ?? message };
  }
  if (values.help) return { kind: "help" };

  const portText = values.port ?? "8080";
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    return {
      kind: "error",
      message: `--port must be an integer from 0 to 65535, got "${portText}"`,
    };
  }
  const host = values.host ?? "127.0.0.1";
  if (host === "") return { kind: "error", message: "--host must not be empty" };
  const db = values.db ?? DEFAULT_DB_FILE;
  if (db === "") return { kind: "error", message: "--db must not be empty" };

  // No default password, ever: a reference server with known credentials would be an open door.
  const username = values.username ?? env.IDP_USERNAME;
  const password = values.password ?? env.IDP_PASSWORD;
  if (username === undefined || username === "") {
    return { kind: "error", message: "--username (or IDP_USERNAME) is required" };
  }
  if (password === undefined || password === "") {
    return { kind: "error", message: "--password (or IDP_PASSWORD) is required" };
  }
  if (username.includes(":")) {
    return { kind: "error", message: "--username must not contain a colon (RFC 7617 Basic)" };
  }
  return {
    kind: "run",
    config: {
      port,
      host,
      db,
      credentials: { username, password },
      providerStates: values["provider-states"] ?? false,
      loginUsers: values["login-user"] ?? [],
      otherLoginAppUsers: values["other-login-user"] ?? [],
    },
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      db: { type: "string" },
      username: { type: "string" },
      password: { type: "string" },
      "provider-states": { type: "boolean" },
      "login-user": { type: "string", multiple: true },
      "other-login-user": { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
}
