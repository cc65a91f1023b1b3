import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedOrganization, startTestApp, type Seeded, type TestApp } from '../support/app.js'
import { expectProblem } from '../support/fixtures.js'
import { login, loginOwner, postLogin, type Client } from '../support/sessions.js'
import { firstLink, startSmtpSink, type SmtpSink } from '../support/smtp-sink.js'

const FROM = 'Asset Library <assets@example.com>'
const REFUSED = /^refused-/

let sink: SmtpSink
/** A server that sends email through the sink. */
let t: TestApp
/** A server without SMTP_URL. */
let plain: TestApp
let acme: Seeded
let owner: Client

beforeAll(async () => {
  sink = await startSmtpSink({ refuses: (recipient) => REFUSED.test(recipient) })
  ;[t, plain] = await Promise.all([startTestApp({ env: { SMTP_URL: sink.url, SMTP_FROM: FROM } }), startTestApp({ env: { RATE_LIMIT_SIGN_IN: '2' } })])
  acme = await seedOrganization(t.app, 'Acme <b>&</b> Co')
  await t.database.handle.db.updateTable('users').set({ name: 'Ann "The <Boss>"' }).where('id', '=', acme.owner.id).execute()
  owner = await loginOwner(t.app, acme)
})
afterAll(async () => {
  await Promise.all([t?.close(), plain?.close()])
  await sink?.close()
})

const invitations = () => `/app/api/orgs/${acme.org.slug}/invitations`
const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 8)}@example.com`

function requestReset(app: TestApp, email: string, remoteAddress?: string) {
  return app.app.inject({ method: 'POST', url: '/app/api/password-reset', payload: { email }, ...(remoteAddress && { remoteAddress }) })
}

function completeReset(token: string, newPassword = 'a brand new password') {
  return t.app.inject({ method: 'POST', url: '/app/api/password-reset/complete', payload: { token, new_password: newPassword } })
}

/** Every message sent to `to`, once there are `count`. */
async function messagesTo(to: string, count: number) {
  const sent = () => sink.messages.filter((m) => [m.to].flat().some((a) => a?.value.some((v) => v.address === to)))
  await expect.poll(() => sent().length).toBe(count)
  return sent()
}

const tokenOf = (link: string | undefined) => new URL(link!).hash.replace(/^#token=/, '')

describe('invitations by email', () => {
  it('emails the invitation after it is saved: From, To, a subject naming the organization and the inviter, the acceptance link first, names escaped', async () => {
    const email = unique('invitee')
    const res = await owner.post(invitations(), { email, role: 'member' })
    expect(res.statusCode, res.body).toBe(201)
    const { token, email_status } = res.json<{ token: string; email_status: string }>()
    expect(email_status).toBe('sent')

    const message = await sink.messageTo(email)
    expect(message.from?.text).toBe('"Asset Library" <assets@example.com>')
    expect([message.to].flat()[0]?.text).toBe(email)
    expect(message.subject).toBe('Ann "The <Boss>" invited you to Acme <b>&</b> Co on Asset Library')
    expect(firstLink(message.text)).toBe(`http://assets.test/invite/${token}`)
    expect(message.text).toContain(`Ann "The <Boss>" (${acme.owner.email}) invited you to join Acme <b>&</b> Co on Asset Library as a member.`)
    expect(message.text).toMatch(/The link works once, until .+ GMT\./)
    const html = String(message.html)
    expect(html).toContain(`<a href="http://assets.test/invite/${token}">Accept the invitation</a>`)
    expect(html).toContain('Ann &#34;The &#60;Boss&#62;&#34;')
    expect(html).toContain('Acme &#60;b&#62;&#38;&#60;/b&#62; Co')
    expect(html).not.toContain('<Boss>')
    expect(html).not.toContain('<b>&')

    // The emailed link is the one that works.
    const preview = await t.app.inject({ method: 'POST', url: '/app/api/invitations/lookup', payload: { token: firstLink(message.text)!.split('/invite/')[1] } })
    expect(preview.json()).toMatchObject({ email, organization_name: 'Acme <b>&</b> Co' })
  })

  it('emails a re-sent invitation with its new link', async () => {
    const email = unique('again')
    const created = await owner.post(invitations(), { email, role: 'admin' })
    const resent = await owner.post(`${invitations()}/${created.json<{ id: string }>().id}/resend`)
    expect(resent.statusCode, resent.body).toBe(200)
    expect(resent.json()).toMatchObject({ email, email_status: 'sent' })
    const [first, second] = await messagesTo(email, 2)
    expect(firstLink(first!.text)).toBe(`http://assets.test/invite/${created.json<{ token: string }>().token}`)
    expect(firstLink(second!.text)).toBe(`http://assets.test/invite/${resent.json<{ token: string }>().token}`)
    expect(second!.text).toContain('as an admin.')
  })

  it('reports a send the mail server refuses (550) as failed, and keeps the invitation and its link', async () => {
    const email = unique('refused')
    const res = await owner.post(invitations(), { email, role: 'member' })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ email, email_status: 'failed', token: expect.any(String) })
    const listed = await owner.get(invitations())
    expect(listed.json<{ data: Array<{ email: string }> }>().data.map((i) => i.email)).toContain(email)
    const preview = await t.app.inject({ method: 'POST', url: '/app/api/invitations/lookup', payload: { token: res.json<{ token: string }>().token } })
    expect(preview.statusCode).toBe(200)
    // The server carries on: the next invitation goes out.
    expect((await owner.post(invitations(), { email: unique('next'), role: 'member' })).json()).toMatchObject({ email_status: 'sent' })
  })

  it('says not_configured on a server without SMTP, and the instance tells the web app whether email is set up', async () => {
    const seeded = await seedOrganization(plain.app)
    const plainOwner = await loginOwner(plain.app, seeded)
    const res = await plainOwner.post(`/app/api/orgs/${seeded.org.slug}/invitations`, { email: unique('nomail'), role: 'member' })
    expect(res.json()).toMatchObject({ email_status: 'not_configured', token: expect.any(String) })
    expect((await plain.app.inject({ url: '/app/api/instance' })).json()).toMatchObject({ email_configured: false })
    expect((await t.app.inject({ url: '/app/api/instance' })).json()).toMatchObject({ email_configured: true })
  })
})

