import type { FastifyBaseLogger } from 'fastify'
import { hashPassword, sha256Hex } from '../../platform/crypto.js'
import type { Db } from '../../platform/db/index.js'
import { AppError } from '../../platform/http/errors.js'
import { randomToken } from '../../platform/ids.js'
import { sendFailure, type Mailer } from '../../platform/mail/mailer.js'
import type { OrgService } from '../orgs/service.js'
import { passwordResetEmail } from './emails.js'
import type { AccountLimit } from './sign-in-limit.js'
import * as store from './store.js'

/** How long an emailed reset link works. */
export const RESET_LINK_TTL_MS = 30 * 60_000

export interface PasswordResetDeps {
  db: Db
  orgs: OrgService
  /** Undefined without SMTP: nobody can be sent a link. */
  mailer: Mailer | undefined
  /** Requests per account (the email given, known or not). */
  limit: AccountLimit
  publicBaseUrl: string
  logger: FastifyBaseLogger
}

/**
 * "Forgot password": a one-time link emailed to the account's address, and the new password set with it.
 * The request's answer is the same whether the address has an account or not, and comes before anything
 * is looked up: the lookup, the new link and the send run after it, so its timing tells nothing either.
 */
export class PasswordResets {
  /** Links being made and sent, awaited by `settled`. */
  private readonly inFlight = new Set<Promise<void>>()

  constructor(private readonly deps: PasswordResetDeps) {}

  /** Counts the request against the email's limit, then sends a link in the background if the email has an account. */
  async request(email: string): Promise<void> {
    const { mailer, limit } = this.deps
    if (!mailer) {
      throw new AppError('email_not_configured', 'This server sends no email, so it cannot send a reset link: an owner or admin asks the server\u2019s operator to set a new password (asset-library user set-password).')
    }
    await limit.take(email)
    const sending = this.sendLink(mailer, email).finally(() => this.inFlight.delete(sending))
    this.inFlight.add(sending)
  }

  /** Sets the new password with a link's token, once, and ends every session of its user. */
  async reset(token: string, newPassword: string): Promise<void> {
    const passwordHash = await hashPassword(newPassword)
    const used = await this.deps.db.transaction().execute(async (tx) => {
      const userId = await store.takePasswordReset(tx, sha256Hex(token))
      if (!userId) return false
      await store.setPassword(tx, userId, passwordHash)
      await store.deleteAllSessions(tx, userId)
      return true
    })
    if (!used) throw new AppError('reset_link_invalid', 'This reset link is unknown, expired, already used, or replaced by a newer one: ask for a new link.')
  }

  /** Once the links asked for so far are sent (or given up). */
  async settled(): Promise<void> {
    await Promise.all(this.inFlight)
  }

  private async sendLink(mailer: Mailer, email: string): Promise<void> {
    const { db, orgs, publicBaseUrl, logger } = this.deps
    try {
      const user = await orgs.userByEmail(email)
      if (!user) return
      const token = randomToken()
      const expiresAt = new Date(Date.now() + RESET_LINK_TTL_MS)
      await store.replacePasswordReset(db, { user_id: user.id, token_hash: sha256Hex(token), expires_at: expiresAt })
      // In the fragment: the browser never sends it to a server, so no access log or Referer carries it.
      await mailer.send(passwordResetEmail({ to: user.email, link: `${publicBaseUrl}/reset-password#token=${token}`, expiresAt }))
    } catch (error) {
      logger.warn(sendFailure(error), 'a password reset link was not sent')
    }
  }
}
