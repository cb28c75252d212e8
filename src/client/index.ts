/**
 * `missionweave/client`: the agent-side SDK for MissionWeaveProtocol 0.1.
 *
 * Start with `MissionWeaveAgent` (agent.ts documents the whole behaviour); keep Cursors in a
 * `FileCursorStore`; classify failures by `error.code` (`MissionWeaveError` for the server's
 * ERROR documents, `AgentClientError` for this side's).
 */

export { MissionWeaveAgent } from './agent.js';
export { backoffDelay } from './agentOptions.js';
export type { AgentState, ConnectionChange, MissionWeaveAgentOptions } from './agentOptions.js';
export type { CommandOptions, EpochFacts, EpochProvider } from './commands.js';
export { FileCursorStore, MemoryCursorStore } from './cursorStore.js';
export type { CursorStore } from './cursorStore.js';
export { isGroupEvent } from './documents.js';
export type { Attention, GroupEvent, JsonObject, Principal, ProtocolEvent, SignatureEnvelope } from './documents.js';
export { AgentClientError, isAgentError, MissionWeaveError } from './errors.js';
export type { AgentError, ClientErrorCode, ErrorDocument } from './errors.js';
export type { EventHandler, GroupState } from './groupStream.js';
export type { SessionClose } from './session.js';
export type { GroupSnapshotArtifact, SnapshotHandler } from './snapshots.js';
export { ERROR_CODES } from '../protocol/errorCodes.js';
export type { ErrorCode } from '../protocol/errorCodes.js';
