import { sql } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { MemberAuditTable, Organization, Role, User } from '../../platform/db/schema.js'
import type { Page } from '../../platform/http/pagination.js'

/** Undefined when the slug is taken, also by a concurrent insert. */
export function insertOrganizationIfSlugFree(
  db: Db,
  org: { id: string; name: string; slug: string; plan: string },
): Promise<Organization | undefined> {
  return db
    .insertInto('organizations')
    .values({ ...org, updated_at: sql<Date>`now()` })
    .onConflict((oc) => oc.column('slug').doNothing())
    .returningAll()
    .executeTakeFirst()
}

export async function hasOrganizations(db: Db): Promise<boolean> {
  return (await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst()) !== undefined
}

export function findOrganizationBySlug(db: Db, slug: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst()
}

export function findOrganizationById(db: Db, id: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listOrganizations(db: Db): Promise<Organization[]> {
  return db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('id').execute()
}

export function updateOrganization(
  db: Db,
  id: string,
  changes: { name?: string; ai_enabled?: boolean },
): Promise<Organization> {
  return db
    .updateTable('organizations')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function insertUser(db: Db, user: { id: string; email: string; name: string; password_hash: string }): Promise<User> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow()
}

/** Undefined when a user with that email already exists, including one a concurrent transaction just committed. */
export function insertUserIfAbsent(
  db: Db,
  user: { id: string; email: string; name: string; password_hash: string },
): Promise<User | undefined> {
  return db.insertInto('users').values(user).onConflict((oc) => oc.doNothing()).returningAll().executeTakeFirst()
}

export function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst()
}

/** True when the membership is new; an existing one is left as it is. */
export async function upsertMembership(db: Db, organizationId: string, userId: string, role: Role): Promise<boolean> {
  const inserted = await db
    .insertInto('memberships')
    .values({ organization_id: organizationId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst()
  return inserted !== undefined
}

export function findMembership(db: Db, organizationId: string, userId: string) {
  return db
    .selectFrom('memberships')
    .select(['role'])
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

function members(db: Db, organizationId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id as user_id', 'users.email', 'users.name', 'memberships.role', 'memberships.created_at as joined_at'])
    .where('memberships.organization_id', '=', organizationId)
}

export function listMembers(db: Db, organizationId: string) {
  return members(db, organizationId).orderBy('memberships.created_at').orderBy('users.id').execute()
}

export function findMember(db: Db, organizationId: string, userId: string) {
  return members(db, organizationId).where('memberships.user_id', '=', userId).executeTakeFirst()
}

/**
 * The memberships of these users and of every owner, locked until the transaction ends, in one
 * order (by user id) so that two changes never wait on each other: a change that counts owners
 * then sees any concurrent change to them.
 */
export function lockMemberships(db: Db, organizationId: string, userIds: string[]) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.user_id', 'memberships.role', 'users.email'])
    .where('memberships.organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('memberships.role', '=', 'owner'), eb('memberships.user_id', 'in', userIds)]))
    .orderBy('memberships.user_id')
    .forUpdate('memberships')
    .execute()
}

export async function setRole(db: Db, organizationId: string, userId: string, role: Role): Promise<void> {
  await db.updateTable('memberships').set({ role }).where('organization_id', '=', organizationId).where('user_id', '=', userId).execute()
}

export async function deleteMembership(db: Db, organizationId: string, userId: string): Promise<void> {
  await db.deleteFrom('memberships').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute()
}

/** Signs the user out everywhere: every session of theirs stops working with its next request. */
export async function deleteSessionsOf(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute()
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute()
}

export async function insertAuditEntry(db: Db, entry: Omit<MemberAuditTable, 'created_at'>): Promise<void> {
  await db.insertInto('member_audit').values(entry).execute()
}

/** A page of the organization's member changes, newest first, and how many there are. */
export async function listAuditEntries(db: Db, organizationId: string, page: Page) {
  const entries = db.selectFrom('member_audit').where('organization_id', '=', organizationId)
  const [rows, count] = await Promise.all([
    entries.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    entries.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(count.count) }
}

export function listUserOrganizations(db: Db, userId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select(['organizations.id', 'organizations.name', 'organizations.slug', 'memberships.role'])
    .where('memberships.user_id', '=', userId)
    .orderBy('organizations.created_at')
    .execute()
}

/** True when this call set the value; false when it was already there. */
export async function claimInstanceState(db: Db, key: string, value: unknown): Promise<boolean> {
  const inserted = await db
    .insertInto('instance_state')
    .values({ key, value: JSON.stringify(value), updated_at: sql<Date>`now()` })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst()
  return inserted !== undefined
}
