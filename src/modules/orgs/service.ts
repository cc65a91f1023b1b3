import { inTransaction, type Db } from '../../platform/db/index.js'
import type { MemberAuditAction, Organization, Role, User } from '../../platform/db/schema.js'
import { hashPassword } from '../../platform/crypto.js'
import { AppError, problems } from '../../platform/http/errors.js'
import type { Page } from '../../platform/http/pagination.js'
import { uuidv7 } from '../../platform/ids.js'
import * as store from './store.js'

export const MANAGER_ROLES: readonly Role[] = ['owner', 'admin']
/** The shortest password a person may choose, as the app's forms ask (auth/schemas.ts). */
export const MIN_PASSWORD_LENGTH = 10

/** Who changes a membership: the signed-in owner or admin. */
export interface Actor {
  id: string
  email: string
}

type LockedMembership = Awaited<ReturnType<typeof store.lockMemberships>>[number]

const onlyOwners = (what: string) => new AppError('role_not_allowed', `Only owners can ${what}.`)
const lastOwner = (what: string) =>
  new AppError('last_owner', `The organization's last owner cannot be ${what}: make another member an owner first.`)

/** What other modules do when an organization changes, in the transaction that changes it. */
export interface OrgHooks {
  /** Sets up what a new organization starts with (its catalogue). */
  organizationCreated(organizationId: string, tx: Db): Promise<void>
  /** AI was turned on or off: background work that sends its texts out follows. */
  aiChanged(organizationId: string, enabled: boolean, tx: Db): Promise<void>
  /** After the commit of such a change. */
  afterAiChanged(): void
}

/** Organizations, their settings, and the people in them (users and their roles). */
export class OrgService {
  constructor(
    private readonly db: Db,
    private readonly hooks: OrgHooks,
  ) {}

