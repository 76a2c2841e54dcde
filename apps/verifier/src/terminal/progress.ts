import type { Paint } from "./colour.ts";
import { PLAIN } from "./colour.ts";

/** What the bar shows: conformance runs and pact interactions done of those planned, and time. */
export interface BarState {
  readonly runs: { readonly done: number; readonly total: number };
  readonly pacts: { readonly done: number; readonly total: number };
  readonly elapsedMs: number;
}

/** `8 s`, `2 min 05 s`, `1 h 02 min`: whole seconds, for a line that changes every 100 ms. */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

/**
 * Time left at the rate so far, or undefined before it means anything (nothing done yet, or under
 * a second of data) and once everything is done.
 */
export function etaMs(done: number, total: number, elapsedMs: number): number | undefined {
  if (done <= 0 || done >= total || elapsedMs < 1000) return undefined;
  return (elapsedMs * (total - done)) / done;
}

const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
const MAX_BAR = 30;
const MIN_BAR = 8;

/** `███▌    `: `fraction` of `width` cells, in eighths of a cell. */
export function barCells(fraction: number, width: number): { filled: string; empty: string } {
  const eighths = Math.round(Math.min(1, Math.max(0, fraction)) * width * 8);
  const full = Math.floor(eighths / 8);
  const part = EIGHTHS[eighths % 8] ?? "";
  const filled = "█".repeat(full) + part;
  return { filled, empty: " ".repeat(width - full - (part ? 1 : 0)) };
}

/**
 * The one-line progress bar: `▕███▌      ▏ 612/1800 runs · 0/12 pacts · 8 s · ETA 15 s`, fitted
 * into `columns - 1` visible characters (a full line would wrap and break the in-place redraw):
 * the bar shrinks, then goes, then the ETA and time, then the text is cut. No control characters: the caller adds them.
 */
export function renderBar(state: BarState, columns: number, paint: Paint = PLAIN): string {
  const { runs, pacts } = state;
  const total = runs.total + pacts.total;
  const done = Math.min(total, runs.done + pacts.done);
  const parts: string[] = [];
  if (runs.total > 0) parts.push(`${runs.done}/${runs.total} runs`);
  if (pacts.total > 0) parts.push(`${pacts.done}/${pacts.total} pacts`);
  else if (pacts.done > 0) parts.push(`${pacts.done} pacts`);
  parts.push(durationText(state.elapsedMs));
  const eta = etaMs(done, total, state.elapsedMs);
  if (eta !== undefined) parts.push(`ETA ${durationText(eta)}`);
  const room = columns - 1;
  let text = parts.join(" · ");
  const barWidth = Math.min(MAX_BAR, room - text.length - 3);
  if (total === 0 || barWidth < MIN_BAR) {
    // Too narrow for the bar: the last parts (ETA, time) go first, then the text is cut.
    while (text.length > room && parts.length > 1) {
      parts.pop();
      text = parts.join(" · ");
    }
    return text.slice(0, Math.max(0, room));
  }
  const { filled, empty } = barCells(done / total, barWidth);
  return `▕${paint.green(filled)}${empty}▏ ${text}`;
}

/** Where the live display writes, and what it asks of the terminal and the clock. */
export interface LiveOptions {
  readonly write: (text: string) => void;
  /** A terminal gets the bar; anything else only the lines, with no control characters. */
  readonly isTTY: boolean;
  /** The terminal's width now (it may be resized); 80 when unknown. */
  readonly columns?: () => number | undefined;
  /** Milliseconds, monotonic. */
  readonly now?: () => number;
  readonly paint?: Paint;
  /** Least time between two redraws of the bar. */
  readonly redrawMs?: number;
}

const CLEAR_LINE = "\r\x1b[K";

/**
 * Live progress on stderr: lines that stay (each finished check, warnings) and, on a terminal
 * only, a bar under them redrawn in place, at most every `redrawMs`.
 */
export class LiveProgress {
  readonly #o: Required<Omit<LiveOptions, "columns">> & Pick<LiveOptions, "columns">;
  #runsTotal = 0;
  #pactsTotal = 0;
  #pactsDone = 0;
  /** Runs counted per conformance check (capped by what it was asked at its end). */
  readonly #runs = new Map<string, number>();
  #started: number | undefined;
  #lastDraw = Number.NEGATIVE_INFINITY;
  #shown = false;
  #stopped = false;

  constructor(options: LiveOptions) {
    this.#o = {
      now: () => performance.now(),
      paint: PLAIN,
      redrawMs: 100,
      ...options,
    };
  }

  /** The run's size, once known: the bar starts here. */
  plan(total: { readonly runs: number; readonly pacts: number }): void {
    this.#runsTotal = total.runs;
    this.#pactsTotal = total.pacts;
    this.#started = this.#o.now();
    this.#draw();
  }

  /** One case judged: a conformance run of `checkId`, or a pact interaction (`pact.` ids). */
  caseDone(checkId: string): void {
    if (checkId.startsWith("pact.")) this.#pactsDone += 1;
    else this.#runs.set(checkId, (this.#runs.get(checkId) ?? 0) + 1);
    this.tick();
  }

  /**
   * A conformance check is final: runs it will not do (it failed early, or was stopped) count as
   * done, so the bar reaches its end.
   */
  checkDone(checkId: string, asked: number): void {
    if (checkId.startsWith("pact.")) return;
    this.#runs.set(checkId, Math.max(asked, this.#runs.get(checkId) ?? 0));
  }

  /** A line that stays: above the bar on a terminal, else just the line. */
  line(text: string): void {
    if (!this.#shown) {
      this.#o.write(`${text}\n`);
      return;
    }
    this.#o.write(`${CLEAR_LINE}${text}\n${this.#bar()}`);
    this.#lastDraw = this.#o.now();
  }

  /** Redraws the bar if the last redraw is older than `redrawMs` (call it from a timer, too). */
  tick(): void {
    if (this.#o.now() - this.#lastDraw >= this.#o.redrawMs) this.#draw();
  }

  /** Clears the bar for good: call before anything else is written to the terminal. */
  stop(): void {
    if (this.#shown) this.#o.write(CLEAR_LINE);
    this.#shown = false;
    this.#stopped = true;
  }

  /** What the bar would show now. */
  state(): BarState {
    let runsDone = 0;
    for (const n of this.#runs.values()) runsDone += n;
    return {
      runs: { done: Math.min(runsDone, this.#runsTotal), total: this.#runsTotal },
      pacts: { done: this.#pactsDone, total: this.#pactsTotal },
      elapsedMs: this.#started === undefined ? 0 : this.#o.now() - this.#started,
    };
  }

  #bar(): string {
    return renderBar(this.state(), this.#o.columns?.() || 80, this.#o.paint);
  }

  #draw(): void {
    if (!this.#o.isTTY || this.#stopped || this.#started === undefined) return;
    this.#o.write(`\r${this.#bar()}\x1b[K`);
    this.#shown = true;
    this.#lastDraw = this.#o.now();
  }
}
