import { expect, it } from "vitest";
import { basic, CREDENTIALS, GOOD_AUTH, PATHS, startProvider, validSchema } from "./helpers.ts";

it("logs one structured entry per request, never the credentials", async () => {
  const entries: Record<string, unknown>[] = [];
  const s = await startProvider({ log: (e) => entries.push(e) });
  try {
    await s.call("POST", PATHS.createSchema, JSON.stringify(validSchema()));
    await s.call("POST", PATHS.createSchema, "{", basic(CREDENTIALS.username, "guess"));
    await s.call("GET", `${PATHS.createSchema}?token=${encodeURIComponent(CREDENTIALS.password)}`);
  } finally {
    await s.provider.close();
  }
  const requests = entries.filter((e) => e.msg === "request");
  expect(requests.map((e) => e.status)).toEqual([201, 401, 200]);
  expect(requests[0]).toMatchObject({ method: "POST", path: `/v1${PATHS.createSchema}` });
  const text = JSON.stringify(entries);
  for (const secret of [CREDENTIALS.password, CREDENTIALS.username, GOOD_AUTH.slice(6), "guess"]) {
    expect(text).not.toContain(secret);
  }
});