describe('header injection', () => {
  it('refuses a line break in an email or a display name with 400 validation_failed, changing nothing', async () => {
    const before = sink.messages.length
    expectProblem(await owner.post(invitations(), { email: 'a@example.com\r\nBcc: victim@example.com', role: 'member' }), 400, 'validation_failed')
    expectProblem(await requestReset(t, 'a@example.com\nBcc: victim@example.com'), 400, 'validation_failed')
    expectProblem(await owner.patch(`/app/api/orgs/${acme.org.slug}`, { name: 'Acme\r\nBcc: victim@example.com' }), 400, 'validation_failed')
    const invitee = unique('named')
    const invited = await owner.post(invitations(), { email: invitee, role: 'member' })
    const accept = await t.app.inject({
      method: 'POST',
      url: '/app/api/invitations/accept',
      payload: { token: invited.json<{ token: string }>().token, password: 'a long enough password', name: 'Eve\r\nBcc: victim@example.com' },
    })
    expectProblem(accept, 400, 'validation_failed')
    const organization = await t.database.handle.db.selectFrom('organizations').select('name').where('id', '=', acme.org.id).executeTakeFirstOrThrow()
    expect(organization.name).toBe('Acme <b>&</b> Co')
    await messagesTo(invitee, 1)
    expect(sink.messages.length).toBe(before + 1)
  })
})

