/**
 * The ```ts example blocks of a README's text, in order, each without its fences: what its test
 * runs (readme-example.ts) and what its package's typecheck checks (scripts/readme-example.mjs),
 * read the same way by both. No imports: the script loads this file with Node's type stripping.
 */
export function readmeExampleBlocks(readme: string): string[] {
  return [...readme.matchAll(/^```ts example\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
}
