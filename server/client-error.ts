import http from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";

/** How long a connection refused this way may go on sending before it is dropped. */
const DRAIN_MS = 10_000;

/**
 * A request Node's HTTP server cannot read (a URL or headers over 16 KB, a broken request line).
 * By default Node writes 431 or 400 and destroys the connection at once, so a client still
 * sending a body gets a reset, often before it has read the answer (the fuzz test's POST with a
 * 24 KB address saw one in three). Here the answer is written and our side closed, and what the
 * client still sends is read and dropped until it closes its own, so the answer arrives.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  socket.on("data", () => {});
  socket.resume();
  (socket as Partial<Socket>).setTimeout?.(DRAIN_MS, () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  );
}
