import { ERROR_CODES, errorResponse } from "../error-body.ts";

/** Success answers of the detailed operations carry no body (R8). */
export const noBody = (status: 200 | 201 | 204): Response =>
  new Response(null, { status, headers: status === 204 ? {} : { "content-length": "0" } });

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_TYPE },
  });

const JSON_TYPE = "application/json; charset=utf-8";

/** A JSON answer whose body is already JSON text (stored documents are served verbatim). */
export const jsonText = (status: number, text: string): Response =>
  new Response(text, { status, headers: { "content-type": JSON_TYPE } });

/** A JSON answer streamed from chunks of JSON text, pulled one at a time (a long listing). */
export const jsonStream = (status: number, chunks: () => string | undefined): Response => {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks();
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
  });
  return new Response(body, { status, headers: { "content-type": JSON_TYPE } });
};

export const methodNotAllowed = (allowed: readonly string[]): Response =>
  errorResponse(
    405,
    ERROR_CODES.methodNotAllowed,
    `this path accepts only ${allowed.join(", ")}`,
    undefined,
    { allow: allowed.join(", ") },
  );
