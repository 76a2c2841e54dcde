import { fileURLToPath } from "node:url";

/** The consumer name in the pact file and on the broker. */
export const PACT_CONSUMER = "idp-toolkit-consumer";
/** The provider name in the pact file and on the broker. */
export const PACT_PROVIDER = "idp-service";

/**
 * The repository's top-level `pacts/` folder, resolved from this module (src/ or dist/, both one
 * level below the package), never from the working directory.
 */
export const PACTS_DIR = fileURLToPath(new URL("../../../pacts/", import.meta.url));

/** `pacts/idp-toolkit-consumer-idp-service.json`, the one pact file this package records. */
export const PACT_FILE = `${PACTS_DIR}${PACT_CONSUMER}-${PACT_PROVIDER}.json`;
