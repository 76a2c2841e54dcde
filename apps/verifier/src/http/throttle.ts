// Throttling is not an answer (conformance.md §7): 429, and 503 with Retry-After, mean "not now".
// The verifier waits, sends the same request again, and never judges the throttled answer.

/** Each wait is capped: a gateway asking for an hour is waited on for a minute, then asked again. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Without Retry-After: 1 s, doubling, at most 30 s. */
export const BACKOFF_START_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

const headerText = (v: string | string[] | undefined): string | undefined =>
  Array.isArray(v) ? v[0] : v;

/** Whether an answer is a gateway's "not now" rather than the provider's answer. */
export function isThrottled(
  status: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): boolean {
  if (status === 429) return true;
  // A 503 without Retry-After is an answer (R6 judges it).
  return status === 503 && headerText(headers["retry-after"]) !== undefined;
}

/**
 * How long to wait before sending again: Retry-After in seconds or as an HTTP date (capped at
 * 60 s); without it (or unreadable), backoff from 1 s doubling to 30 s by the number of waits so far.
 */
export function retryDelayMs(
  retryAfter: string | string[] | undefined,
  waitsSoFar: number,
  now: number = Date.now(),
): number {
  const value = headerText(retryAfter)?.trim();
  if (value !== undefined && value !== "") {
    if (/^\d+$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS);
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
  }
  return Math.min(BACKOFF_START_MS * 2 ** Math.min(waitsSoFar, 10), BACKOFF_MAX_MS);
}
