import { inTransaction, type Db } from '../../platform/db/index.js'
import type { Organization, Role, User } from '../../platform/db/schema.js'
import { DECOY_PASSWORD_HASH, hashPassword, sha256Hex, verifyPassword } from '../../platform/crypto.js'
import { emit } from '../../platform/events/outbox.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { randomToken, uuidv7 } from '../../platform/ids.js'
import * as store from './store.js'

export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000
export const MANAGER_ROLES: readonly Role[] = ['owner', 'admin']

export interface NewSession {
  id: string
  token: string
}

export interface SessionUser {
  sessionId: string
  id: string
  email: string
  name: string
}

const invalidCredentials = () =>
  new AppError('invalid_credentials', 'The email or password is not correct.')
const invitationUnusable = () =>
  new AppError('invitation_not_found', 'The invitation is unknown, expired, revoked or already used.')

/** What other modules do when an organization changes, in the transaction that changes it. */
export interface OrgHooks {
  /** Sets up what a new organization starts with (its catalogue). */
  organizationCreated(organizationId: string, tx: Db): Promise<void>
  /** AI was turned on or off: background work that sends its texts out follows. */
  aiChanged(organizationId: string, enabled: boolean, tx: Db): Promise<void>
  /** After the commit of such a change. */
  afterAiChanged(): void
  /** After the commit of a change that emitted events: wakes their delivery. */
  afterEventsCommitted(): void
}

/** Organizations, the people in them, their sessions and invitations. */
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

  /** Same answer and about the same time whether the email is unknown or the password wrong. */
  async login(email: string, password: string): Promise<{ session: NewSession; user: User }> {
    const user = await store.findUserByEmail(this.db, email)
    const valid = await verifyPassword(password, user?.password_hash ?? DECOY_PASSWORD_HASH)
    if (!user || !valid) throw invalidCredentials()
    return { session: await this.startSession(user.id), user }
  }

  async sessionUser(token: string | undefined): Promise<SessionUser | null> {
    if (!token) return null
    const row = await store.findSession(this.db, sha256Hex(token))
    return row ? { sessionId: row.session_id, id: row.id, email: row.email, name: row.name } : null
  }

  logout(token: string): Promise<void> {
    return store.deleteSession(this.db, sha256Hex(token))
  }

  async invite(
    organizationId: string,
    inviter: { id: string; email: string; role: Role },
    input: { email: string; role: Role },
  ) {
    if (input.role === 'owner' && inviter.role !== 'owner') {
      throw problems.forbidden('role_not_allowed', 'Only owners can invite owners.')
    }
    const token = randomToken()
    const invitation = await this.db.transaction().execute(async (tx) => {
      const created = await store.insertInvitation(tx, {
        id: uuidv7(),
        organization_id: organizationId,
        email: input.email,
        role: input.role,
        token_hash: sha256Hex(token),
        invited_by: inviter.id,
        expires_at: new Date(Date.now() + INVITATION_TTL_MS),
      })
      await emit(tx, organizationId, 'member.invited', {
        email: input.email,
        role: input.role,
        invited_by: { user_id: inviter.id, email: inviter.email },
      })
      return created
    })
    this.hooks.afterEventsCommitted()
    return { invitation, token }
  }

  listInvitations(organizationId: string) {
    return store.listInvitations(this.db, organizationId)
  }

  async revokeInvitation(organizationId: string, id: string) {
    const invitation = await store.revokeInvitation(this.db, organizationId, id)
    if (!invitation) throw problems.notFound('Open invitation')
    return invitation
  }

  /** What the acceptance form shows before the invitation is used: whom it is for, and where. */
  async invitationPreview(token: string) {
    const invitation = await store.findUsableInvitation(this.db, sha256Hex(token))
    if (!invitation) throw invitationUnusable()
    return invitation
  }

  /**
   * Uses an invitation token once: a new email becomes a user with the given password; an existing
   * user must prove it with theirs. Either way the membership and `member.joined` commit together.
   */
  async acceptInvitation(input: { token: string; password: string; name?: string }) {
    const tokenHash = sha256Hex(input.token)
    const result = await this.db.transaction().execute(async (tx) => {
      const invitation = await store.claimInvitation(tx, tokenHash)
      if (!invitation) throw invitationUnusable()
      const user = await this.invitedUser(tx, invitation.email, input)
      // Someone who is already a member keeps their role, and nobody joined.
      if (await store.upsertMembership(tx, invitation.organization_id, user.id, invitation.role)) {
        await emit(tx, invitation.organization_id, 'member.joined', { user_id: user.id, email: user.email, role: invitation.role })
      }
      return { user, organizationId: invitation.organization_id, role: invitation.role }
    })
    this.hooks.afterEventsCommitted()
    return { ...result, session: await this.startSession(result.user.id) }
  }

  /**
   * A new email becomes a user with the given password; an existing user must give their own. A user
   * created meanwhile by a concurrent acceptance (an invitation of another organization) counts as
   * existing, instead of failing on the unique email index.
   */
  private async invitedUser(tx: Db, email: string, input: { password: string; name?: string }): Promise<User> {
    let user = await store.findUserByEmail(tx, email)
    if (!user) {
      const created = await store.insertUserIfAbsent(tx, {
        id: uuidv7(),
        email,
        name: input.name ?? '',
        password_hash: await hashPassword(input.password),
      })
      if (created) return created
      user = await store.findUserByEmail(tx, email)
      if (!user) throw new Error(`inserting the user ${email} conflicted, yet no such user exists`)
    }
    if (!(await verifyPassword(input.password, user.password_hash))) throw invalidCredentials()
    return user
  }

  private async startSession(userId: string): Promise<NewSession> {
    const token = randomToken()
    const id = uuidv7()
    await store.insertSession(this.db, {
      id,
      token_hash: sha256Hex(token),
      user_id: userId,
      expires_at: new Date(Date.now() + SESSION_TTL_MS),
    })
    return { id, token }
  }
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
