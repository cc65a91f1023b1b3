import { inTransaction, type Db } from '../../platform/db/index.js'
import type { Organization, Role, User } from '../../platform/db/schema.js'
import { hashPassword } from '../../platform/crypto.js'
import { problems } from '../../platform/http/errors.js'
import { uuidv7 } from '../../platform/ids.js'
import * as store from './store.js'

export const MANAGER_ROLES: readonly Role[] = ['owner', 'admin']

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

  /** Makes the user a member in `role`; false when they already were one (their role is kept). */
  join(organizationId: string, userId: string, role: Role, db: Db = this.db): Promise<boolean> {
    return store.upsertMembership(db, organizationId, userId, role)
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
