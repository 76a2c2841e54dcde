/** One HTTP/1.1 answer read off the wire. */
export interface Answer {
  readonly status: number;
  /** Lower-cased names; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface ParsedStream {
  /** The complete final answers (interim 1xx skipped), in order. */
  readonly answers: readonly Answer[];
  /** Bytes after the last complete answer (an answer still arriving, or garbage). */
  readonly rest: number;
  /** Something that is not HTTP/1.1 where an answer should start. */
  readonly garbled?: string;
}

const CRLF2 = Buffer.from("\r\n\r\n");

/**
 * Splits what a server sent on one connection into answers. `isHead(i)` says whether the i-th
 * final answer is to a HEAD request (no body). `closed`: the server closed, so an answer without
 * a length runs to the end.
 */
export function parseAnswers(
  data: Buffer,
  isHead: (index: number) => boolean,
  closed: boolean,
): ParsedStream {
  const answers: Answer[] = [];
  let offset = 0;
  while (offset < data.length) {
    const headerEnd = data.indexOf(CRLF2, offset);
    if (headerEnd < 0) break;
    const head = data.subarray(offset, headerEnd).toString("latin1").split("\r\n");
    const match = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(head[0] ?? "");
    if (match === null) {
      return { answers, rest: data.length - offset, garbled: (head[0] ?? "").slice(0, 80) };
    }
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const colon = line.indexOf(":");
      if (colon > 0)
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let cursor = headerEnd + 4;
    if (status >= 100 && status < 200) {
      offset = cursor;
      continue;
    }
    let body: Buffer | undefined;
    if (isHead(answers.length) || status === 204 || status === 304) {
      body = Buffer.alloc(0);
    } else if ((headers["transfer-encoding"] ?? "").toLowerCase().includes("chunked")) {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf("\r\n", cursor, "latin1");
        if (lineEnd < 0) break;
        const size = Number.parseInt(data.subarray(cursor, lineEnd).toString("latin1"), 16);
        if (!Number.isFinite(size)) {
          return { answers, rest: data.length - offset, garbled: "bad chunk size" };
        }
        if (size === 0) {
          const trailerEnd = data.indexOf(CRLF2, lineEnd, "latin1");
          if (data.subarray(lineEnd, lineEnd + 4).equals(CRLF2)) cursor = lineEnd + 4;
          else if (trailerEnd >= 0) cursor = trailerEnd + 4;
          else break;
          body = Buffer.concat(parts);
          break;
        }
        if (lineEnd + 2 + size + 2 > data.length) break;
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        cursor = lineEnd + 2 + size + 2;
      }
    } else if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      if (cursor + length <= data.length) {
        body = data.subarray(cursor, cursor + length);
        cursor += length;
      }
    } else if (closed) {
      body = data.subarray(cursor);
      cursor = data.length;
    }
    if (body === undefined) break;
    answers.push({ status, headers, body });
    offset = cursor;
  }
  return { answers, rest: data.length - offset };
}

/** What is wrong with an answer >= 400, per R2; undefined when it carries the error body. */
export function errorBodyProblem(answer: Answer, head: boolean): string | undefined {
  if (answer.status < 400) return undefined;
  if (!/^application\/json\b/.test(answer.headers["content-type"] ?? "")) {
    return `no JSON Content-Type (${answer.headers["content-type"] ?? "none"})`;
  }
  // A HEAD answer has the GET answer's headers and no body (RFC 9110 §9.3.2).
  if (head) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body.toString("utf8"));
  } catch {
    return `body is not JSON: ${answer.body.toString("utf8").slice(0, 60)}`;
  }
  const body = parsed as Record<string, unknown>;
  if (
    typeof body !== "object" ||
    body === null ||
    typeof body.error !== "string" ||
    typeof body.error_description !== "string" ||
    !Array.isArray(body.errors) ||
    !body.errors.every((e) => typeof e === "string")
  ) {
    return `body is not {error, error_description, errors[]}: ${JSON.stringify(body).slice(0, 80)}`;
  }
  return undefined;
}
