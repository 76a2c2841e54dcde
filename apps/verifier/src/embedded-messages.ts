import type { Credentials } from "./rules/auth.ts";

/** What the embedded provider's thread is started with. */
export interface EmbeddedStart {
  readonly credentials: Credentials;
}

/** From the run to the embedded provider's thread. */
export type EmbeddedRequest = { readonly type: "close" };

/** From the embedded provider's thread to the run. */
export type EmbeddedReply =
  | { readonly type: "listening"; readonly baseUrl: string; readonly providerStatesUrl: string }
  /** Loading or starting @idp/provider threw: the error's message and Node's code, if any. */
  | { readonly type: "failed"; readonly message: string; readonly code?: string }
  /** One of the provider's log entries at level error. */
  | { readonly type: "log"; readonly message: string }
  | { readonly type: "closed" };
