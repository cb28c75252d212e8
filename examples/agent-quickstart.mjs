#!/usr/bin/env node
/**
 * Agent quickstart: an Agent written with `missionweave/client` that joins its Mission's Group,
 * handles every Event after the Cursor it saved last time, posts a Message, waits until that
 * Message's Event has been handled too, and stops. Run it again and it resumes exactly after
 * the saved Cursor: whatever happened while it was away is handled once, in order, and nothing
 * it already handled comes back. Every Event is verified against the Organization's Registry
 * (read from the Group Authority with the session, or pinned with MW_REGISTRY_FILE) before the
 * handler sees it; one that fails is reported on stderr, never handled.
 *
 *   npm run build        # Node resolves missionweave/client through package.json "exports"
 *   missionweave agent add quickstart --dir .missionweave
 *   # … make the Agent a Member of a Mission's Group (membership.change), then:
 *   MW_HOME=.missionweave MW_AGENT=quickstart MW_GROUP_ID=urn:… MW_CONVERSATION_ID=urn:… \
 *     node examples/agent-quickstart.mjs
 *
 * Inputs, from the environment or as --name=value arguments (--group-id=… for MW_GROUP_ID):
 *   MW_URL               wss://host:port of the Group Authority (MW_HOME: from its config.json)
 *   MW_CA_FILE           PEM certificate to trust for TLS (MW_HOME: its tls/cert.pem)
 *   MW_HOME, MW_AGENT    an operator directory and an Agent handle from `missionweave agent add`,
 *   or MW_AGENT_ID, MW_KEY_ID, MW_PRIVATE_KEY_FILE (PKCS#8 PEM) for the Agent
 *   MW_GROUP_ID          the Mission's Group
 *   MW_CONVERSATION_ID   the Conversation to post in (the Mission's main one)
 *   MW_MEMBERSHIP_EPOCH  the Agent's Membership Epoch in the Group (default 1)
 *   MW_CURSOR_FILE       where Cursors are kept (default ./agent-cursors.json)
 *   MW_MESSAGE           what to post (default: a greeting)
 *   MW_REGISTRY_FILE     a pinned Registry snapshot (`missionweave registry export --out FILE`);
 *                        default: read from the Group Authority
 *
 * Output: one JSON line per handled Event ({"handled":…}), then {"posted":…} and {"done":…}.
 * Errors go to stderr as JSON lines; the exit code is 1 if the run did not complete.
 */

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileCursorStore, MissionWeaveAgent } from 'missionweave/client';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, ...value] = arg.replace(/^--/, '').split('=');
    return [`MW_${name.toUpperCase().replaceAll('-', '_')}`, value.join('=')];
  }),
);
const input = (name, fallback) => {
  const value = args[name] ?? process.env[name] ?? fallback;
  if (value === undefined || value === '') throw new Error(`missing ${name} (or --${name.slice(3).toLowerCase().replaceAll('_', '-')}=…)`);
  return value;
};
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** The WebSocket endpoint `missionweave serve` recorded in the home's node.json, if it did. */
function runningNodeUrl(home) {
  try {
    return JSON.parse(readFileSync(join(home, 'node.json'), 'utf8')).url;
  } catch {
    return undefined;
  }
}

/** The Agent's identity and the server, from an operator directory or from explicit inputs. */
function configuration() {
  const home = args.MW_HOME ?? process.env.MW_HOME;
  if (home !== undefined && home !== '') {
    const record = JSON.parse(readFileSync(join(home, 'principals', `${input('MW_AGENT')}.json`), 'utf8'));
    const config = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'));
    return {
      // The node serving the home records where it listens (`serve --port 0` picks any port).
      url: input('MW_URL', runningNodeUrl(home) ?? `wss://${config.server.host}:${config.server.port}`),
      ca: readFileSync(input('MW_CA_FILE', join(home, 'tls', 'cert.pem')), 'utf8'),
      agentId: record.id,
      keyId: record.keyId,
      privateKey: readFileSync(join(home, record.privateKeyFile), 'utf8'),
    };
  }
  return {
    url: input('MW_URL'),
    ca: readFileSync(input('MW_CA_FILE'), 'utf8'),
    agentId: input('MW_AGENT_ID'),
    keyId: input('MW_KEY_ID'),
    privateKey: readFileSync(input('MW_PRIVATE_KEY_FILE'), 'utf8'),
  };
}

async function main() {
  const groupId = input('MW_GROUP_ID');
  const conversationId = input('MW_CONVERSATION_ID');
  const membershipEpoch = Number(input('MW_MEMBERSHIP_EPOCH', '1'));
  const registryFile = args.MW_REGISTRY_FILE ?? process.env.MW_REGISTRY_FILE;
  const agent = new MissionWeaveAgent({
    ...configuration(),
    cursorStore: new FileCursorStore(input('MW_CURSOR_FILE', 'agent-cursors.json')),
    ...(registryFile ? { registry: readFileSync(registryFile, 'utf8') } : {}),
  });

  // Every Group Event once, in sequence order; the Cursor is saved after this resolves.
  agent.onEvent(async (event) => {
    print({ handled: event.sequence, kind: event.kind, eventId: event.eventId, actor: event.actor.id });
  });
  // Per-Group refusals, Events that failed verification (AUTH_INVALID_SIGNATURE, details say
  // which stage) and connection trouble; the SDK reconnects by itself where that is safe.
  agent.onError((error) => process.stderr.write(`${JSON.stringify({ error: { code: error.code, message: error.message, groupId: error.groupId, details: error.details } })}\n`));

  await agent.connect();
  await agent.subscribe(groupId);
  const posted = await agent.command(
    'message.post',
    { messageId: `urn:uuid:${randomUUID()}`, conversationId, content: input('MW_MESSAGE', `Hello from ${agent.agentId}`) },
    { groupId, membershipEpoch },
  );
  print({ posted: { sequence: posted.sequence, eventId: posted.eventId } });

  // The Command's answer can overtake the subscription: stop once the handler has seen it too.
  const deadline = Date.now() + 30_000;
  while ((agent.cursor(groupId) ?? 0) < posted.sequence) {
    if (agent.state === 'failed' || Date.now() > deadline) throw agent.failure ?? new Error('the posted Message was never delivered');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  print({ done: { cursor: agent.cursor(groupId), sessionEpoch: agent.sessionEpoch } });
  await agent.close();
}

main().catch((error) => {
  process.stderr.write(`${JSON.stringify({ failed: { code: error.code, message: error.message } })}\n`);
  process.exitCode = 1;
});
