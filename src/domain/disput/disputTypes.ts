/**
 * The words of disput v0 (seed §1, §4, §5, §6) as types: a turn file once parsed, the config of
 * `disput.toml`, a turn as the Authority records it, and the profile's slice. Item state is not
 * here on purpose: §5 « L'état d'un item n'est stocké nulle part », it is folded from the turns
 * (`items.ts`).
 */

import type { Principal } from '../../protocol/principal.js';

export const TURN_STATUSES = ['CONTINUE', 'USER', 'DONE'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** §5: the six verdicts, spelt with their accents (the parser also reads them without). */
export const VERDICTS = ['ACCEPTÉ', 'REJETÉ', 'CORRIGÉ', 'CLOS', 'ROUVERT', 'ESCALADÉ'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** §10: the human's role. It need not be declared in `[[roles]]`. */
export const DECIDER_ROLE = 'decider';

/** §4 « Destinataire : @<participant> ou role:<rôle> ». */
export type Addressee = { readonly kind: 'participant'; readonly name: string } | { readonly kind: 'role'; readonly name: string };

export function addresseeText(to: Addressee): string {
  return to.kind === 'participant' ? `@${to.name}` : `role:${to.name}`;
}

export interface TurnHeader {
  readonly turn: number;
  readonly participant: string;
  readonly role: string;
  readonly base: string;
  readonly status: TurnStatus;
}

/** One line of « ## Réponses ». */
export interface Answer {
  readonly item: string;
  readonly verdict: Verdict;
  /** CORRIGÉ (<sha>): the commit that fixes it. */
  readonly sha?: string;
  /** ESCALADÉ → <addressee>: who decides; `role:decider` when the line names no one. */
  readonly escalatedTo?: Addressee;
  readonly text: string;
}

/** One line of « ## Items ». */
export interface NewItem {
  readonly id: string;
  readonly to: Addressee;
  readonly text: string;
}

export interface TurnFile {
  readonly header: TurnHeader;
  readonly title: string;
  readonly answers: readonly Answer[];
  readonly items: readonly NewItem[];
  /** « ## Décision requise », trimmed; absent when the section is absent. */
  readonly decision?: string;
}

export type Trigger =
  | { readonly kind: 'items_pending' }
  | { readonly kind: 'code_changed' }
  | { readonly kind: 'backlog' }
  | { readonly kind: 'paths'; readonly globs: readonly string[] };

export interface DisputRole {
  readonly name: string;
  /** §6: false means the role may change `.disput/` only. */
  readonly writesCode: boolean;
  readonly triggers: readonly Trigger[];
  readonly brief: string;
}

export interface DisputParticipant {
  readonly name: string;
  readonly adapter?: string;
  /** The roles it may hold (§6 « affectation »), from `roles` and `[[assignments]]`. */
  readonly roles: readonly string[];
  /** Who plays it in a Group: the Command's actor must be this Principal. */
  readonly principal?: Principal;
}

export type CheckPolicy = 'must_pass' | 'no_regression';

export interface DisputCheck {
  readonly name: string;
  readonly command: string;
  readonly policy: CheckPolicy;
}

export interface DisputGuards {
  readonly env: Readonly<Record<string, string>>;
  readonly deny: readonly string[];
}

export interface DisputConfig {
  readonly participants: readonly DisputParticipant[];
  /** In `disput.toml` order: §7.3 runs triggered roles in this order. */
  readonly roles: readonly DisputRole[];
  readonly checks: readonly DisputCheck[];
  readonly guards: DisputGuards;
}

/** A turn as the Authority recorded it: what §5 and §7 read later, without the prose. */
export interface RecordedTurn {
  readonly number: number;
  readonly fileName: string;
  readonly participant: string;
  readonly role: string;
  readonly status: TurnStatus;
  readonly base: string;
  readonly commit: string;
  readonly answers: readonly Omit<Answer, 'text'>[];
  readonly items: readonly Omit<NewItem, 'text'>[];
  /** §6 code_changed: a reported path lies outside `.disput/`. */
  readonly codeChanged: boolean;
  /** The roles whose `code_changed` / `paths:` triggers this turn fired, in config order. */
  readonly triggered: readonly string[];
  readonly recordedAt: string;
}

/** §7.4 reads the backlog's highest open task that is not [USER]. */
export interface BacklogSummary {
  readonly open: number;
  readonly next: string | null;
}

export interface DisputState {
  readonly config: DisputConfig | null;
  /** The turn that pinned the config in force. */
  readonly configTurn: number | null;
  readonly turns: readonly RecordedTurn[];
  readonly backlog: BacklogSummary | null;
}

export function initialDisputState(): DisputState {
  return { config: null, configTurn: null, turns: [], backlog: null };
}

/** The participants that may hold `role`, in config order. */
export function holdersOf(config: DisputConfig, role: string): readonly DisputParticipant[] {
  return config.participants.filter((p) => p.roles.includes(role));
}

export function participantOf(config: DisputConfig, name: string): DisputParticipant | undefined {
  return config.participants.find((p) => p.name === name);
}

export function roleOf(config: DisputConfig, name: string): DisputRole | undefined {
  return config.roles.find((r) => r.name === name);
}
