/**
 * The only `error` value the spec shows (on its 400 and 401 examples). R1 pins it for every 401.
 * The full set of values is "not shown": other statuses carry provider-chosen values.
 */
export const AUTHENTICATION_FAILED = "authentication_failed" as const;
