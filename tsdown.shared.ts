// What every package's build may bundle and import: nothing from node_modules or another workspace
// package is bundled, and the output imports only what package.json declares (dependencies and
// peerDependencies, plus `optional` imports loaded with import() when installed). A build that
// breaks this fails; scripts/check-dist-deps.mjs checks the dists again in `pnpm test`.

interface Manifest {
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

export const declaredDeps = (manifest: Manifest, optional: readonly string[] = []) => ({
  neverBundle: [/^@idp\//],
  onlyBundle: [],
  onlyImport: [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...optional,
  ],
});
