// A bare node:http server answering each path with fixed bytes: what the machine can serve when a
// response costs nothing to make. Run as its own process (scripts/lib/load.mjs starts it), so it
// does not share a core with the load generator, as the server it is compared with does not.
// Usage: node scripts/lib/bare-server.mjs ANSWERS.json   (prints the port it listens on)
import http from "node:http";
import { readFileSync } from "node:fs";

/** @type {Record<string, { type: string, body: string }>} path -> content type, base64 body */
const listed = JSON.parse(readFileSync(process.argv[2], "utf8"));
const answers = new Map(
  Object.entries(listed).map(([path, { type, body }]) => [
    path,
    { type, body: Buffer.from(body, "base64") },
  ]),
);

const server = http.createServer((req, res) => {
  const answer = answers.get(req.url ?? "");
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "Content-Type": answer.type, "Content-Length": answer.body.length });
  res.end(answer.body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
