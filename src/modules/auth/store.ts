import { sql } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { Invitation } from '../../platform/db/schema.js'
import { claimInstanceState } from '../orgs/store.js'

export function insertInvitation(
  db: Db,
  invitation: Omit<Invitation, 'created_at' | 'accepted_at' | 'revoked_at'>,
): Promise<Invitation> {
  return db.insertInto('invitations').values(invitation).returningAll().executeTakeFirstOrThrow()
}

export function listInvitations(db: Db, organizationId: string): Promise<Invitation[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** Marks an open invitation accepted; the row lock makes a token usable exactly once under concurrency. */
export function claimInvitation(db: Db, tokenHash: string): Promise<Invitation | undefined> {
  return db
    .updateTable('invitations')
    .set({ accepted_at: sql<Date>`now()` })
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returningAll()
    .executeTakeFirst()
}

/** A usable invitation, with its organization's name and whether its email already has an account. */
export function findUsableInvitation(db: Db, tokenHash: string) {
  return db
    .selectFrom('invitations')
    .innerJoin('organizations', 'organizations.id', 'invitations.organization_id')
    .select((eb) => [
      'invitations.email',
      'invitations.role',
      'invitations.expires_at',
      'organizations.name as organization_name',
      // Emails match case-insensitively, as signing in and accepting do.
      eb.exists(eb.selectFrom('users').select('users.id').where(sql<string>`lower(users.email)`, '=', sql<string>`lower(invitations.email)`)).as('existing_user'),
    ])
    .where('invitations.token_hash', '=', tokenHash)
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.revoked_at', 'is', null)
    .where('invitations.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
}

export function revokeInvitation(db: Db, organizationId: string, id: string): Promise<Invitation | undefined> {
  return db
    .updateTable('invitations')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** A new token and expiry for an invitation not yet accepted or revoked (an expired one included). */
export function renewInvitation(
  db: Db,
  organizationId: string,
  id: string,
  renewal: { token_hash: string; expires_at: Date },
): Promise<Invitation | undefined> {
  return db
    .updateTable('invitations')
    .set(renewal)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

export async function insertSession(db: Db, session: { id: string; token_hash: string; user_id: string; expires_at: Date }): Promise<void> {
  await db.insertInto('sessions').values(session).execute()
}

export function findSession(db: Db, tokenHash: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id as session_id', 'users.id', 'users.email', 'users.name'])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst()
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute()
}

export async function passwordHash(db: Db, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst())?.password_hash
}

export async function setPassword(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute()
}

export async function deleteOtherSessions(db: Db, userId: string, keptSessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('id', '!=', keptSessionId).execute()
}

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

/** The user's reset link: a new one replaces the one before, which stops working. */
export async function replacePasswordReset(db: Db, reset: { user_id: string; token_hash: string; expires_at: Date }): Promise<void> {
  await db
    .insertInto('password_resets')
    .values(reset)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ token_hash: reset.token_hash, expires_at: reset.expires_at}))
    .execute()
}

/** Uses a reset link once: deletes it if it is still valid, and answers whose it was. */
export async function takePasswordReset(db: Db, tokenHash: string): Promise<string | undefined> {
  const taken = await db
    .deleteFrom('password_resets')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst()
  return taken?.user_id
}

export async function deleteAllSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute()
}
