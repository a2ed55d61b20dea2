// A loopback TCP proxy a test can cut and restore, to play a database that goes away and comes back.
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops listening and drops every connection, as a database host going down. */
  cut(): Promise<void>;
  /**
   * Passes nothing more on the connections it has, and takes new ones (listening again if cut)
   * without ever answering: a host that hangs, or a network that loses everything.
   */
  silence(): Promise<void>;
  /**
   * Once a connection has sent statements containing each of `statements` in turn (say an
   * `insert`, then `commit`), passes the last one on to the server and then cuts, as `cut` does:
   * the server runs it, the client never hears back. Resolves when that has happened.
   */
  cutAfter(...statements: string[]): Promise<void>;
  /** Answers again, listening on the same port if it was cut. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  let server: Server | undefined;
  let silent = false;
  let trigger: { statements: string[]; fired: () => void } | undefined;
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  /** Unpipes each connection's two ends from each other. */
  const links = new Set<() => void>();
  const listen = async (port: number) => {
    server = createServer((client) => {
      track(client);
      if (silent) return;
      const upstream = createConnection(target);
      track(upstream);
      client.pipe(upstream).pipe(client);
      let matched = 0;
      let draining = false;
      client.on('data', (chunk: Buffer) => {
        // After the pipe's own listener: the chunk is on its way to the server already.
        if (!trigger || !chunk.toString('latin1').includes(trigger.statements[matched] ?? '\0')) return;
        matched += 1;
        if (matched < trigger.statements.length) return;
        const { fired } = trigger;
        trigger = undefined;
        // The server reads what was sent before the end of its stream, and runs it.
        draining = true;
        sockets.delete(upstream);
        upstream.unpipe(client);
        upstream.end();
        upstream.resume();
        void cut().then(fired);
      });
      const unlink = () => {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      };
      links.add(unlink);
      client.on('close', () => {
        links.delete(unlink);
        if (!draining) upstream.destroy();
      });
      upstream.on('close', () => client.destroy());
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy has no port');
    return address.port;
  };
  const port = await listen(0);
  const cut = async () => {
    const stopping = server;
    server = undefined;
    dropAll();
    if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()));
  };
  return {
    port,
    cut,
    cutAfter: (...statements) =>
      new Promise<void>((fired) => {
        trigger = { statements, fired };
      }),
    silence: async () => {
      silent = true;
      for (const unlink of links) unlink();
      links.clear();
      if (!server) await listen(port);
    },
    restore: async () => {
      // What was held silent is dropped: its clients have given up on it.
      if (silent) dropAll();
      silent = false;
      if (!server) await listen(port);
    },
    close: cut,
  };
}

/** A proxy in front of the PostgreSQL server of `url`, and the same URL through it. */
export async function proxyDatabase(url: string): Promise<{ proxy: TcpProxy; url: URL }> {
  const direct = new URL(url);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(direct);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: viaProxy };
}
