/**
 * The limits of `missionweave disput`, each with its reason, in one place.
 */

/** `GET /v1/groups/{g}/events` serves at most 500 Events a page (docs/human-api.md). */
export const EVENTS_PAGE = 500;
/** One HTTPS request to the node: a local node answers in milliseconds; a stuck one must not hang an agent's turn. */
export const DISPUT_HTTP_TIMEOUT_MS = 30_000;
/** `status` shows this many of the last turns: enough to see the exchange, short enough to read. */
export const LAST_TURNS_SHOWN = 5;
/**
 * What one `git show` of a file may print: Node's default `maxBuffer` for `execFileSync`, which
 * has always bounded `GitRepo.fileAt`; a batched read (`GitRepo.readFiles`) keeps the same bound
 * per file and leaves a larger one to `git show`, so it answers as it did.
 */
export const GIT_SHOW_MAX_BYTES = 1024 * 1024;
