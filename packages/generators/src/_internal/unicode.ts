// Well-formed Unicode: every text this package emits can be sent as UTF-8 by any HTTP client, so
// no string it builds or cuts ever holds a lone surrogate (JSON.stringify would write it as a
// `\udXXX` escape: legal JSON, but jq and Python refuse it, and it has no UTF-8 encoding).

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a surrogate code unit that is not half of a pair. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** `at`, moved back one code unit when it would split a surrogate pair. */
export function codePointBoundary(text: string, at: number): number {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff ? at - 1 : at;
}
