import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { didYouMean } from "./did-you-mean.ts";
import { ProfileError } from "./profile-error.ts";
import { BUILT_IN_PROFILES, profileFromFile } from "./profile-file.ts";
import type { ContractProfile } from "./profiles.ts";

const firstLine = (text: string) => (text.split("\n")[0] ?? "").trim();

const WHY_UNREADABLE: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EISDIR: "a directory",
  EACCES: "a file it may not read (permission denied)",
};

/**
 * The profile a `--profile` argument names: `"default"`, `"strict"`, or the path of a profile file
 * (conformance.md §6; relative to `options.cwd`, default the working directory). Throws a
 * {@link ProfileError} with a one-line message naming the file, the key and what was expected
 * when the file cannot be read, is not JSON, or is not a valid profile.
 */
export function loadProfile(
  spec: string,
  options: { readonly cwd?: string } = {},
): ContractProfile {
  if (spec === "default" || spec === "strict") return BUILT_IN_PROFILES[spec];
  const path = resolve(options.cwd ?? process.cwd(), spec);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code ?? "";
    const close = didYouMean(spec, ["default", "strict"]);
    throw new ProfileError(
      {
        file: spec,
        expected: '"default", "strict" or the path of a readable JSON profile file',
        received: WHY_UNREADABLE[code] ?? firstLine((cause as Error).message),
        note: close === undefined ? undefined : `did you mean "${close}"?`,
      },
      { cause },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ProfileError(
      {
        file: spec,
        expected: "a JSON object (conformance.md §6)",
        received: `text that is not JSON (${firstLine((cause as Error).message)})`,
      },
      { cause },
    );
  }
  return profileFromFile(json, spec);
}
