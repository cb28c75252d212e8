/**
 * A TCP relay in front of a node that can hold one direction of its traffic, for tests that need a
 * Command in flight when the connection dies: `hold('up')` keeps what the clients send from
 * reaching the node (a Command lost on the way in), `hold('down')` keeps the node's answers from
 * reaching the clients (applied, the answer lost); `heldBytes()` says how much is held, and `drop()`
 * destroys every open connection with what it held, then relays freely again (the clients reconnect
 * through it). TLS passes through untouched: the clients still verify the node's certificate.
 */

import { connect, createServer, type Server, type Socket } from 'node:net';

type Direction = 'up' | 'down';

interface Link {
  readonly client: Socket;
  readonly node: Socket;
  readonly held: Record<Direction, Buffer[]>;
}

export class HoldingProxy {
  private readonly links = new Set<Link>();
  private holding: Direction | undefined;
  private constructor(private readonly server: Server, readonly port: number) {}

  static async open(target: { host: string; port: number }): Promise<HoldingProxy> {
    const holder: { proxy?: HoldingProxy } = {};
    const server = createServer((client) => {
      if (holder.proxy === undefined) client.destroy();
      else holder.proxy.relay(client, connect(target.port, target.host));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the proxy did not bind');
    holder.proxy = new HoldingProxy(server, address.port);
    return holder.proxy;
  }

  /** `nodeUrl` (wss://127.0.0.1:PORT/v1/ws) through this relay: the certificate names the host, not the port. */
  url(nodeUrl: string): string {
    const url = new URL(nodeUrl);
    url.port = String(this.port);
    return url.toString();
  }

  /** From now on, what goes `direction` is kept here instead of passed on. */
  hold(direction: Direction): void {
    this.holding = direction;
  }

  /** The bytes held so far, over every open connection. */
  heldBytes(): number {
    let total = 0;
    for (const link of this.links) for (const chunk of [...link.held.up, ...link.held.down]) total += chunk.length;
    return total;
  }

  /** Destroys every open connection and what it held; new connections are relayed freely. */
  drop(): void {
    this.holding = undefined;
    for (const link of this.links) {
      link.client.destroy();
      link.node.destroy();
    }
    this.links.clear();
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, node: Socket): void {
    const link: Link = { client, node, held: { up: [], down: [] } };
    this.links.add(link);
    const pass = (from: Socket, to: Socket, direction: Direction) => {
      from.on('data', (chunk: Buffer) => {
        if (this.holding === direction) link.held[direction].push(chunk);
        else to.write(chunk);
      });
      from.on('error', () => undefined);
      from.on('close', () => {
        to.destroy();
        this.links.delete(link);
      });
    };
    pass(client, node, 'up');
    pass(node, client, 'down');
  }
}
