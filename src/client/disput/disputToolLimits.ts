/**
 * Every limit of the agent-side disput tool, in one place, with why it has its value. The seed
 * (disput v0) sets none; these bound what a repository, or a check command it names, could make
 * this process wait for or hold.
 */

/** One git plumbing call (rev-parse, diff, cat-file) on a sane repository takes milliseconds. */
export const GIT_TIMEOUT_MS = 30_000;
/**
 * What one git call may print: a diff's name list of a large refactor or one blob. A turn file is
 * at most 64 Ki characters (the domain's `turnTextMaxChars`), so 4 MiB leaves room for UTF-8 and for
 * the paths of a few thousand changed files; past it the call fails rather than fill memory.
 */
export const GIT_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** A project check (§8.7) is a test suite: ten minutes, then it is killed and counted as failed. */
export const CHECK_TIMEOUT_MS = 10 * 60_000;
/** The tail kept of a check's stdout and of its stderr: what `last-run.md` shows, not a log archive. */
export const CHECK_OUTPUT_TAIL_BYTES = 16 * 1024;
/** After the timeout, SIGTERM; a check that ignores it this long gets SIGKILL. */
export const CHECK_KILL_GRACE_MS = 2_000;
