import type { Db } from '../../platform/db/index.js'
import type { Role, User } from '../../platform/db/schema.js'
import { DECOY_PASSWORD_HASH, hashPassword, sha256Hex, verifyPassword } from '../../platform/crypto.js'
import { emit } from '../../platform/events/outbox.js'
import { AppError, problems } from '../../platform/http/errors.js'
import { randomToken, uuidv7 } from '../../platform/ids.js'
import type { OrgService } from '../orgs/service.js'
import type { FastifyBaseLogger } from 'fastify'
import type { Mailer } from '../../platform/mail/mailer.js'
import { sendFailure } from '../../platform/mail/mailer.js'
import { invitationEmail } from './emails.js'
import type { AccountLimit } from './sign-in-limit.js'
import * as store from './store.js'

export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000

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

/** Whether an invitation was emailed: `failed` leaves the link to copy, as `not_configured` (no SMTP) does. */
export type EmailOutcome = 'sent' | 'failed' | 'not_configured'

/** What invitation emails need: the mailer (none without SMTP), where links point, and where a failed send is logged. */
export interface InvitationMail {
  mailer: Mailer | undefined
  publicBaseUrl: string
  logger: FastifyBaseLogger
}

/** The inviter, as the session knows them. */
interface Inviter {
  id: string
  email: string
  name: string
  role: Role
}

const invalidCredentials = () =>
  new AppError('invalid_credentials', 'The email or password is not correct.')
const currentPasswordWrong = () => new AppError('current_password_wrong', 'The current password is not correct.')
const invitationUnusable = () =>
  new AppError('invitation_not_found', 'The invitation is unknown, expired, revoked or already used.')

function assertMayInvite(inviterRole: Role, role: Role): void {
  if (role === 'owner' && inviterRole !== 'owner') throw problems.forbidden('role_not_allowed', 'Only owners can invite owners.')
}

function emitInvited(tx: Db, invitation: { organization_id: string; email: string; role: Role }, inviter: { id: string; email: string }) {
  return emit(tx, invitation.organization_id, 'member.invited', {
    email: invitation.email,
    role: invitation.role,
    invited_by: { user_id: inviter.id, email: inviter.email },
  })
}

/** Signing in and out, sessions, and invitations into an organization (whose members `orgs` keeps). */
export class AuthService {
  /** Once someone has signed in, that never changes: neither the note nor the check touch the database again. */
  private signedIn = false

  constructor(
    private readonly db: Db,
    private readonly orgs: OrgService,
    /** After the commit of a change that emitted events: wakes their delivery. */
    private readonly afterEventsCommitted: () => void,
    private readonly accountLimit: AccountLimit,
    private readonly invitationTtlDays: number,
    private readonly mail: InvitationMail,
  ) {}

  /** When an invitation sent now stops working. */
  private invitationExpiry(): Date {
    return new Date(Date.now() + this.invitationTtlDays * 86_400_000)
  }

  /**
   * Same answer and about the same time whether the email is unknown or the password wrong; either
   * counts against the email's limit.
   */
  async login(email: string, password: string): Promise<{ session: NewSession; user: User }> {
    await this.accountLimit.check(email)
    const user = await this.orgs.userByEmail(email)
    const valid = await verifyPassword(password, user?.password_hash ?? DECOY_PASSWORD_HASH)
    if (!user || !valid) {
      await this.accountLimit.hit(email)
      throw invalidCredentials()
    }
    return { session: await this.startSession(user.id), user }
  }

  /**
   * Takes the current password, counted against the account's sign-in limit like a sign-in, so a
   * session left open cannot be used to guess it. Ends the user's other sessions; this one stays.
   */
  async changePassword(user: SessionUser, input: { current_password: string; new_password: string }): Promise<void> {
    await this.accountLimit.check(user.email)
    const stored = await store.passwordHash(this.db, user.id)
    if (stored === undefined || !(await verifyPassword(input.current_password, stored))) {
      await this.accountLimit.hit(user.email)
      throw currentPasswordWrong()
    }
    const passwordHash = await hashPassword(input.new_password)
    await this.db.transaction().execute(async (tx) => {
      await store.setPassword(tx, user.id, passwordHash)
      await store.deleteOtherSessions(tx, user.id, user.sessionId)
    })
  }

  async sessionUser(token: string | undefined): Promise<SessionUser | null> {
    if (!token) return null
    const row = await store.findSession(this.db, sha256Hex(token))
    return row ? { sessionId: row.session_id, id: row.id, email: row.email, name: row.name } : null
  }

