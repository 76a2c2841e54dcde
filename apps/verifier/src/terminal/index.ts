export {
  COLOURS,
  type ColourEnv,
  colourWanted,
  ESCAPES,
  type Paint,
  PLAIN,
  paintFor,
  visible,
} from "./colour.ts";
export {
  type BarState,
  barCells,
  durationText,
  etaMs,
  type LiveOptions,
  LiveProgress,
  renderBar,
} from "./progress.ts";
