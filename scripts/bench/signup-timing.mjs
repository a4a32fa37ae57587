// How long POST /signup takes for a new address and for one already registered. The two should
// match, so that timing does not reveal who has an account.
// Usage: npm run build && node scripts/bench/signup-timing.mjs [--rounds 20]
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { productionBenchEnv, startBuiltServer } from "../lib/start-server.mjs";

const args = process.argv.slice(2);
const roundsIndex = args.indexOf("--rounds");
const rounds = roundsIndex >= 0 ? Number(args[roundsIndex + 1]) : 20;

const dir = mkdtempSync(path.join(os.tmpdir(), "mhat-bench-"));
// The server's own address is its APP_URL here, so that form posts pass the same-origin checks.
const env = productionBenchEnv(dir);
delete env.APP_URL;
const server = await startBuiltServer(env);
const appOrigin = server.url;

const form = (email) =>
  new URLSearchParams({
    firstName: "Bench",
    lastName: "Mark",
    "dateOfBirth-day": "2",
    "dateOfBirth-month": "11",
    "dateOfBirth-year": "1958",
    gender: "Male",
    ethnicity: "Not stated",
    phone: "447700900456",
    homeAddressLine1: "3 Quay Street",
    homePostcode: "CO12 3AA",
    homeCountry: "United Kingdom",
    email,
    password: "ferry lantern orchard",
    confirmPassword: "ferry lantern orchard",
  }).toString();

async function timedSignup(email) {
  const started = performance.now();
  const response = await fetch(`${server.url}/signup`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: appOrigin },
    body: form(email),
  });
  const body = await response.text();
  if (response.status !== 302)
    throw new Error(`sign-up answered ${response.status}: ${body.slice(0, 300)}`);
  return performance.now() - started;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

try {
  await timedSignup("warm-up@example.com");
  const fresh = [];
  const existing = [];
  for (let round = 0; round < rounds; round++) {
    fresh.push(await timedSignup(`new-${round}@example.com`));
    existing.push(await timedSignup("warm-up@example.com"));
  }
  console.log(`rounds: ${rounds}`);
  console.log(`new address:      median ${median(fresh).toFixed(1)} ms`);
  console.log(`existing address: median ${median(existing).toFixed(1)} ms`);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
