// A throw-away database on the local PostgreSQL (127.0.0.1:5432, trust auth), for benchmarks.
import crypto from "node:crypto";
import pg from "pg";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** @returns {Promise<{ url: string, drop: () => Promise<void> }>} */
export async function createScratchDatabase() {
  const name = `mhat_bench_${crypto.randomBytes(4).toString("hex")}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(sql) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
