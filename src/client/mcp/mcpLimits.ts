/**
 * Every limit of `missionweave mcp` (issue 14, part 3) in one place, with why it has its value.
 * The MCP server runs beside a model that may call tools in a loop, and, with `--http`, beside
 * any local process that can reach 127.0.0.1: each bound keeps one of them from making this
 * process hold more than it should.
 */

/**
 * Largest HTTPS answer a tool reads from the node. The largest read a tool makes is a page of
 * 500 Events (each ≤ 256 KiB by the node's frame limit, most a few KiB); past this the answer is
 * refused rather than handed to a model that could not use it anyway.
 */
export const MCP_READ_MAX_BYTES = 8 * 1024 * 1024;
/** A read the node has not answered by then will not be: the model gets a refusal, not a hang. */
export const MCP_READ_TIMEOUT_MS = 15_000;

/** `read_events` pages: the node's own ceiling (docs/human-api.md) … */
export const MCP_EVENTS_MAX_LIMIT = 500;
/** … and a default small enough for a model's context window. */
export const MCP_EVENTS_DEFAULT_LIMIT = 50;

/**
 * Streamable HTTP sessions held at once (`--http`): each is one MCP client on this machine, with
 * its own MCP server. A handful of local clients is the use; more is a loop or a leak.
 */
export const MCP_HTTP_MAX_SESSIONS = 16;
/** An HTTP session unused for this long is closed, so a client that vanished frees its slot. */
export const MCP_HTTP_SESSION_IDLE_MS = 30 * 60_000;
/**
 * Largest JSON-RPC request body over HTTP. The largest tool call is a Parley post or a Message:
 * a body of 500 characters and a few short members, far below this; a batch of them fits too.
 */
export const MCP_HTTP_MAX_BODY_BYTES = 1024 * 1024;
/**
 * A request body not received within this is cut off: a JSON-RPC call from a local client takes
 * milliseconds, and a body that never ends must not hold its connection for Node's default 300 s.
 */
export const MCP_HTTP_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Notices kept for the model (`work_held`): held work withdrawn or reported since the MCP server
 * started. A restart re-checks at most the runtime's held work; the latest 64 say what a model
 * needs to know without growing with a long-running server.
 */
export const MAX_HELD_NOTICES = 64;
