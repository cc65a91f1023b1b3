import type { RawBuilder } from 'kysely'
import type { QueueCounts } from './claims.js'

/** Rows with the `id` of the assets a statement inserted or changed. */
export type ChangedRows = RawBuilder<{ id: string }>

/**
 * How much work of one derivation waits, of the whole instance or of one organization. The three
 * counts are disjoint: a job is pending (due, or queued and not yet claimed), running (a runner holds
 * its lease) or failed (its last attempt failed: it waits for its retry, or, when it can never
 * succeed as it is, for a `retry`). What each derivation counts as failed is said where it counts.
 * `oldest_pending_at` is when the longest-waiting pending job became due; null when none is pending.
 */
export interface DerivationCounts extends QueueCounts {
  name: string
}

/**
 * Work that follows a change to an asset and runs after its commit (a thumbnail, an embedding): its
 * queue is a table of its own (the columns of claims.ts), filled by the statement of the change. What
 * the operator and the owners see and do about it is the same for every derivation: counts and a retry.
 */
export interface DerivedWork {
  readonly name: string
  /** After the commit of a change that queued work: wakes this process's runner (other processes wake on NOTIFY). */
  afterCommit(): void
  /** Runs the job in this process until stop(): claims on wake-ups and NOTIFY, with a slow fallback poll. */
  start(): Promise<void>
  stop(timeoutMs: number): Promise<void>
  /** Works every due job now, until none is left (tests, a process that has just restored its files). */
  drain(): Promise<void>
  /** Whether this process runs the job (a serving process that leaves the work to workers does not). */
  working(): boolean
  /**
   * Why this instance cannot do the work at all (`no_provider`: nothing to embed with, say), or null. Its
   * jobs then wait, queued, for the setting that makes them possible; a retry cannot help them.
   */
  unavailableReason(): Promise<string | null>
  counts(organizationId?: string): Promise<DerivationCounts>
  /** Queues again what failed and what is missing (of one organization, or all); returns how many jobs it queued. */
  retry(organizationId?: string): Promise<number>
}

/**
 * A derivation as the module that makes the change sees it: `queue` returns the clause that queues the
 * work for the rows `changed` selects, run in the change's own statement or transaction (so a rollback
 * queues nothing), or null when this change needs none. `Change` is what that module says of a change.
 */
export interface Derivation<Change> extends DerivedWork {
  queue(changed: ChangedRows, change: Change): RawBuilder<unknown> | null
}

/** Finds a derivation by name; undefined when there is none. */
export function derivationNamed<T extends DerivedWork>(derivations: readonly T[], name: string): T | undefined {
  return derivations.find((derivation) => derivation.name === name)
}
