import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const ctx = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "pw-")), {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
  viewport: { width: 1280, height: 800 },
});
const page = await ctx.newPage();
await page.goto("file://" + process.argv[2]);
const out = process.argv[3];
await page.screenshot({ path: `${out}-screen.png` });
const arts = page.locator("article.failure");
const n = await arts.count();
for (const i of (process.argv[4] ?? "0").split(",").map(Number))
  if (i < n) await arts.nth(i).screenshot({ path: `${out}-failure${i}.png` });
if (await page.locator("#statuses").count())
  await page.locator("#statuses").screenshot({ path: `${out}-grid.png` });
await page.evaluate(() => {
  document.querySelector("#all-checks").open = true;
});
await page.locator("#all-checks").screenshot({ path: `${out}-checks.png` });
console.log(
  n,
  await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.scrollHeight,
  ]),
);
await ctx.close();
