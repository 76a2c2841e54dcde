// Content-Type read as RFC 9110 §8.3.1 says. No media-type parser is a dependency of this package
// (Node's util.MIMEType follows WHATWG MIME Sniffing, which skips malformed parameters where the
// RFC grammar has none): this one is the grammar, and test/media-type.test.ts pins it against
// util.MIMEType on generated and malformed input.

/** A media type: type and subtype lowercased, parameters in order (names lowercased, values unquoted). */
export interface MediaType {
  readonly type: string;
  readonly subtype: string;
  readonly parameters: readonly (readonly [name: string, value: string])[];
}

// RFC 9110 §5.6.2 token, §5.6.4 quoted-string (qdtext and quoted-pair, obs-text included).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t !#-\\[\\]-~\\x80-\\xff]|\\\\[\\t -~\\x80-\\xff])*"';
const TYPE = new RegExp(`(${TOKEN})/(${TOKEN})`, "y");
// parameters = *( OWS ";" OWS [ parameter ] ); parameter = name "=" ( token / quoted-string ).
const PARAMETER = new RegExp(`[ \\t]*;[ \\t]*(?:(${TOKEN})=(${TOKEN}|${QUOTED}))?`, "y");
const OWS_TO_END = /[ \t]*$/y;

/**
 * Parses a Content-Type field value by the grammar of RFC 9110 §8.3.1; undefined when it is not
 * one (a parameter without `=`, whitespace around `=`, an unterminated quote, a character outside
 * the grammar). Leading and trailing whitespace is not part of a field value (§5.5).
 */
export function parseMediaType(value: string): MediaType | undefined {
  const text = value.replace(/^[ \t]+/, "");
  TYPE.lastIndex = 0;
  const head = TYPE.exec(text);
  if (!head) return undefined;
  const parameters: [string, string][] = [];
  let at = TYPE.lastIndex;
  for (;;) {
    OWS_TO_END.lastIndex = at;
    if (OWS_TO_END.test(text)) break;
    PARAMETER.lastIndex = at;
    const p = PARAMETER.exec(text);
    if (!p) return undefined;
    at = PARAMETER.lastIndex;
    const [, name, raw] = p;
    if (name !== undefined && raw !== undefined)
      parameters.push([name.toLowerCase(), raw.startsWith('"') ? unquote(raw) : raw]);
  }
  return {
    type: (head[1] as string).toLowerCase(),
    subtype: (head[2] as string).toLowerCase(),
    parameters,
  };
}

const unquote = (quoted: string) => quoted.slice(1, -1).replace(/\\(.)/gs, "$1");

const labels = new Map<string, boolean>();

/**
 * Whether a charset label names UTF-8. Labels are read as the WHATWG Encoding Standard reads them
 * (`utf-8` in any case, `utf8`, `unicode-1-1-utf-8`, ...), by the platform's TextDecoder.
 */
export function isUtf8Label(label: string): boolean {
  let utf8 = labels.get(label);
  if (utf8 === undefined) {
    try {
      utf8 = new TextDecoder(label).encoding === "utf-8";
    } catch {
      utf8 = false; // a label no encoding has
    }
    // Every error answer is read: a provider uses one or two labels, so they are kept.
    if (labels.size < 64) labels.set(label, utf8);
  }
  return utf8;
}

/**
 * Why a Content-Type is not JSON as R2 requires it (conformance.md §1 R2): undefined when it is
 * `application/json` compared as RFC 9110 says (type, subtype and parameter names in any case, any
 * parameters), with no `charset` other than UTF-8.
 */
export function jsonMediaTypeProblem(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return "no Content-Type";
  const media = parseMediaType(contentType);
  if (!media) return "not a media type (RFC 9110 §8.3.1)";
  if (media.type !== "application" || media.subtype !== "json")
    return `the media type is ${media.type}/${media.subtype}`;
  const charset = media.parameters.find(
    ([name, value]) => name === "charset" && !isUtf8Label(value),
  );
  if (charset) return `charset ${JSON.stringify(charset[1])} is not UTF-8`;
  return undefined;
}
