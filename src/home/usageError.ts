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
