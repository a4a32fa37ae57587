// The benchmarks' side of scripts/lib/server-probe.mjs: starting the server with the probe,
// starting and stopping it, and reading what it found.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

/** The settings that load the probe into a server started with them, writing into `dir`. */
export function probeEnv(dir) {
  mkdirSync(dir, { recursive: true });
  return {
    SERVER_PROBE_DIR: dir,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${new URL("./server-probe.mjs", import.meta.url)}`,
  };
}

/** Starts the probed server's profiler and statement count. */
export async function startProfiling(pid, dir) {
  rmSync(path.join(dir, "done"), { force: true });
  process.kill(pid, "SIGUSR2");
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/**
 * Stops them and reads what they found.
 * @returns {Promise<{ profile: any, statements: { count: number, text: string }[] }>}
 */
export async function stopProfiling(pid, dir) {
  process.kill(pid, "SIGUSR2");
  const done = path.join(dir, "done");
  for (let i = 0; i < 300 && !existsSync(done); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    profile: JSON.parse(readFileSync(path.join(dir, "server.cpuprofile"), "utf8")),
    statements: JSON.parse(readFileSync(path.join(dir, "statements.json"), "utf8")),
  };
}

/** Prints self time by package and by function, as shares of the profile's samples. */
export function summariseProfile(
  profile,
  { packages: packageRows = 15, functions: functionRows = 25 } = {},
) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfCount = new Map();
  for (const id of profile.samples) selfCount.set(id, (selfCount.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const functions = new Map();
  const packages = new Map();
  const add = (map, key, count) => map.set(key, (map.get(key) ?? 0) + count);
  for (const [id, count] of selfCount) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.replace(/^file:\/\//, "");
    add(
      functions,
      `${functionName || "(anonymous)"} ${path.basename(file)}:${lineNumber + 1}`,
      count,
    );
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    add(
      packages,
      pkg ??
        (file.includes("/build/server/")
          ? "(site: build/server)"
          : file.startsWith("node:")
            ? "(node internals)"
            : functionName.startsWith("(")
              ? functionName
              : file
                ? "(other js)"
                : "(native)"),
      count,
    );
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, count]) => `  ${((count / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
      .join("\n");
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  console.log(
    `\nCPU profile: ${total} samples over ${seconds.toFixed(1)} s; self time by package:`,
  );
  console.log(top(packages, packageRows));
  console.log("self time by function:");
  console.log(top(functions, functionRows));
}
