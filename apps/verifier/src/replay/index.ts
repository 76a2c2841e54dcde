export { expectedOf, pactExpected } from "./expected.ts";
export {
  assertReplayDirWritable,
  planReplay,
  replayFileName,
  replayPaths,
  stateOf,
  writeReplays,
} from "./files.ts";
export { expectedWords, type ReplaySpec, renderReplay } from "./render.ts";
export { type AuthExpr, evaluate, type ReplayAuth, replayAuthOf, toJs } from "./shell-auth.ts";
