/**
 * A TCP relay in front of the node, one per Agent process, so that the PoC can cut one Agent's
 * connection for real (temporary Group disconnection, §11.5) without touching the node: `cut`
 * destroys the Agent's open sockets and refuses new ones until `restore`. TLS passes through
 * untouched (the Agent still verifies the node's certificate).
 */

import { connect, createServer, type Server, type Socket } from 'node:net';

export class LinkProxy {
  private readonly sockets = new Set<Socket>();
  private refusing = false;
  private constructor(private readonly server: Server, readonly port: number) {}

  static async open(target: { host: string; port: number }): Promise<LinkProxy> {
    const holder: { proxy?: LinkProxy } = {};
    const server = createServer((client) => {
      const { proxy } = holder;
      if (proxy === undefined || proxy.refusing) {
        client.destroy();
        return;
      }
      const upstream = connect(target.port, target.host);
      for (const s of [client, upstream]) {
        proxy.sockets.add(s);
        s.on('close', () => proxy.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy did not bind');
    holder.proxy = new LinkProxy(server, address.port);
    return holder.proxy;
  }

  /** The wss URL of the node through this relay (the certificate names 127.0.0.1, as the node's does). */
  url(nodeUrl: string): string {
    const url = new URL(nodeUrl);
    url.port = String(this.port);
    return url.toString().replace(/\/$/, '');
  }

  cut(): void {
    this.refusing = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.refusing = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
