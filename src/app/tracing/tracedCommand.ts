/**
 * A verified Command made ready for tracing (src/app/tracing/tracing.ts): its span named by the
 * Command's kind, Action ID and Group, linked to the trace its own signed trace-context extension
 * names, and the trace context its primary Event is to carry when it came with one (an HTTPS
 * request's `traceparent`): this Command's span when tracing is on, the caller's context as it
 * came when tracing is off.
 */

import { trace, type Span } from '@opentelemetry/api';
import type { VerifiedCommand } from '../verifyCommand.js';
import { commandTraceParent, Tracing, type TraceParent } from './tracing.js';

export function tracedCommand(command: VerifiedCommand, parent: TraceParent | undefined, span: Span | undefined): VerifiedCommand {
  if (span !== undefined) {
    const { kind, actionId, groupId } = command.envelope;
    span.setAttributes({ 'missionweave.command.kind': kind, 'missionweave.action_id': actionId, ...(groupId === undefined ? {} : { 'missionweave.group_id': groupId }) });
    const own = commandTraceParent(command.document);
    const linked = own === undefined ? undefined : trace.getSpanContext(own.context);
    if (linked !== undefined) span.addLink({ context: linked });
  }
  if (parent === undefined) return command;
  const traceparent = span === undefined ? parent.traceparent : (Tracing.traceparentOf(span) ?? parent.traceparent);
  return { ...command, traceContext: { traceparent, ...(parent.tracestate === undefined ? {} : { tracestate: parent.tracestate }) } };
}
