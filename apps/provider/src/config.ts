import { CliError, type FlagTable, parseFlagValues, readFlags } from "@idp/contracts/cli";
import { z } from "zod";

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

/** idp-provider's flags, read by the toolkit's shared parser (@idp/contracts/cli). */
const FLAGS = {
  port: { type: "string", value: "N", description: "port to listen on" },
  host: { type: "string", value: "H", description: "address to bind" },
  db: { type: "string", value: "PATH", description: "SQLite file, or :memory:" },
  username: { type: "string", value: "U", env: ["IDP_USERNAME"], description: "Basic username" },
  password: { type: "string", value: "P", env: ["IDP_PASSWORD"], description: "Basic password" },
  "provider-states": { type: "boolean", description: "serve Pact's state-change endpoint" },
  "login-user": { type: "string", multiple: true, value: "ID", description: "login user" },
  "other-login-user": { type: "string", multiple: true, value: "ID", description: "other app" },
  help: { type: "boolean", short: "h", description: "show this help" },
} as const satisfies FlagTable;

const configSchema = z
  .object({
    port: z
      .string()
      .default("8080")
      .refine((t) => /^\d{1,5}$/.test(t) && Number(t) <= 65535, {
        error: (i) => `--port must be an integer from 0 to 65535, got "${String(i.input)}"`,
      })
      .transform(Number),
    host: z
      .string()
      .default("127.0.0.1")
      .refine((h) => h !== "", "--host must not be empty"),
    db: z
      .string()
      .default(DEFAULT_DB_FILE)
      .refine((d) => d !== "", "--db must not be empty"),
    // No default password, ever: a reference server with known credentials would be an open door.
    username: z
      .string("--username (or IDP_USERNAME) is required")
      .refine((u) => u !== "", "--username (or IDP_USERNAME) is required")
      .refine((u) => !u.includes(":"), "--username must not contain a colon (RFC 7617 Basic)"),
    password: z
      .string("--password (or IDP_PASSWORD) is required")
      .refine((p) => p !== "", "--password (or IDP_PASSWORD) is required"),
    "provider-states": z.boolean().default(false),
    "login-user": z.array(z.string()).default([]),
    "other-login-user": z.array(z.string()).default([]),
  })
  .transform(
    (v): CliConfig => ({
      port: v.port,
      host: v.host,
      db: v.db,
      credentials: { username: v.username, password: v.password },
      providerStates: v["provider-states"],
      loginUsers: v["login-user"],
      otherLoginAppUsers: v["other-login-user"],
    }),
  );

/** Turns argv and the environment into one validated config. Never throws, never exits. */
export function parseCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliParse {
  // `pnpm start -- --port 1` passes the "--" through (pnpm 12); a leading one is not a terminator here.
  const args = argv[0] === "--" ? argv.slice(1) : argv;
  try {
    const { values } = readFlags(FLAGS, args, env);
    if (values.help) return { kind: "help" };
    return { kind: "run", config: parseFlagValues(configSchema, values) };
  } catch (error) {
    if (error instanceof CliError) return { kind: "error", message: error.message };
    throw error;
  }
}
