import { DatabaseSync, type StatementSync } from "node:sqlite";

/** The one login app this provider serves (R4, R7: "a login user of this login app"). */
export const THIS_LOGIN_APP_ID = "idp-reference-app";
/** Users of "another login app" live here; they exist only through provider states or seeding. */
export const OTHER_LOGIN_APP_ID = "another-login-app";

/** A login user's device, the target of a push. */
export interface Device {
  readonly id: number;
  readonly userId: string;
  readonly platform: "android" | "ios";
  readonly token: string;
}

/**
 * A stored schema. `json` is the `schema` object as the client sent it (unknown keys kept), as JSON
 * text: reads serve it verbatim, so no read parses or re-serialises what a write stored.
 */
export interface StoredSchema {
  readonly name: string;
  readonly json: string;
}

const MIGRATIONS = [
  `CREATE TABLE login_apps (id TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT`,
  `CREATE TABLE login_users (
     id TEXT PRIMARY KEY,
     login_app_id TEXT NOT NULL REFERENCES login_apps(id)
   ) STRICT`,
  `CREATE TABLE devices (
     id INTEGER PRIMARY KEY,
     user_id TEXT NOT NULL REFERENCES login_users(id) ON DELETE CASCADE,
     platform TEXT NOT NULL,
     token TEXT NOT NULL
   ) STRICT`,
  `CREATE INDEX devices_user ON devices(user_id)`,
  `CREATE TABLE schemas (
     name TEXT PRIMARY KEY,
     document TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
  `CREATE TABLE clustering_rules (
     login_app_id TEXT PRIMARY KEY REFERENCES login_apps(id),
     document TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT`,
  `CREATE TABLE push_outbox (
     id INTEGER PRIMARY KEY,
     user_id TEXT NOT NULL,
     device_id INTEGER NOT NULL,
     platform TEXT NOT NULL,
     token TEXT NOT NULL,
     payload TEXT NOT NULL,
     created_at TEXT NOT NULL,
     sent_at TEXT
   ) STRICT`,
];

/**
 * The provider's SQLite store. Every write is one transaction; WAL + `synchronous=FULL` means a
 * write is on disk before the HTTP answer goes out, so it survives `kill -9` (and power loss).
 */
export class Store {
  readonly db: DatabaseSync;
  /**
   * Prepared statements by SQL text: SQLite compiles each statement once, not on every request (a
   * run of idp-verify sends about 2,000; kept, the provider's thread used about 3 % less CPU).
   */
  readonly #statements = new Map<string, StatementSync>();

  constructor(path: string) {
    this.db = new DatabaseSync(path);
    this.db.exec("PRAGMA journal_mode = WAL");
    this.db.exec("PRAGMA synchronous = FULL");
    this.db.exec("PRAGMA foreign_keys = ON");
    this.db.exec("PRAGMA busy_timeout = 5000");
    this.migrate();
  }

  private migrate(): void {
    const row = this.db.prepare("PRAGMA user_version").get() as { user_version: number };
    const from = row.user_version;
    if (from >= MIGRATIONS.length) return;
    this.transaction(() => {
      for (const sql of MIGRATIONS.slice(from)) this.db.exec(sql);
      this.db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
      const app = this.db.prepare("INSERT OR IGNORE INTO login_apps (id, name) VALUES (?, ?)");
      app.run(THIS_LOGIN_APP_ID, "IDP reference login app");
      app.run(OTHER_LOGIN_APP_ID, "Another login app");
    });
  }

  /** The prepared statement for `sql`, compiled on first use and reused. */
  statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  transaction<T>(fn: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  close(): void {
    this.#statements.clear();
    if (this.db.isOpen) this.db.close();
  }

  // Schemas (create is the detailed operation; the rest are assumed neighbours).

  // Documents reach the store through acceptBody, so they nest at most JSON_BOUNDS.maxDepth (1,000)
  // levels: JSON.stringify recurses and would throw at about 4,400.

  /** Creates or replaces: duplicate names are not invalid under the default profile (R4). */
  putSchema(name: string, document: Record<string, unknown>): void {
    const now = new Date().toISOString();
    this.statement(
      `INSERT INTO schemas (name, document, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
    ).run(name, JSON.stringify(document), now, now);
  }

  /** Replaces an existing schema; false when there is none. */
  updateSchema(name: string, document: Record<string, unknown>): boolean {
    const result = this.statement(
      "UPDATE schemas SET document = ?, updated_at = ? WHERE name = ?",
    ).run(JSON.stringify(document), new Date().toISOString(), name);
    return result.changes > 0;
  }

  /** The stored document of one schema, as JSON text. */
  getSchemaJson(name: string): string | undefined {
    const row = this.statement("SELECT document FROM schemas WHERE name = ?").get(name) as
      | { document: string }
      | undefined;
    return row?.document;
  }

  /**
   * Up to `limit` schemas in name order, after `after` (keyset paging): a listing is read page by
   * page, so its size is bounded by the client's patience, not by the server's memory.
   */
  schemaPage(after: string | undefined, limit: number): StoredSchema[] {
    const rows =
      after === undefined
        ? this.statement("SELECT name, document FROM schemas ORDER BY name LIMIT ?").all(limit)
        : this.statement(
            "SELECT name, document FROM schemas WHERE name > ? ORDER BY name LIMIT ?",
          ).all(after, limit);
    return rows.map((row) => ({ name: String(row.name), json: String(row.document) }));
  }

  deleteSchema(name: string): boolean {
    return this.statement("DELETE FROM schemas WHERE name = ?").run(name).changes > 0;
  }

  // Clustering rules of this login app.

  putClusteringRules(document: Record<string, unknown>): void {
    this.statement(
      `INSERT INTO clustering_rules (login_app_id, document, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(login_app_id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
    ).run(THIS_LOGIN_APP_ID, JSON.stringify(document), new Date().toISOString());
  }

  /** The stored clustering rules of this login app, as JSON text. */
  getClusteringRulesJson(): string | undefined {
    const row = this.statement("SELECT document FROM clustering_rules WHERE login_app_id = ?").get(
      THIS_LOGIN_APP_ID,
    ) as { document: string } | undefined;
    return row?.document;
  }

  // Login users and their devices.

  /** The login app of a login user, or undefined when no login user has that id. */
  loginAppOf(userId: string): string | undefined {
    const row = this.statement("SELECT login_app_id FROM login_users WHERE id = ?").get(userId) as
      | { login_app_id: string }
      | undefined;
    return row?.login_app_id;
  }

  /** Makes `userId` a login user of `loginAppId` with one Android and one iOS device. */
  upsertLoginUser(userId: string, loginAppId: string): void {
    this.transaction(() => {
      this.statement("DELETE FROM login_users WHERE id = ?").run(userId);
      this.statement("INSERT INTO login_users (id, login_app_id) VALUES (?, ?)").run(
        userId,
        loginAppId,
      );
      const device = this.statement(
        "INSERT INTO devices (user_id, platform, token) VALUES (?, ?, ?)",
      );
      device.run(userId, "android", `fcm-token-${userId}`);
      device.run(userId, "ios", `apns-token-${userId}`);
    });
  }

  deleteLoginUser(userId: string): void {
    this.statement("DELETE FROM login_users WHERE id = ?").run(userId);
  }

  devicesOf(userId: string): Device[] {
    return this.statement(
      "SELECT id, user_id, platform, token FROM devices WHERE user_id = ? ORDER BY id",
    )
      .all(userId)
      .map((row) => ({
        id: Number(row.id),
        userId: String(row.user_id),
        platform: row.platform === "ios" ? "ios" : "android",
        token: String(row.token),
      }));
  }
}
