// HAProxy (Debian's package) in front of several instances of the built server, as the README's
// "Production deployment" describes: started as a child process of the caller, with its
// configuration, pid file and log (haproxy.cfg, haproxy.pid, haproxy.log) in a folder of the
// caller's, on an unprivileged port.
// Shared by the instances test and the booking benchmark.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/** Where Debian installs it (root's PATH has /usr/sbin; another user's may not). */
export function haproxyPath() {
  if (process.env.HAPROXY) return process.env.HAPROXY;
  return existsSync("/usr/sbin/haproxy") ? "/usr/sbin/haproxy" : "haproxy";
}

/**
 * The configuration: round robin over the instances; a request whose connection an instance
 * refuses is sent to another (nothing reached the dead one, so this is safe for a POST too), but
 * one already sent is never sent again. The instances (TRUST_PROXY=1) learn from it the client's
 * address (X-Forwarded-For, added) and whether the client came over HTTPS (X-Forwarded-Proto, set:
 * React Router refuses a form whose Origin, https://…, is not the request's own address, which
 * without it is http://…); a client's own X-Forwarded-Host is dropped. X-Served-By names the
 * instance that answered, for tests and benchmarks. With `certificate` (a PEM file holding the
 * certificate and its key), HTTPS ends here, as in production.
 *
 * Each instance is checked on /healthz every second, with 5 s to answer, and left out after three
 * failures: a busy instance answers slowly, and a check timing out at HAProxy's default (the
 * interval) took both instances out under a benchmark's burst, answering 503 for them. At most
 * 100 requests at a time go to one instance; more wait at the proxy (up to 30 s), so that a burst
 * queues in one place instead of in every instance's event loop, health check included.
 *
 * Each request opens its own connection to an instance (http-server-close): Node closes an idle
 * connection after 5 s, and a request HAProxy sent on one it was closing at that moment was lost
 * ("socket hang up" in the tests); a connection on the same network costs a fraction of a
 * millisecond.
 *
 * @param {{ port: number, backends: { name: string, port: number }[], folder: string, certificate?: string }} options
 */
export function haproxyConfig({ port, backends, folder, certificate }) {
  return `global
  pidfile ${path.join(folder, "haproxy.pid")}
  log stderr format short local0 notice
  maxconn 4096

defaults
  mode http
  log global
  option dontlognull
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  timeout queue 30s
  timeout check 5s
  option forwardfor
  retries 3
  retry-on conn-failure
  option redispatch 1

frontend site
  bind 127.0.0.1:${port}${certificate ? ` ssl crt ${certificate}` : ""}
  http-request set-header X-Forwarded-Proto https if { ssl_fc }
  http-request set-header X-Forwarded-Proto http if !{ ssl_fc }
  http-request del-header X-Forwarded-Host
  default_backend instances

backend instances
  balance roundrobin
  option http-server-close
  option httpchk GET /healthz
  http-check expect status 200
  default-server check inter 1s fall 3 rise 2 maxconn 100
  http-response set-header X-Served-By %s
${backends.map((backend) => `  server ${backend.name} 127.0.0.1:${backend.port}`).join("\n")}
`;
}

/** Resolves once something accepts connections on 127.0.0.1:`port`. */
function accepting(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Starts HAProxy on 127.0.0.1:`port` in front of `backends` and waits until it accepts
 * connections. Its address is https://… with `certificate`.
 *
 * @param {{ port: number, backends: { name: string, port: number }[], folder: string, certificate?: string, timeoutMs?: number }} options
 * @returns {Promise<{ url: string, pid: number | undefined, output: () => string, stop: () => Promise<void> }>}
 */
export async function startHaproxy({ port, backends, folder, certificate, timeoutMs = 15_000 }) {
  const configFile = path.join(folder, "haproxy.cfg");
  writeFileSync(configFile, haproxyConfig({ port, backends, folder, certificate }));
  // -db: in the foreground, so that it is this process's child and ends with it.
  const child = spawn(haproxyPath(), ["-db", "-f", configFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const spawned = new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const logFile = path.join(folder, "haproxy.log");
  const record = (chunk) => {
    output += chunk;
    appendFileSync(logFile, chunk);
  };
  child.stdout.on("data", record);
  child.stderr.on("data", record);
  try {
    await spawned;
  } catch (error) {
    throw new Error(
      `HAProxy could not be started (${error.code ?? error.message}): install Debian's haproxy package (apt-get install haproxy), or set HAPROXY to its path.`,
    );
  }
  const url = `${certificate ? "https" : "http"}://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited early:\n${output}`);
    if (await accepting(port)) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`HAProxy did not listen in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
