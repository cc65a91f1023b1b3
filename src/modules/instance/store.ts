import type { Db } from '../../platform/db/index.js'
import { claimInstanceState } from '../orgs/store.js'

const SIGNED_IN_KEY = 'first_sign_in'

/** Notes that someone signed in: the first sign-in sets it, later ones change nothing. */
export async function recordSignIn(db: Db): Promise<void> {
  await claimInstanceState(db, SIGNED_IN_KEY, { at: new Date().toISOString() })
}

/** A session that exists also counts: servers from before the note was kept have signed-in users without it. */
export async function anyoneSignedIn(db: Db): Promise<boolean> {
  const { signed_in } = await db
    .selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(eb.selectFrom('instance_state').select('key').where('key', '=', SIGNED_IN_KEY)),
          eb.exists(eb.selectFrom('sessions').select('id')),
        ])
        .as('signed_in'),
    )
    .executeTakeFirstOrThrow()
  return Boolean(signed_in)
}
