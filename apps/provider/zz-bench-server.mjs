import { createServer } from "node:http";
const mode = process.argv[2];
const body = JSON.stringify({ error: "x", error_description: "y", errors: ["y"] });
let server;
if (mode === "raw") {
  server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      try { JSON.parse(text); } catch {}
      if (req.url.endsWith("/bad")) { res.writeHead(422, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) }); res.end(body); }
      else { res.writeHead(201, { "content-length": "0" }); res.end(); }
    });
  });
} else {
  const { Hono } = await import("hono");
  const { getRequestListener } = await import("@hono/node-server");
  const app = new Hono();
  app.use("*", async (c, next) => { c.req.header("authorization"); await next(); });
  app.post("/v1/:x", async (c) => {
    const text = new TextDecoder().decode(await c.req.raw.arrayBuffer());
    try { JSON.parse(text); } catch {}
    if (c.req.param("x") === "bad") return new Response(body, { status: 422, headers: { "content-type": "application/json; charset=utf-8" } });
    return new Response(null, { status: 201, headers: { "content-length": "0" } });
  });
  server = createServer(getRequestListener(app.fetch));
}
server.listen(0, "127.0.0.1", () => { process.send({ port: server.address().port }); });
process.on("message", (m) => { if (m === "cpu") { const u = process.cpuUsage(); process.send({ cpu: (u.user + u.system) / 1000 }); } });
