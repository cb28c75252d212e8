/**
 * A mistake in what the operator asked for — an unknown flag, a bad handle — as opposed to a
 * failure: the CLI reports it in one line with exit code 2 (src/cli/runCli.ts; its kinds
 * DataError and NoInputError below have codes of their own, docs/cli.md lists them all). Here,
 * beside Home, which raises them too; src/cli/args.ts passes them on.
 */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * What the command needs is not there — no node runs for the home, a node does not answer: one
 * line and exit code 69 (EX_UNAVAILABLE in sysexits.h), so a script can tell it from a mistake.
 */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}

/**
 * Data the operator gave is wrong — a payload that is not one strict JSON object (bad syntax,
 * duplicate member names, as the wire refuses them): one line and exit code 65 (EX_DATAERR).
 */
export class DataError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'DataError';
  }
}

/**
 * What the operator named is not there — a `@file` that does not exist, a folder that is not a
 * home, a Group this home does not hold: one line and exit code 66 (EX_NOINPUT).
 */
export class NoInputError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'NoInputError';
  }
}
