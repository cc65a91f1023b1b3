import { sql } from 'kysely'
import type { TestApp } from './app.js'
import { silentLogger } from './database.js'
import { waitFor } from './wait.js'
import { holdProcessLease, type ProcessLease } from '../../src/platform/http/idempotency-lease.js'

/** The lease another serving process of the test app's database would hold (close it to play its death). */
export function otherProcessLease(t: TestApp): Promise<ProcessLease> {
  return holdProcessLease(t.database.handle, silentLogger)
}

/** Ends `lease` as a killed process's session ends, and waits until the database has let it go. */
export async function endLease(t: TestApp, lease: ProcessLease): Promise<void> {
  await lease.close()
  await waitFor('the lease to be let go', async () => {
    const { rows } = await sql<{ held: boolean }>`
      select exists (select 1 from pg_locks where locktype = 'advisory' and objid = ${lease.id} and objsubid = 2 and granted) as held
    `.execute(t.database.handle.db)
    return !rows[0]!.held
  })
}

/** The claim a request of the process holding `lease` leaves on its key (see claimOf). */
export const claimBy = (lease: ProcessLease) => `${lease.id}:${crypto.randomUUID()}`
