import type { Transporter } from 'nodemailer'
import type { SmtpConfig } from '../../config.js'

/** One email: a plain-text part and its HTML twin, from the server's `SMTP_FROM`. */
export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

/** Sends email through the operator's SMTP server; absent from a server without `SMTP_URL`. */
export interface Mailer {
  /** Resolves once the server accepted the message; rejects with its refusal or a timeout. */
  send(message: MailMessage): Promise<void>
  close(): void
}

/**
 * A mail server that does not greet or answer within these gives up the send, so an inviter waits at
 * most about this long for the answer to say the email failed.
 */
const CONNECTION_TIMEOUT_MS = 10_000
const SOCKET_TIMEOUT_MS = 20_000

/**
 * A nodemailer SMTP transport to `SMTP_URL`, one connection per message (invitations and reset links
 * are rare). The operator configured the host, like the database's, so it is not an outbound request
 * of a user and does not go through the SSRF guard. Errors are logged by the caller with their code and
 * message only: nodemailer's never carry the URL's password. nodemailer itself loads with the first
 * email, not at start: a server keeps it idle for days between invitations (issue 39's idle RSS).
 */
export function createMailer(config: SmtpConfig): Mailer {
  let transport: Promise<Transporter> | undefined
  const opened = () =>
    (transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport(
        { url: config.url, connectionTimeout: CONNECTION_TIMEOUT_MS, greetingTimeout: CONNECTION_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS, logger: false },
        { from: config.from },
      ),
    ))
  return {
    async send(message) {
      await (await opened()).sendMail({ ...message, disableFileAccess: true, disableUrlAccess: true })
    },
    close: () => void transport?.then((opened) => opened.close()),
  }
}

/** The mailer of a configuration with email, else undefined. */
export function mailerFor(smtp: SmtpConfig | undefined): Mailer | undefined {
  return smtp ? createMailer(smtp) : undefined
}

/** What a failed send is logged as: its SMTP code and reply, never the transport's options. */
export function sendFailure(error: unknown): Record<string, unknown> {
  const { code, responseCode, message } = error as { code?: string; responseCode?: number; message?: string }
  return { code, responseCode, reason: message }
}