  logout(token: string): Promise<void> {
    return store.deleteSession(this.db, sha256Hex(token))
  }

  /**
   * Invites `input.email`, then (after the commit, so the invitation exists whatever the mail server
   * says) emails the link when SMTP is set up; the answer says whether the mail server took it.
   */
  async invite(organization: { id: string; name: string }, inviter: Inviter, input: { email: string; role: Role }) {
    const organizationId = organization.id
    assertMayInvite(inviter.role, input.role)
    const token = randomToken()
    const invitation = await this.db.transaction().execute(async (tx) => {
      const created = await store.insertInvitation(tx, {
        id: uuidv7(),
        organization_id: organizationId,
        email: input.email,
        role: input.role,
        token_hash: sha256Hex(token),
        invited_by: inviter.id,
        expires_at: this.invitationExpiry(),
      })
      await emitInvited(tx, created, inviter)
      return created
    })
    this.afterEventsCommitted()
    return { invitation, token, emailStatus: await this.emailInvitation(organization, inviter, invitation, token) }
  }

  /** Sends the invitation's link; a refusal or a timeout is logged and answered `failed`, never thrown: the invitation stands. */
  private async emailInvitation(organization: { name: string }, inviter: Inviter, invitation: { id: string; email: string; role: Role; expires_at: Date }, token: string): Promise<EmailOutcome> {
    const { mailer, publicBaseUrl, logger } = this.mail
    if (!mailer) return 'not_configured'
    const message = invitationEmail({
      to: invitation.email,
      inviter,
      organizationName: organization.name,
      role: invitation.role,
      link: `${publicBaseUrl}/invite/${token}`,
      expiresAt: invitation.expires_at,
    })
    try {
      await mailer.send(message)
      return 'sent'
    } catch (error) {
      logger.warn({ invitation: invitation.id, ...sendFailure(error) }, 'the invitation email was not sent')
      return 'failed'
    }
  }

  /**
   * Sends an open invitation (expired or not) again: a new token, so the old link stops working, valid
   * for INVITATION_TTL_DAYS from now. Emits `member.invited` again, as an invitation sent is what the event reports.
   */
  async resendInvitation(organization: { id: string; name: string }, inviter: Inviter, id: string) {
    const organizationId = organization.id
    const token = randomToken()
    const invitation = await this.db.transaction().execute(async (tx) => {
      const renewed = await store.renewInvitation(tx, organizationId, id, { token_hash: sha256Hex(token), expires_at: this.invitationExpiry() })
      if (!renewed) throw problems.notFound('Open invitation')
      // Checked on the renewed row, whose role the update cannot change; refusing rolls the renewal back.
      assertMayInvite(inviter.role, renewed.role)
      await emitInvited(tx, renewed, inviter)
      return renewed
    })
    this.afterEventsCommitted()
    return { invitation, token, emailStatus: await this.emailInvitation(organization, inviter, invitation, token) }
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
      if (await this.orgs.join(invitation.organization_id, user.id, invitation.role, tx)) {
        await emit(tx, invitation.organization_id, 'member.joined', { user_id: user.id, email: user.email, role: invitation.role })
      }
      return { user, organizationId: invitation.organization_id, role: invitation.role }
    })
    this.afterEventsCommitted()
    return { ...result, session: await this.startSession(result.user.id) }
  }

  /**
   * A new email becomes a user with the given password; an existing user must give their own. A user
   * created meanwhile by a concurrent acceptance (an invitation of another organization) counts as
   * existing, instead of failing on the unique email index.
   */
  private async invitedUser(tx: Db, email: string, input: { password: string; name?: string }): Promise<User> {
    let user = await this.orgs.userByEmail(email, tx)
    if (!user) {
      const created = await this.orgs.createUserIfAbsent({ email, name: input.name ?? '', passwordHash: await hashPassword(input.password) }, tx)
      if (created) return created
      user = await this.orgs.userByEmail(email, tx)
      if (!user) throw new Error(`inserting the user ${email} conflicted, yet no such user exists`)
    }
    await this.accountLimit.check(email)
    if (!(await verifyPassword(input.password, user.password_hash))) {
      await this.accountLimit.hit(email)
      throw invalidCredentials()
    }
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
    if (!this.signedIn) await store.recordSignIn(this.db)
    this.signedIn = true
    return { id, token }
  }

  /** No one has signed in yet: the login the first start printed is the way in. */
  async firstSignInPending(): Promise<boolean> {
    this.signedIn ||= await store.anyoneSignedIn(this.db)
    return !this.signedIn
  }
}
