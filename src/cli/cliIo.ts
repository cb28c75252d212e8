/**
 * Where a CLI run writes and which environment it sees. The binary uses the process's own
 * streams and environment; a test runs a command in process with writers of its own and the
 * variables it sets. The commands write through `process.stdout`/`process.stderr` and read
 * `process.env`, so an in-process run routes those to its `CliIo` for its duration: one run
 * at a time per process (runs in one test file are sequential).
 */

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Variables set for the run; `undefined` removes one. The rest of the environment stays. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** The process's own streams and environment, as the binary runs. */
export const PROCESS_IO: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

type Write = typeof process.stdout.write;

function writerTo(sink: (text: string) => void): Write {
  return ((chunk: string | Uint8Array, encodingOrDone?: unknown, done?: unknown) => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = typeof encodingOrDone === 'function' ? encodingOrDone : done;
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
    return true;
  }) as Write;
}

/** Runs `body` with the process's streams and environment routed to `io`, restored after. */
export async function withIo<T>(io: CliIo, body: () => Promise<T>): Promise<T> {
  if (io === PROCESS_IO) return body();
  const { stdout, stderr } = process;
  const writes = { stdout: stdout.write, stderr: stderr.write };
  const saved = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries(io.env ?? {})) {
    saved.set(name, process.env[name]);
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  stdout.write = writerTo(io.stdout);
  stderr.write = writerTo(io.stderr);
  try {
    return await body();
  } finally {
    stdout.write = writes.stdout;
    stderr.write = writes.stderr;
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