  async createOrganization(input: { name: string; slug?: string; plan?: string }, db: Db = this.db): Promise<Organization> {
    const slug = input.slug ?? slugify(input.name)
    if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(slug)) {
      throw problems.validation([{ pointer: '/slug', detail: 'must be lowercase letters, digits and inner hyphens, at most 63 characters' }])
    }
    return inTransaction(db, async (tx) => {
      const inserted = await store.insertOrganizationIfSlugFree(tx, { id: uuidv7(), name: input.name, slug, plan: input.plan ?? 'free' })
      if (!inserted) throw problems.unprocessable('slug_taken', `An organization with the slug "${slug}" already exists.`)
      await this.hooks.organizationCreated(inserted.id, tx)
      return inserted
    })
  }

  async organizationBySlug(slug: string): Promise<Organization> {
    const org = await store.findOrganizationBySlug(this.db, slug)
    if (!org) throw problems.notFound('Organization')
    return org
  }

  async organizationById(id: string): Promise<Organization> {
    const org = await store.findOrganizationById(this.db, id)
    if (!org) throw problems.notFound('Organization')
    return org
  }

  listOrganizations(): Promise<Organization[]> {
    return store.listOrganizations(this.db)
  }

  async updateSettings(organizationId: string, changes: { name?: string; ai_enabled?: boolean }): Promise<Organization> {
    const updated = await inTransaction(this.db, async (tx) => {
      const before = await store.findOrganizationById(tx, organizationId)
      const after = await store.updateOrganization(tx, organizationId, { ...changes, ...(changes.name !== undefined && { name: changes.name.trim() }) })
      if (before && before.ai_enabled !== after.ai_enabled) await this.hooks.aiChanged(organizationId, after.ai_enabled, tx)
      return { after, aiChanged: before?.ai_enabled !== after.ai_enabled }
    })
    if (updated.aiChanged) this.hooks.afterAiChanged()
    return updated.after
  }

  /**
   * Creates the user, or adds the existing user with that email to the organization; `created` says
   * which, since an existing user keeps their own password.
   */
  async addMember(
    organizationId: string,
    input: { email: string; name?: string; password: string; role: Role },
    db: Db = this.db,
  ): Promise<{ user: User; created: boolean }> {
    const existing = await store.findUserByEmail(db, input.email)
    const user =
      existing ??
      (await store.insertUser(db, {
        id: uuidv7(),
        email: input.email,
        name: input.name ?? '',
        password_hash: await hashPassword(input.password),
      }))
    await store.upsertMembership(db, organizationId, user.id, input.role)
    return { user, created: !existing }
  }

  /** The membership role, or null; a non-member sees the organization as not existing. */
  async roleOf(organizationId: string, userId: string): Promise<Role | null> {
    return (await store.findMembership(this.db, organizationId, userId))?.role ?? null
  }

  listMembers(organizationId: string) {
    return store.listMembers(this.db, organizationId)
  }

  userOrganizations(userId: string) {
    return store.listUserOrganizations(this.db, userId)
  }

  /** The user with this email, matched without case; with the password hash, for signing in. */
  userByEmail(email: string, db: Db = this.db): Promise<User | undefined> {
    return store.findUserByEmail(db, email)
  }

  /** Undefined when a user with that email exists, including one a concurrent transaction just committed. */
  createUserIfAbsent(user: { email: string; name: string; passwordHash: string }, db: Db = this.db): Promise<User | undefined> {
    return store.insertUserIfAbsent(db, { id: uuidv7(), email: user.email, name: user.name, password_hash: user.passwordHash })
  }

  /**
   * Gives a member another role. Only owners make or unmake owners, and the last owner stays one. A
   * change to the role they already have changes and records nothing.
   */
  changeRole(organizationId: string, actor: Actor, memberId: string, role: Role) {
    return inTransaction(this.db, async (tx) => {
      const { actorRole, member, owners } = await this.lockParties(tx, organizationId, actor.id, memberId)
      if (member.role !== role) {
        if (actorRole !== 'owner' && (role === 'owner' || member.role === 'owner')) throw onlyOwners('make or unmake owners')
        if (member.role === 'owner' && owners === 1) throw lastOwner('demoted')
        await store.setRole(tx, organizationId, memberId, role)
        await record(tx, organizationId, 'role_changed', actor, member, role)
      }
      const changed = await store.findMember(tx, organizationId, memberId)
      if (!changed) throw new Error(`member ${memberId} vanished inside the transaction that changed their role`)
      return changed
    })
  }

  /**
   * Removes a member and ends every session of theirs at once, so their next request is signed out.
   * Only owners remove owners, and never the last one. What they made stays in the organization.
   */
  async removeMember(organizationId: string, actor: Actor, memberId: string): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      const { actorRole, member, owners } = await this.lockParties(tx, organizationId, actor.id, memberId)
      if (member.role === 'owner') {
        if (actorRole !== 'owner') throw onlyOwners('remove an owner')
        if (owners === 1) throw lastOwner('removed')
      }
      await store.deleteMembership(tx, organizationId, memberId)
      await store.deleteSessionsOf(tx, memberId)
      await record(tx, organizationId, 'removed', actor, member, null)
    })
  }

  /** An owner hands ownership to another member, and becomes an admin. */
  async handOverOwnership(organizationId: string, actor: Actor, memberId: string): Promise<void> {
    if (memberId === actor.id) throw problems.validation([{ pointer: '/user_id', detail: 'must be another member than you' }])
    await inTransaction(this.db, async (tx) => {
      const { actorRole, member } = await this.lockParties(tx, organizationId, actor.id, memberId)
      if (actorRole !== 'owner') throw onlyOwners('hand over ownership')
      await store.setRole(tx, organizationId, memberId, 'owner')
      await store.setRole(tx, organizationId, actor.id, 'admin')
      await record(tx, organizationId, 'ownership_transferred', actor, member, 'owner')
    })
  }

  /** The organization's member changes, newest first. */
  memberChanges(organizationId: string, page: Page) {
    return store.listAuditEntries(this.db, organizationId, page)
  }

  /**
   * The operator's way back in for a member whose password is lost: sets it, and ends every session of
   * theirs. The user must be a member of the organization named, so a mistyped email changes nobody.
   */
  async setPassword(organizationId: string, email: string, password: string): Promise<User> {
    const passwordHash = await hashPassword(password)
    return inTransaction(this.db, async (tx) => {
      const user = await store.findUserByEmail(tx, email)
      if (!user || !(await store.findMembership(tx, organizationId, user.id))) throw problems.notFound(`A member with the email ${email}`)
      await store.setPasswordHash(tx, user.id, passwordHash)
      await store.deleteSessionsOf(tx, user.id)
      return user
    })
  }

  /**
   * The memberships a change depends on, locked (see lockMemberships): the actor's role as it is now (a
   * concurrent change may have lowered it since the session check), the member's, and how many owners
   * there are.
   */
  private async lockParties(tx: Db, organizationId: string, actorId: string, memberId: string) {
    const locked = await store.lockMemberships(tx, organizationId, [actorId, memberId])
    const actor = locked.find((row) => row.user_id === actorId)
    const member = locked.find((row) => row.user_id === memberId)
    if (!actor) throw problems.notFound('Organization')
    if (!MANAGER_ROLES.includes(actor.role)) throw problems.forbidden('role_required', 'Only owners and admins can do this.')
    if (!member) throw problems.notFound('Member')
    return { actorRole: actor.role, member, owners: locked.filter((row) => row.role === 'owner').length }
  }

  /** Makes the user a member in `role`; false when they already were one (their role is kept). */
  join(organizationId: string, userId: string, role: Role, db: Db = this.db): Promise<boolean> {
    return store.upsertMembership(db, organizationId, userId, role)
  }

}

function record(tx: Db, organizationId: string, action: MemberAuditAction, actor: Actor, member: LockedMembership, toRole: Role | null) {
  return store.insertAuditEntry(tx, {
    id: uuidv7(),
    organization_id: organizationId,
    action,
    actor_id: actor.id,
    actor_email: actor.email,
    member_id: member.user_id,
    member_email: member.email,
    from_role: member.role,
    to_role: toRole,
  })
}

export function slugify(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63)
      .replace(/-+$/g, '') || 'org'
  )
}
