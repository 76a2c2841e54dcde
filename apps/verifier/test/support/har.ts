import { z } from "zod";

// HAR 1.2 as its specification states it (http://www.softwareishard.com/blog/har-12-spec/): the
// required fields of log, creator, entry, request, response, content, cache and timings, with
// their types. Written from the spec, not from idp-verify's writer, so a HAR tool can read the file.

const NameValue = z.object({ name: z.string(), value: z.string() });

const Request = z.object({
  method: z.string(),
  url: z.url(),
  httpVersion: z.string(),
  cookies: z.array(NameValue.extend({})),
  headers: z.array(NameValue),
  queryString: z.array(NameValue),
  postData: z.object({ mimeType: z.string(), text: z.string() }).optional(),
  headersSize: z.number().int(),
  bodySize: z.number().int(),
});

const Response = z.object({
  status: z.number().int(),
  statusText: z.string(),
  httpVersion: z.string(),
  cookies: z.array(NameValue),
  headers: z.array(NameValue),
  content: z.object({ size: z.number().int(), mimeType: z.string(), text: z.string().optional() }),
  redirectURL: z.string(),
  headersSize: z.number().int(),
  bodySize: z.number().int(),
});

const Entry = z.object({
  startedDateTime: z.iso.datetime({ offset: true }),
  time: z.number().nonnegative(),
  request: Request,
  response: Response,
  cache: z.object({}),
  timings: z.object({ send: z.number(), wait: z.number(), receive: z.number() }),
  // Custom fields start with an underscore (HAR 1.2, "Custom fields").
  _source: z.string(),
  _throttled: z.literal(true).optional(),
});

export const HarSchema = z.object({
  log: z.object({
    version: z.literal("1.2"),
    creator: z.object({ name: z.string(), version: z.string() }),
    pages: z.array(z.unknown()).optional(),
    entries: z.array(Entry),
  }),
});
