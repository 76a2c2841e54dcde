import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The consumer name in the pact file and on the broker. */
export const PACT_CONSUMER = "idp-toolkit-consumer";
/** The provider name in the pact file and on the broker. */
export const PACT_PROVIDER = "idp-service";

const REPO_PACTS = fileURLToPath(new URL("../../../pacts/", import.meta.url));

/**
 * The repository's top-level `pacts/` folder, resolved from this module (src/ or dist/, both one
 * level below the package) when it runs inside this repo; once installed from a registry the
 * package sits in node_modules, so the `pacts/` of the working directory is meant instead.
 */
export const PACTS_DIR = existsSync(join(REPO_PACTS, "..", "pnpm-workspace.yaml"))
  ? REPO_PACTS
  : join(process.cwd(), "pacts/");

/** `pacts/idp-toolkit-consumer-idp-service.json`, the one pact file this package records. */
export const PACT_FILE = `${PACTS_DIR}${PACT_CONSUMER}-${PACT_PROVIDER}.json`;
