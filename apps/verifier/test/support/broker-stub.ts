// A local stand-in for the Pact Broker's provider side, as Pact's Rust verifier (pact-core FFI)
// drives it: the HAL index, "pacts for verification", each pact by its href, and verification
// results posted to the pact's publish link. It records every request for the tests to assert on.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface ServedPact {
  /** The pact document itself (consumer, provider, interactions, metadata). */
  readonly pact: Readonly<Record<string, unknown>>;
  /** What the broker says about it in pacts-for-verification. */
  readonly pending?: boolean;
  /** Part of the pact-version path; defaults to a counter. */
  readonly sha?: string;
}

export interface BrokerStubOptions {
  readonly pacts: readonly ServedPact[];
  /**
   * When set, every request must carry `Authorization: Bearer <token>`; otherwise 401, with the
   * Authorization it got echoed in the body (as careless servers do) to catch leaks downstream.
   */
  readonly token?: string;
  /** Refuse verification results with 403, as a broker does for a read-only token. */
  readonly failPublish?: boolean;
}

export interface BrokerStub {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /** The pact-version href of each served pact, in order. */
  readonly pactHrefs: readonly string[];
  /** The publish-verification-results href of each served pact, in order. */
  readonly publishHrefs: readonly string[];
  close(): Promise<void>;
}

interface PactDoc {
  consumer?: { name?: string };
  provider?: { name?: string };
}

export async function startBrokerStub(options: BrokerStubOptions): Promise<BrokerStub> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const method = req.method ?? "";
      const url = req.url ?? "";
      requests.push({ method, url, headers: req.headers, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/hal+json;charset=utf-8" });
        res.end(JSON.stringify(json));
      };
      if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`)
        return send(401, {
          error: `stub: wrong bearer token, got "${req.headers.authorization ?? ""}"`,
        });

      if (method === "GET" && url === "/")
        return send(200, {
          _links: {
            self: { href: base },
            "pb:provider-pacts-for-verification": {
              href: `${base}/pacts/provider/{provider}/for-verification`,
              title: "Pact versions to be verified for the specified provider",
              templated: true,
            },
            "pb:provider": { href: `${base}/pacticipants/{provider}`, templated: true },
          },
        });

      const forVerification = /^\/pacts\/provider\/([^/]+)\/for-verification$/.exec(url);
      // Pact's HAL client GETs the resource first, then POSTs the selectors to its `self` link.
      if (forVerification && method === "GET")
        return send(200, {
          _links: {
            self: { href: `${base}${url}`, title: "Pacts to be verified" },
          },
        });
      if (forVerification && method === "POST") {
        // The broker's own rule (PactsForVerificationJsonQuerySchema): pending or WIP pacts are
        // computed per provider branch, so a blank branch without tags is refused.
        const query = JSON.parse(body || "{}") as Record<string, unknown>;
        const blankBranch =
          typeof query.providerVersionBranch === "string" &&
          query.providerVersionBranch.trim() === "";
        const tags =
          Array.isArray(query.providerVersionTags) && query.providerVersionTags.length > 0;
        if (blankBranch && !tags && (query.includePendingStatus || query.includeWipPactsSince))
          return send(400, {
            errors: {
              providerVersionBranch: [
                "when pending or WIP pacts are enabled and there are no provider version tags, the provider version branch must not be an empty string",
              ],
            },
          });
        const provider = decodeURIComponent(forVerification[1] ?? "");
        const pacts = served
          .filter((s) => s.provider === provider)
          .map((s) => ({
            shortDescription: `latest from ${s.consumer}`,
            verificationProperties: {
              pending: s.pending,
              notices: [
                {
                  when: "before_verification",
                  text: `The pact at ${s.href} is being verified because it matches the selectors`,
                },
              ],
            },
            _links: { self: { href: s.href, name: `Pact between ${s.consumer} and ${provider}` } },
          }));
        return send(200, {
          _embedded: { pacts },
          _links: { self: { href: `${base}${url}` } },
        });
      }

      const pact = served.find((s) => `${base}${url}` === s.href);
      if (pact && method === "GET")
        return send(200, {
          ...pact.doc,
          _links: {
            self: { href: pact.href },
            "pb:publish-verification-results": {
              title: "Publish verification results",
              href: pact.publishHref,
            },
            "pb:provider": { title: "Provider", name: pact.provider, href: pact.providerHref },
          },
        });

      // Publishing with a provider branch: pb:provider, then PUT its pb:branch-version.
      const pacticipant = /^\/pacticipants\/([^/]+)$/.exec(url);
      if (pacticipant && method === "GET") {
        const self = `${base}${url}`;
        return send(200, {
          name: decodeURIComponent(pacticipant[1] ?? ""),
          _links: {
            self: { href: self },
            "pb:branch-version": {
              href: `${self}/branches/{branch}/versions/{version}`,
              templated: true,
            },
            "pb:version-tag": { href: `${self}/versions/{version}/tags/{tag}`, templated: true },
          },
        });
      }
      if (/^\/pacticipants\/[^/]+\/branches\/[^/]+\/versions\/[^/]+$/.test(url) && method === "PUT")
        return send(201, { _links: { self: { href: `${base}${url}` } } });

      const results = served.find((s) => `${base}${url}` === s.publishHref);
      if (results && method === "POST")
        return send(options.failPublish ? 403 : 201, {
          success: (JSON.parse(body || "{}") as { success?: unknown }).success,
          _links: { self: { href: `${results.publishHref}/1` } },
        });

      send(404, { error: `stub: no route for ${method} ${url}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const served = options.pacts.map((p, i) => {
    const doc = p.pact as PactDoc;
    const consumer = doc.consumer?.name ?? "consumer";
    const provider = doc.provider?.name ?? "provider";
    const href = `${base}/pacts/provider/${encodeURIComponent(provider)}/consumer/${encodeURIComponent(consumer)}/pact-version/${p.sha ?? `sha${i}`}`;
    return {
      doc: p.pact,
      consumer,
      provider,
      pending: p.pending ?? false,
      href,
      providerHref: `${base}/pacticipants/${encodeURIComponent(provider)}`,
      publishHref: `${href}/metadata/bWV0YQ/verification-results`,
    };
  });
  return {
    baseUrl: base,
    requests,
    pactHrefs: served.map((s) => s.href),
    publishHrefs: served.map((s) => s.publishHref),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
