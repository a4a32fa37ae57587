import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startBuiltServer } from "#tests/support/server";

/**
 * Finding 4 of issue 14: the server listened on every interface, so anyone on the same network
 * could open /dev/mailbox and take the password-reset links in it. By default it listens on
 * 127.0.0.1 only; HOST chooses another address.
 */

/** This machine's addresses that other machines could reach (not loopback, not link-local). */
function networkAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((info) => info !== undefined && !info.internal)
    .filter((info) => info!.family === "IPv4" || !info!.address.startsWith("fe80:"))
    .map((info) => info!.address);
}

const urlOf = (address: string, port: string) =>
  `http://${address.includes(":") ? `[${address}]` : address}:${port}`;

/** What happened when connecting: the HTTP status, or the network error's code. */
async function reach(url: string): Promise<number | string> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) })).status;
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code ?? String(error);
  }
}

const folders: string[] = [];
function embeddedDatabase() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-listen-"));
  folders.push(dir);
  return { PGLITE_DIR: dir, DATABASE_URL: "", DEMO_DATA: "0", NODE_ENV: "development" };
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const addresses = networkAddresses();
const ipv4Addresses = addresses.filter((address) => !address.includes(":"));
const skipReason = (list: string[]) =>
  list.length ? "" : " (skipped: this machine has no such non-loopback address to try)";

describe("the address the server listens on (finding 4: the dev server listened on every interface)", () => {
  it.skipIf(!addresses.length)(
    `without HOST it is reachable on 127.0.0.1 and not on this machine's network addresses${skipReason(addresses)}`,
    async () => {
      const server = await startBuiltServer({ ...embeddedDatabase(), HOST: "" });
      try {
        const port = new URL(server.url).port;
        expect(await reach(urlOf("127.0.0.1", port))).toBe(200);
        for (const address of addresses) {
          expect(await reach(urlOf(address, port)), `on ${address}`).toBe("ECONNREFUSED");
        }
        expect(server.output()).toContain(`Listening on http://127.0.0.1:${port}`);
      } finally {
        await server.stop();
      }
    },
  );

  it.skipIf(!ipv4Addresses.length)(
    `with HOST=0.0.0.0 it is reachable on this machine's IPv4 network addresses${skipReason(ipv4Addresses)}`,
    async () => {
      const server = await startBuiltServer({ ...embeddedDatabase(), HOST: "0.0.0.0" });
      try {
        const port = new URL(server.url).port;
        for (const address of ipv4Addresses) {
          expect(await reach(urlOf(address, port)), `on ${address}`).toBe(200);
        }
        expect(server.output()).toContain(`Listening on http://0.0.0.0:${port}`);
      } finally {
        await server.stop();
      }
    },
  );
});
