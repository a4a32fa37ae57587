// A minimal Chrome DevTools Protocol client for a node process started with
// --inspect=127.0.0.1:PORT (needs a global WebSocket: Node 22, or Node 20 with --experimental-websocket).
/* global WebSocket */
import { writeFileSync } from "node:fs";

/** @param {number} port */
export async function inspectorClient(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let lastId = 0;
  const pending = new Map();
  const listeners = new Set();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id !== undefined) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    } else {
      for (const listener of listeners) listener(message);
    }
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });

  return {
    send,
    /** An expression's value, copied out as JSON. */
    async evaluate(expression) {
      const { result, exceptionDetails } = await send("Runtime.evaluate", {
        expression,
        returnByValue: true,
        awaitPromise: true,
      });
      if (exceptionDetails) throw new Error(exceptionDetails.exception?.description);
      return result.value;
    },
    /** A heap snapshot (V8 collects garbage first, so only live objects are in it) into a file. */
    async snapshot(file) {
      const chunks = [];
      const listener = (message) => {
        if (message.method === "HeapProfiler.addHeapSnapshotChunk")
          chunks.push(message.params.chunk);
      };
      listeners.add(listener);
      await send("HeapProfiler.enable");
      await send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      listeners.delete(listener);
      writeFileSync(file, chunks.join(""));
    },
    /** The files of every script V8 has compiled so far. */
    async scripts() {
      const urls = new Set();
      const listener = (message) => {
        if (message.method === "Debugger.scriptParsed" && message.params.url)
          urls.add(message.params.url);
      };
      listeners.add(listener);
      await send("Debugger.enable");
      await send("Debugger.disable");
      listeners.delete(listener);
      return [...urls].sort();
    },
    close: () => socket.close(),
  };
}
