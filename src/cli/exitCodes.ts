/**
 * The CLI's exit codes, sysexits-style (docs/cli.md lists them), and how a failure becomes one:
 * a user's mistake is one line that says what is wrong and what to do, never a stack trace; an
 * internal error is one line too, its trace only with `--verbose`.
 */

import { UsageError } from './args.js';
import { DataError, NoInputError, UnavailableError } from '../home/usageError.js';

export const EXIT = {
  ok: 0,
  /** The command's negative outcome: an invalid document, a refused Command, a failed check. */
  negative: 1,
  usage: 2,
  /** EX_DATAERR: a payload that is not one strict JSON object. */
  data: 65,
  /** EX_NOINPUT: a missing file, a folder that is not a home, an unknown Group or kind. */
  noInput: 66,
  /** EX_UNAVAILABLE: no node runs or answers, a port already in use. */
  unavailable: 69,
  /** EX_SOFTWARE: an internal error. */
  internal: 70,
} as const;

/** A system error whose code says the operator's resources are taken or absent. */
function systemCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Reports `error` on stderr as one line (its trace too when `verbose`); the exit code. */
export function reportFailure(error: unknown, verbose: boolean): number {
  const write = (line: string): void => void process.stderr.write(`${line}\n`);
  if (error instanceof DataError) return (write(error.message), EXIT.data);
  if (error instanceof NoInputError) return (write(error.message), EXIT.noInput);
  if (error instanceof UsageError) return (write(error.message), EXIT.usage);
  if (error instanceof UnavailableError) return (write(error.message), EXIT.unavailable);
  if (systemCode(error) === 'EADDRINUSE') {
    write(`missionweave: the address is already in use (${(error as Error).message}); stop what listens there, or choose another with --port`);
    return EXIT.unavailable;
  }
  if (verbose) write(`missionweave: ${(error as Error).stack ?? String(error)}`);
  else write(`missionweave: internal error: ${(error as Error).message ?? String(error)}; run again with --verbose for the trace`);
  return EXIT.internal;
}
