import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { PactsCliError } from "./errors.ts";

// The consumer a repository's pacts name: idp-pacts' default pacticipant (conformance.md §5), so a
// consumer team's can-i-deploy asks about the team's consumer, never about this toolkit's demo one.

const PactNames = z.object({
  consumer: z.object({ name: z.string().min(1) }),
  provider: z.object({ name: z.string().min(1) }),
});

/**
 * The one consumer named by the pact files (`*.json`) of `dir`.
 * @throws PactsCliError E_CONFIG when there are none, a file is not a pact, or they name several.
 */
export function consumerOfPacts(dir: string): string {
  const ask = "give --pacticipant NAME (or --pacts-dir DIR: the folder of your pact files)";
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new PactsCliError(
      "E_CONFIG",
      `no --pacticipant, and no pact folder ${dir} to take the consumer's name from: ${ask}`,
    );
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort();
  if (files.length === 0)
    throw new PactsCliError(
      "E_CONFIG",
      `no --pacticipant, and no pact files (*.json) in ${dir} to take the consumer's name from: ${ask}`,
    );
  const names = new Map<string, string[]>();
  for (const file of files) {
    const path = join(dir, file);
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      throw new PactsCliError(
        "E_CONFIG",
        `${path} is not JSON; expected a pact file (--pacts-dir holds only pact files)`,
      );
    }
    const parsed = PactNames.safeParse(doc);
    if (!parsed.success)
      throw new PactsCliError(
        "E_CONFIG",
        `${path} names no consumer: received ${JSON.stringify((doc as { consumer?: unknown })?.consumer ?? null)} at consumer; expected {"name": "<your consumer>"} (a pact file)`,
      );
    const name = parsed.data.consumer.name;
    names.set(name, [...(names.get(name) ?? []), file]);
  }
  if (names.size > 1)
    throw new PactsCliError(
      "E_CONFIG",
      `the pact files of ${dir} name ${names.size} consumers (${[...names].map(([n, f]) => `${n} in ${f.join(", ")}`).join("; ")}): give --pacticipant NAME`,
    );
  return [...names.keys()][0] as string;
}
