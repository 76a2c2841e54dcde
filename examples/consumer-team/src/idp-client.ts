// my-backend's own client of the IDP: plain fetch, nothing from the toolkit.
import type { CreateSchemaRequest, UserPublishRequest } from "@idp/contracts";

export class MyIdpClient {
  readonly #baseUrl: string;
  readonly #authorization: string;

  constructor(baseUrl: string, username: string, password: string) {
    this.#baseUrl = baseUrl.replace(/\/+$/, "");
    this.#authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  }

  /** POST /marketing/push_notifications/login/users/{id}/publish; resolves to the status. */
  push(userId: string, body: UserPublishRequest): Promise<number> {
    const path = `/marketing/push_notifications/login/users/${encodeURIComponent(userId)}/publish`;
    return this.#send("POST", path, body);
  }

  /** POST /marketing/datastore/schemas; resolves to the status. */
  createSchema(body: CreateSchemaRequest): Promise<number> {
    return this.#send("POST", "/marketing/datastore/schemas", body);
  }

  async #send(method: string, path: string, body: unknown): Promise<number> {
    const res = await fetch(`${this.#baseUrl}${path}`, {
      method,
      headers: { authorization: this.#authorization, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  }
}
