import net from "node:net";

/**
 * A TCP proxy in front of a server (the Postgres server, for outage tests). `cut()` drops every
 * connection and refuses new ones, as if the database had gone; `restore()` brings it back on the
 * same port.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const address = server!.address();
        port = typeof address === "object" && address ? address.port : 0;
        resolve();
      });
    });

  const closeAll = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    get port() {
      return port;
    },
    cut: closeAll,
    restore: listen,
    close: closeAll,
  };
}