describe('forgot password', () => {
  /** A user of Acme with a session open elsewhere. */
  async function member() {
    const email = unique('forgetful')
    await t.app.services.orgs.addMember(acme.org.id, { email, password: 'the old password', role: 'member' })
    return { email, session: await login(t.app, email, 'the old password') }
  }

  it('emails a one-time link on PUBLIC_BASE_URL; the new password works, every session ends, and the link is used up', async () => {
    const { email, session } = await member()
    const res = await requestReset(t, email.toUpperCase())
    expect(res.statusCode, res.body).toBe(204)
    expect(res.body).toBe('')
    const message = await sink.messageTo(email)
    expect(message.from?.text).toBe('"Asset Library" <assets@example.com>')
    expect(message.subject).toBe('Reset your Asset Library password')
    const link = firstLink(message.text)!
    expect(link).toMatch(/^http:\/\/assets\.test\/reset-password#token=[\w-]{43}$/)
    expect(String(message.html)).toContain(`<a href="${link}">Choose a new password</a>`)
    // Only the token's hash is kept.
    const stored = await t.database.handle.db.selectFrom('password_resets').selectAll().execute()
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link))

    expect((await completeReset(tokenOf(link))).statusCode).toBe(204)
    expect((await session.get('/app/api/session')).statusCode).toBe(401)
    expect((await postLogin(t.app, { email, password: 'the old password' })).statusCode).toBe(401)
    expect((await postLogin(t.app, { email, password: 'a brand new password' })).statusCode).toBe(200)
    expectProblem(await completeReset(tokenOf(link), 'yet another password'), 400, 'reset_link_invalid')
  })

  it('refuses a wrong token, an expired one, and one replaced by a newer link; the password rules apply', async () => {
    const { email } = await member()
    expectProblem(await completeReset('not-a-token-we-made'), 400, 'reset_link_invalid')
    await requestReset(t, email)
    const [first] = await messagesTo(email, 1)
    await requestReset(t, email)
    const [, second] = await messagesTo(email, 2)
    expectProblem(await completeReset(tokenOf(firstLink(first!.text))), 400, 'reset_link_invalid')
    expectProblem(await completeReset(tokenOf(firstLink(second!.text)), 'short'), 400, 'validation_failed')
    await t.database.handle.db.updateTable('password_resets').set({ expires_at: sql<Date>`now() - interval '1 second'` }).execute()
    expectProblem(await completeReset(tokenOf(firstLink(second!.text))), 400, 'reset_link_invalid')
    expect((await postLogin(t.app, { email, password: 'the old password' })).statusCode).toBe(200)
  })

  it('answers an unknown address exactly as a known one, and sends it nothing', async () => {
    const { email } = await member()
    const unknown = unique('nobody')
    const [known, stranger] = await Promise.all([requestReset(t, email), requestReset(t, unknown)])
    expect({ status: stranger.statusCode, body: stranger.body, type: stranger.headers['content-type'] }).toEqual({ status: known.statusCode, body: known.body, type: known.headers['content-type'] })
    await t.app.services.passwordResets.settled()
    await messagesTo(email, 1)
    expect(sink.messages.some((m) => [m.to].flat().some((a) => a?.text.includes(unknown)))).toBe(false)
  })

  it('limits links per account (known or not, from any address) and per IP', async () => {
    const { email } = await member()
    for (const address of [email, unique('ghost')]) {
      for (let n = 0; n < 3; n++) expect((await requestReset(t, address, `10.0.1.${n}`)).statusCode).toBe(204)
      const refused = await requestReset(t, address, '10.0.1.9')
      expectProblem(refused, 429, 'rate_limited')
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    }
    await messagesTo(email, 3)
    // Per IP, with the sign-in limit (2 a minute on this server), checked before anything else.
    expectProblem(await requestReset(plain, unique('a'), '10.0.2.1'), 503, 'email_not_configured')
    expectProblem(await requestReset(plain, unique('b'), '10.0.2.1'), 503, 'email_not_configured')
    expectProblem(await requestReset(plain, unique('c'), '10.0.2.1'), 429, 'rate_limited')
  })
})
