/**
 * A bench load process that stops making progress fails with what it waited for, rather than
 * hanging the bench (tools/bench/stallWatch.ts): a count that stops growing, past the stall time,
 * ends it with EXIT_STALLED and the description; a count that keeps growing does not; a socket
 * the server closes ends it at once with EXIT_CLOSED and the close code. Each case runs the built
 * module in a process of its own, since failing means exiting.
 */

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { EXIT_CLOSED, EXIT_STALLED } from '../tools/bench/stallWatch.js';

const MODULE = pathToFileURL(join(process.cwd(), 'dist-tools', 'bench', 'stallWatch.js')).href;

function run(body: string): { status: number | null; stderr: string } {
  const script = `import { watchStall, failOnClose } from ${JSON.stringify(MODULE)};\n${body}`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stderr: result.stderr };
}

it('fails a process whose progress stops, saying what it waited for', () => {
  const result = run(`watchStall(() => 7, () => '7 of 10 Commands answered', 300); setInterval(() => {}, 1000);`);
  expect(result.status).toBe(EXIT_STALLED);
  expect(result.stderr).toMatch(/no progress for \d+ s: 7 of 10 Commands answered/);
});

it('leaves a process alone while its progress grows, and after the watch is stopped', () => {
  const result = run(`let n = 0; const grow = setInterval(() => n++, 50);
    const stop = watchStall(() => n, () => 'stuck', 300);
    setTimeout(() => { clearInterval(grow); stop(); setTimeout(() => process.exit(0), 600); }, 900);
    setInterval(() => {}, 1000);`);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
});

it('fails at once when the server closes a socket, with its close code and reason', () => {
  const result = run(`const { WebSocketServer, default: WebSocket } = await import('ws');
    const server = new WebSocketServer({ port: 0 }, () => {
      server.on('connection', (socket) => setTimeout(() => socket.close(4001, 'go away'), 50));
      const ws = new WebSocket('ws://127.0.0.1:' + server.address().port);
      ws.on('open', () => failOnClose([ws], (i) => 'writer ' + i));
    });
    setTimeout(() => process.exit(0), 10000);`);
  expect(result.status).toBe(EXIT_CLOSED);
  expect(result.stderr).toContain('writer 0: the server closed the socket: 4001 go away');
});
