/** A structured log sink. Entries never carry credentials or request bodies. */
export type LogSink = (entry: Record<string, unknown>) => void;

/** The default sink: one JSON line per entry on stderr (stdout stays free for a command's output). */
export const stderrJsonLines: LogSink = (entry) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
};
