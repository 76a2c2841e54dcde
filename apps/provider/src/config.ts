import {
  CliError,
  type FlagTable,
  flagsHelp,
  parseFlagValues,
  readFlags,
} from "@idp/contracts/cli";
import { z } from "zod";

/** What `parseCli` makes of the command line: a config to run, a request for help, or one error line. */
export type CliParse =
  | { readonly kind: "run"; readonly config: CliConfig }
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "error"; readonly message: string };

export const DEFAULT_DB_FILE = "./idp-provider.sqlite";

/** The defaults, as the flags' text (zod reads them like a given value; `--help` shows them). */
const DEFAULTS = { port: "8080", host: "127.0.0.1", db: DEFAULT_DB_FILE } as const;

/** idp-provider's flags, read by the toolkit's shared parser (@idp/contracts/cli). */
export const FLAGS = {
  port: {
    type: "string",
    value: "N",
    defaultText: DEFAULTS.port,
    description: "port to listen on; 0 picks a free one",
  },
  host: { type: "string", value: "H", defaultText: DEFAULTS.host, description: "address to bind" },
  db: {
    type: "string",
    value: "PATH",
    defaultText: DEFAULTS.db,
    description: "SQLite file, or :memory:",
  },
  username: {
    type: "string",
    value: "U",
    env: ["IDP_USERNAME"],
    description: "Basic username, required: there is no default login",
  },
  password: {
    type: "string",
    value: "P",
    env: ["IDP_PASSWORD"],
    description: "Basic password, required; prefer IDP_PASSWORD: shells and pnpm echo arguments",
  },
  "provider-states": {
    type: "boolean",
    description:
      "serve Pact's state-change endpoint at /_pact/provider-states (unauthenticated: for contract verification only)",
  },
  "login-user": {
    type: "string",
    multiple: true,
    value: "ID",
    description: "create a login user of this login app (repeatable)",
  },
  "other-login-user": {
    type: "string",
    multiple: true,
    value: "ID",
    description: "create a login user of another login app (repeatable)",
  },
  help: { type: "boolean", short: "h", description: "show this help" },
  version: { type: "boolean", description: "print the version and exit" },
} as const satisfies FlagTable;

/** `idp-provider --help`, from the flag table. */
export const helpText = (): string =>
  [
    "Usage: idp-provider [options]",
    "",
    "Serves the IDP API under /v1 (reference provider, SQLite-backed).",
    "",
    ...flagsHelp(FLAGS),
    "Exit status: 0 stopped by SIGTERM or SIGINT; 1 it could not listen; 2 bad arguments or a",
    "database it cannot open (one line on stderr).",
    "",
  ].join("\n");

const configSchema = z
  .object({
    port: z
      .string()
      .default(DEFAULTS.port)
      .refine((t) => /^\d{1,5}$/.test(t) && Number(t) <= 65535, {
        error: (i) => `--port must be an integer from 0 to 65535, got "${String(i.input)}"`,
      })
      .transform(Number),
    host: z
      .string()
      .default(DEFAULTS.host)
      .refine((h) => h !== "", "--host must not be empty"),
    db: z
      .string()
      .default(DEFAULTS.db)
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
  .transform((v) => ({
    port: v.port,
    host: v.host,
    db: v.db,
    credentials: { username: v.username, password: v.password },
    providerStates: v["provider-states"],
    loginUsers: v["login-user"],
    otherLoginAppUsers: v["other-login-user"],
  }));

/** What idp-provider runs with: the flags and environment as zod read them. */
export type CliConfig = z.output<typeof configSchema>;

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
    if (values.version) return { kind: "version" };
    return { kind: "run", config: parseFlagValues(configSchema, values) };
  } catch (error) {
    if (error instanceof CliError) return { kind: "error", message: error.message };
    throw error;
  }
}
