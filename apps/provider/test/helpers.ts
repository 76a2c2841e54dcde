import { detailedOperations, ErrorBody, operationPath } from "@idp/contracts";
import { expect } from "vitest";
import { createProvider, type IdpProvider, type ProviderOptions } from "../src/index.ts";

export const CREDENTIALS = { username: "idp-test-user", password: "s3cret:with colon é" } as const;

export const basic = (username: string, password: string): string =>
  `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`;

export const GOOD_AUTH = basic(CREDENTIALS.username, CREDENTIALS.password);

export interface Started {
  readonly provider: IdpProvider;
  readonly baseUrl: string;
  readonly providerStatesUrl: string;
  /** Sends a request to `baseUrl + path` with good credentials unless `authorization` is given. */
  call(
    method: string,
    path: string,
    body?: string,
    authorization?: string | null,
  ): Promise<Response>;
}

/** A provider on 127.0.0.1 port 0 (the OS picks a free port, so test files never collide). */
export async function startProvider(options: Partial<ProviderOptions> = {}): Promise<Started> {
  const provider = createProvider({ credentials: CREDENTIALS, log: () => {}, ...options });
  const { baseUrl, providerStatesUrl } = await provider.listen({ port: 0 });
  return {
    provider,
    baseUrl,
    providerStatesUrl,
    call(method, path, body, authorization = GOOD_AUTH) {
      const headers: Record<string, string> = {};
      if (authorization !== null) headers.authorization = authorization;
      if (body !== undefined) headers["content-type"] = "application/json";
      return fetch(`${baseUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
    },
  };
}

/** R2: every >= 400 answer is JSON with error, error_description and errors[]. Returns the body. */
export async function expectErrorBody(response: Response, status: number): Promise<ErrorBody> {
  const text = await response.text();
  expect({ status: response.status, text }).toMatchObject({ status });
  expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
  const parsed = ErrorBody.safeParse(JSON.parse(text));
  expect(parsed.success, text).toBe(true);
  return parsed.data as ErrorBody;
}

/** R8: a success answer with the given status and an empty body. */
export async function expectNoBody(response: Response, status: number): Promise<void> {
  const text = await response.text();
  expect({ status: response.status, text }).toEqual({ status, text: "" });
}

export const validSchema = (name = "customers") => ({
  schema: {
    name,
    fields: [
      { name: "email", type: "string", unique: true },
      { name: "age", type: "integer" },
      { name: "seen_at", type: "date_time", unique: false },
    ],
    permissions: { write_protected: false, read_protected: true },
  },
});

export const validPush = () => ({
  data: {
    message: "Hello",
    title: "Greeting",
    small_icon: "ic_notify",
    vibrate: true,
    vibrate_duration: 300,
    auto_cancel: true,
    big_style: false,
    activity_class: "com.example.Main",
    badge: 1,
    sound: "default",
  },
});

export const validRules = () => ({
  rules: {
    features: {
      sports: {
        labels: [{ name: "football", keywords: ["goal", "match"] }],
        classifier: { type: "likes", categories: ["Sports"], threshold: 0.5, excluded_words: [] },
      },
    },
    parameters: { excluded_words: ["the"] },
  },
});

// Paths come from the contracts' catalogue, so a path typo here cannot hide a provider bug.
export const PATHS = {
  createSchema: operationPath(detailedOperations.createSchema),
  push: (id: string) => operationPath(detailedOperations.pushToUserDevices, { id }),
  clusteringRules: operationPath(detailedOperations.updateClusteringRules),
} as const;
