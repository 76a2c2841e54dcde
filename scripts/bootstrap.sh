# Source this file: `. scripts/bootstrap.sh`. It makes Node >= 22.19 (the verifier's engines floor)
# and pnpm 12 available on PATH.
# When the machine's own Node is older (or pnpm is missing), it installs Node 24 and pnpm 12 from the
# npm registry into the git-ignored .tools/ (corepack does not work on our machines; toolchain.md §0).
# shellcheck shell=bash
_idp_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
_idp_node_version="24.21.0"
_idp_pnpm_version="12.21.0"

_idp_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  # 22.19 or later: @idp/verifier's engines (@idp/provider's node:sqlite needs 22.13).
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 19) ? 0 : 1)' 2>/dev/null
}
_idp_pnpm_ok() {
  command -v pnpm >/dev/null 2>&1 || return 1
  case "$(pnpm --version 2>/dev/null)" in 12.*) return 0 ;; *) return 1 ;; esac
}

if [ -x "$_idp_root/.tools/node_modules/.bin/node" ]; then
  export PATH="$_idp_root/.tools/node_modules/.bin:$PATH"
fi
if ! _idp_node_ok || ! _idp_pnpm_ok; then
  echo "bootstrap: installing node@$_idp_node_version and pnpm@$_idp_pnpm_version into .tools/" >&2
  # Two npm processes at once, pnpm into a prefix of its own (two npm runs must not share one):
  # node's preinstall fetches its binary meanwhile. Measured in fresh clones here: 11.9 s on
  # average against 13.3 s for one npm install of both (five of each, alternating), on the path
  # every fresh clone's CI run starts with.
  npm install --prefix "$_idp_root/.tools" --no-audit --no-fund --loglevel=error \
    "node@$_idp_node_version" >&2 &
  _idp_node_pid=$!
  npm install --prefix "$_idp_root/.tools/pnpm" --no-audit --no-fund --loglevel=error \
    "pnpm@$_idp_pnpm_version" >&2 &
  _idp_pnpm_pid=$!
  _idp_failed=""
  wait "$_idp_node_pid" || _idp_failed="node@$_idp_node_version"
  wait "$_idp_pnpm_pid" || _idp_failed="${_idp_failed:+$_idp_failed and }pnpm@$_idp_pnpm_version"
  if [ -z "$_idp_failed" ]; then
    ln -sf ../../pnpm/node_modules/.bin/pnpm "$_idp_root/.tools/node_modules/.bin/pnpm" ||
      _idp_failed="the link to pnpm in .tools/node_modules/.bin"
  fi
  if [ -n "$_idp_failed" ]; then
    echo "bootstrap: npm could not install $_idp_failed into .tools/ (is the npm registry reachable?)" >&2
    unset _idp_failed _idp_node_pid _idp_pnpm_pid
    return 2 2>/dev/null || exit 2
  fi
  unset _idp_failed _idp_node_pid _idp_pnpm_pid
  export PATH="$_idp_root/.tools/node_modules/.bin:$PATH"
fi
export TURBO_TELEMETRY_DISABLED=1 PACT_DO_NOT_TRACK=true SCARF_ANALYTICS=false
echo "bootstrap: node $(node --version), pnpm $(pnpm --version)" >&2
unset _idp_root _idp_node_version _idp_pnpm_version
unset -f _idp_node_ok _idp_pnpm_ok
