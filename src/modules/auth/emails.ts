import { escapeHtml } from '../../platform/html.js'
import type { MailMessage } from '../../platform/mail/mailer.js'

const PRODUCT = 'Asset Library'

/** A plain-text paragraph list and its HTML twin; every value in `paragraphs` is escaped in the HTML. */
function message(to: string, subject: string, paragraphs: { text: string; link?: { url: string; label: string } }[]): MailMessage {
  const text = paragraphs.map((p) => (p.link ? `${p.text}\n${p.link.url}` : p.text)).join('\n\n')
  const html = paragraphs
    .map((p) => (p.link ? `<p>${escapeHtml(p.text)}<br><a href="${escapeHtml(p.link.url)}">${escapeHtml(p.link.label)}</a></p>` : `<p>${escapeHtml(p.text)}</p>`))
    .join('\n')
  return { to, subject, text: `${text}\n`, html: `<!doctype html>\n<html><body>\n${html}\n</body></html>\n` }
}

const dateOf = (date: Date) => date.toUTCString()

/** The invitation: its acceptance link is the plain text's first link. */
export function invitationEmail(input: { to: string; inviter: { name: string; email: string }; organizationName: string; role: string; link: string; expiresAt: Date }): MailMessage {
  const inviter = input.inviter.name || input.inviter.email
  return message(input.to, `${inviter} invited you to ${input.organizationName} on ${PRODUCT}`, [
    { text: `${inviter} (${input.inviter.email}) invited you to join ${input.organizationName} on ${PRODUCT} as ${input.role === 'admin' ? 'an admin' : `a ${input.role}`}.` },
    { text: 'Accept the invitation:', link: { url: input.link, label: 'Accept the invitation' } },
    { text: `The link works once, until ${dateOf(input.expiresAt)}. If you did not expect this invitation, ignore this email.` },
  ])
}

/** The password reset link, the plain text's first link. */
export function passwordResetEmail(input: { to: string; link: string; expiresAt: Date }): MailMessage {
  return message(input.to, `Reset your ${PRODUCT} password`, [
    { text: `Someone asked to reset the password of ${input.to} on ${PRODUCT}. Choose a new password here:`, link: { url: input.link, label: 'Choose a new password' } },
    { text: `The link works once, until ${dateOf(input.expiresAt)}; asking again makes a new one and this one stops working. If you did not ask, ignore this email: your password stays as it is.` },
  ])
}
