import { packageVersion } from "@idp/contracts/cli";

/** This package's version (from its package.json, in the workspace and when installed). */
export const VERSION: string = packageVersion(import.meta.url);
