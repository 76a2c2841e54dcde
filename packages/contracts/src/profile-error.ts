import { oneLine } from "./judges/problem.ts";

/** What a {@link ProfileError} says: the file, the key, what was expected and what was there. */
export interface ProfileErrorDetails {
  /** The profile file, as given (e.g. the `--profile` argument). */
  readonly file: string;
  /** The key of the file, e.g. `statusMapping.pushToUserDevices.wrong-type`; absent for the file as a whole. */
  readonly key?: string | undefined;
  /** What the key (or file) should hold, e.g. `400 or 422`. */
  readonly expected: string;
  /** What it holds, shortened to one line. */
  readonly received?: string | undefined;
  /** A hint, e.g. `did you mean "statusMapping"?`. */
  readonly note?: string | undefined;
}

/**
 * A profile file that cannot be used. Its message is one line naming the file, the key and what
 * was expected: `profile ./p.json: statusMapping.pushToUserDevices.wrong-type: expected 400 or 422, received "x"`.
 */
export class ProfileError extends Error {
  readonly file: string;
  readonly key: string | undefined;
  readonly expected: string;
  readonly received: string | undefined;

  constructor(details: ProfileErrorDetails, options?: ErrorOptions) {
    const where = details.key === undefined ? "" : `${details.key}: `;
    const received = details.received === undefined ? "" : `, received ${details.received}`;
    const note = details.note === undefined ? "" : `; ${details.note}`;
    // A file name or a key from the file may hold line breaks; the message stays on one line.
    super(
      oneLine(`profile ${details.file}: ${where}expected ${details.expected}${received}${note}`),
      options,
    );
    this.name = "ProfileError";
    this.file = details.file;
    this.key = details.key;
    this.expected = details.expected;
    this.received = details.received;
  }
}
