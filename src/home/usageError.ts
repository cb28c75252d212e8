/**
 * A mistake in what the operator asked for — an unknown flag, a bad handle, a folder never
 * initialised — as opposed to a failure: the CLI reports it in one line with exit code 2
 * (src/cli/main.ts). Here, beside Home, which raises it too; src/cli/args.ts passes it on.
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
