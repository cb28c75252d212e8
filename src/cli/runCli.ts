/**
 * The `missionweave` operator CLI's dispatch: `runCli(argv, io)` runs one command and returns its
 * exit code — 0 success, 1 the command's negative outcome, 2 usage, 65 data, 66 no input, 69
 * unavailable, 70 internal (exitCodes.ts; docs/cli.md) — and never exits the process;
 * `main.ts` is the binary around it. Tests call it in process.
 */

import { reportFailure } from './exitCodes.js';
import { PROCESS_IO, withIo, type CliIo } from './cliIo.js';
import { NODE_READ_SIDES } from './nodeReadSides.js';
import { readSideVerbs } from './readSide.js';
import { asksForHelp, commandUsage, packageVersion } from './cliHelp.js';
import { forwardToNode } from './operatorForward.js';
import { setCliRunner } from './cliRunner.js';

/** The verbs of the node's Extension Profiles' read sides (`missionweave disput`…). */
const PROFILE_VERBS = readSideVerbs(NODE_READ_SIDES);

const USAGE = `usage: missionweave <command> [options]
       missionweave <command> --help      that command's usage
       missionweave --version             the version
       missionweave <command> ... --verbose  an internal error's trace

commands:
  start [--dir DIR]                   initialise DIR (default .missionweave) if new, then serve it
  serve --dir DIR [--host H] [--port N] [--processes P]
                                      run a Group Authority node; prints {"url":"wss://…/v1/ws"} when ready
  init --dir DIR [--organization ID] [--host H] [--port N]
                                      create the Organization's services, keys and configuration
  agent add <handle> --dir DIR [--capability id@version ...] [--owner HUMAN]
                                      a key and a signed, registered Agent Card
  human add <name> --dir DIR [--public-key FILE|KEY]
                                      a key bound to a human Principal (--public-key: one made elsewhere, e.g. in a browser)
  command <kind> --as HANDLE --dir DIR [--group G] [--payload JSON|@FILE] [--node HTTPS_ORIGIN]
                                      sign a Command as a Principal and submit it (--node: through
                                      a running node's POST /v1/commands)
  archive <groupId> --dir DIR         archive a terminal Mission's Group with its signed final snapshot
  destroy --dir DIR                   remove a home and its embedded PostgreSQL data (not while a node
                                      serves it; a configured database stays)
  replay <groupId> --dir DIR [--after N] [--verify]
                                      a Group's Events as JSON lines; --verify checks them
  registry export --dir DIR [--out FILE]
                                      the Registry's public key bindings, for offline verification
  audit --dir DIR [--group G] [--since T] [--limit N]
                                      refused Signed Documents (the Policy Log) as JSON lines, oldest first
  tree <missionId> --dir DIR          the Mission tree below a Mission (§14) as JSON
  profile add FILE --dir DIR | profile list --dir DIR
                                      register an Organization-approved Extension Profile (§18); list them
  mcp --as AGENT --dir DIR [--extension LABEL] [--http PORT] [--slots N] [--url wss://HOST:PORT]
                                      an MCP server speaking for the Agent: Parley, Mission and WorkItem tools
                                      over stdio (stdout is MCP only), or Streamable HTTP on 127.0.0.1:PORT;
                                      held work kept in the Agent's runtime (survives a restart)
  worker --as AGENT --dir DIR --handler MODULE [--slots N] [--url wss://HOST:PORT]
                                      run the Agent's runtime: each WorkItem it accepts is run by the
                                      module's default export (job); resumes from checkpoints after a restart
${[...PROFILE_VERBS.values()].map((verb) => verb.usage).join('')}  kinds [KIND]                        the Command kinds (core and the node's profiles), one line each;
                                      with KIND its payload schema and an example payload
  conformance [--spec DIR] [--json]   run the official bundles against this implementation
  validate <object> <file|->          strictly parse and schema-validate one document
`;

type Command = (argv: readonly string[]) => number | Promise<number>;

// Loaded on demand: commands that never touch the database stay fast and light.
const COMMANDS: Record<string, () => Promise<Command>> = {
  init: async () => (await import('./initCommand.js')).initCommand,
  serve: async () => (await import('./serveCommand.js')).serveCommand,
  start: async () => (await import('./serveCommand.js')).startCommand,
  agent: async () => (await import('./principalCommands.js')).principalCommand('agent'),
  human: async () => (await import('./principalCommands.js')).principalCommand('human'),
  command: async () => (await import('./commandCommand.js')).commandCommand,
  archive: async () => (await import('./archiveCommand.js')).archiveCommand,
  destroy: async () => (await import('./destroyCommand.js')).destroyCommand,
  replay: async () => (await import('./replayCommand.js')).replayCommand,
  registry: async () => (await import('./registryCommand.js')).registryCommand,
  audit: async () => (await import('./auditCommand.js')).auditCommand,
  tree: async () => (await import('./treeCommand.js')).treeCommand,
  profile: async () => (await import('./profileCommand.js')).profileCommand,
  mcp: async () => (await import('./mcpCommand.js')).mcpCommand,
  worker: async () => (await import('./workerCommand.js')).workerCommand,
  ...Object.fromEntries([...PROFILE_VERBS].map(([name, verb]) => [name, () => verb.load()])),
  kinds: async () => (await import('./kindsCommand.js')).kindsCommand,
  conformance: async () => (await import('./conformanceCommand.js')).conformanceCommand,
  validate: async () => (await import('./validateCommand.js')).validateCommand,
};

async function dispatch(args: readonly string[]): Promise<number> {
  // `--verbose` anywhere: an internal error's trace (the commands never see the flag).
  const verbose = args.includes('--verbose');
  const argv = args.filter((arg) => arg !== '--verbose');
  const [name, ...rest] = argv;
  if (name === '--version') {
    process.stdout.write(`missionweave ${packageVersion()}\n`);
    return 0;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const load = name === undefined ? undefined : COMMANDS[name];
  if (load !== undefined && asksForHelp(rest)) {
    process.stdout.write(commandUsage(USAGE, name as string) ?? USAGE);
    return 0;
  }
  if (load === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  try {
    // With a node running for the home, the reading and submitting commands run in it (operatorForward.ts).
    const forwarded = await forwardToNode(name as string, rest);
    if (forwarded !== undefined) return forwarded;
    return await (await load())(rest);
  } catch (error) {
    return reportFailure(error, verbose);
  }
}

/** Runs one CLI command with `argv` (no node, no script) on `io`; its exit code. */
export function runCli(argv: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
  return withIo(io, () => dispatch(argv));
}

setCliRunner(runCli);
