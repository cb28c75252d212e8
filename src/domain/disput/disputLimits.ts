/**
 * disput v0's limits, in one place. The seed sets none; these are ours, each with its reason.
 * They bound the Command payload (a turn file is carried whole) and the profile's slice of
 * Group state, which the Group folds on every Command.
 */

export const disputLimits = {
  /** A turn file is prose for a reviewer to read in one sitting; past this it is a dump. */
  turnTextMaxChars: 65_536,
  /** `disput.toml` names a few participants, roles and checks; a longer one is not config. */
  configTextMaxChars: 16_384,
  /** The backlog is carried whole with each turn that sends it (§7.4 reads its top task). */
  backlogTextMaxChars: 65_536,
  /** Seed §4: NNNN has four digits; a dialogue this long is archived (§2 `archive/`) and restarted. */
  maxTurns: 1_000,
  /** Items one turn opens: one thought each (§4), a review is not a list of a hundred nits. */
  maxItemsPerTurn: 50,
  /** Answers one turn gives: rule 3 asks one per pending item, so this bounds the open items too. */
  maxAnswersPerTurn: 100,
  /** One item or answer line (§4: « une ligne par item »). */
  lineMaxChars: 2_000,
  /** Paths a turn reports as changed: enough for a large refactor, bounded for the Event. */
  maxChangedPaths: 1_000,
  pathMaxChars: 1_024,
  /** Participants, roles, checks of a dialogue: a review circle, not an organization. */
  maxParticipants: 16,
  maxRoles: 16,
  maxChecks: 32,
  /** A role's brief is a paragraph read at every turn. */
  briefMaxChars: 2_000,
  /** Participant and role names appear in file names (`NNNN-<participant>-<role>.md`). */
  nameMaxChars: 32,
  /** Guards: a few variables and deny patterns, each short. */
  maxGuardEnv: 64,
  maxGuardDeny: 64,
  guardValueMaxChars: 512,
  /** A check's command line. */
  commandMaxChars: 1_000,
  /** `paths:` globs of one trigger. */
  maxGlobsPerTrigger: 16,
} as const;

export type DisputLimits = typeof disputLimits;
