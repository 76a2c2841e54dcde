import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A certificate authority made for one test, and what it signed, all as PEM text and files. */
export interface TestPki {
  /** Where the PEM files are (`ca.pem`, `server.pem`, `server.key`, `client.pem`, `client.key`). */
  readonly dir: string;
  readonly ca: { readonly cert: string; readonly path: string };
  /** For 127.0.0.1 and localhost. */
  readonly server: { readonly cert: string; readonly key: string };
  readonly client: {
    readonly cert: string;
    readonly key: string;
    readonly certPath: string;
    readonly keyPath: string;
  };
  remove(): void;
}

/**
 * Generates a private CA, a server certificate for 127.0.0.1/localhost and a client certificate it
 * signed, with the openssl command (EC P-256, one day). Nothing is trusted by the system.
 */
export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "idp-pki-"));
  const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const key = (name: string) =>
    ssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", name);
  key("ca.key");
  ssl(
    "req",
    "-x509",
    "-new",
    "-key",
    "ca.key",
    "-sha256",
    "-days",
    "1",
    "-subj",
    "/CN=idp test CA",
    "-out",
    "ca.pem",
  );
  const sign = (name: string, subject: string, ext: string) => {
    key(`${name}.key`);
    ssl("req", "-new", "-key", `${name}.key`, "-subj", subject, "-out", `${name}.csr`);
    writeFileSync(join(dir, `${name}.ext`), ext);
    ssl(
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "1",
      "-sha256",
      "-extfile",
      `${name}.ext`,
      "-out",
      `${name}.pem`,
    );
  };
  sign(
    "server",
    "/CN=127.0.0.1",
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n",
  );
  sign("client", "/CN=idp-verify test client", "extendedKeyUsage=clientAuth\n");
  // Node's TLS takes PKCS#8 as well as SEC1; PKCS#8 is what most tools write.
  ssl("pkcs8", "-topk8", "-nocrypt", "-in", "client.key", "-out", "client.p8.key");
  const read = (name: string) => readFileSync(join(dir, name), "utf8");
  return {
    dir,
    ca: { cert: read("ca.pem"), path: join(dir, "ca.pem") },
    server: { cert: read("server.pem"), key: read("server.key") },
    client: {
      cert: read("client.pem"),
      key: read("client.p8.key"),
      certPath: join(dir, "client.pem"),
      keyPath: join(dir, "client.p8.key"),
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
