// The JavaScript a page downloads on first load, counted in a real browser.
import { gzipSync } from "node:zlib";

/**
 * @param {import("playwright-core").Browser} browser
 * @param {string} url
 * @returns {Promise<{ files: number, raw: number, gzip: number }>} bytes; gzip at level 9, file by file
 */
export async function firstLoadJs(browser, url) {
  const page = await browser.newPage();
  try {
    const scripts = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script")
        scripts.push(response.body().catch(() => Buffer.alloc(0)));
    });
    await page.goto(url, { waitUntil: "networkidle" });
    const bodies = await Promise.all(scripts);
    return {
      files: bodies.length,
      raw: bodies.reduce((sum, body) => sum + body.length, 0),
      gzip: bodies.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0),
    };
  } finally {
    await page.close();
  }
}
