import { randomToken } from './platform/ids.js'
import type { Db } from './platform/db/index.js'
import type { Services } from './app.js'
import { claimInstanceState, hasOrganizations } from './modules/orgs/store.js'

export interface FirstRunCredentials {
  organization: { name: string; slug: string }
  ownerEmail: string
  ownerPassword: string
  apiKey: string
}

const FIRST_RUN_KEY = 'first_run'

/**
 * On a database with no organization, creates one, its owner and an assets:write key, and returns
 * the credentials to show once. Later starts (and a second process racing this one) get null: the claim
 * and everything it creates commit in one transaction.
 */
export async function firstRun(db: Db, services: Services, ownerEmail: string): Promise<FirstRunCredentials | null> {
  return db.transaction().execute(async (tx) => {
    if (!(await claimInstanceState(tx, FIRST_RUN_KEY, { at: new Date().toISOString() }))) return null
    // An operator who created organizations before the first start has set up already.
    if (await hasOrganizations(tx)) return null
    const organization = await services.orgs.createOrganization({ name: 'My Organization', slug: 'default' }, tx)
    const ownerPassword = randomToken(12)
    const { user: owner } = await services.orgs.addMember(organization.id, { email: ownerEmail, password: ownerPassword, role: 'owner', name: 'Owner' }, tx)
    const { token } = await services.keys.create(
      { organizationId: organization.id, name: 'first-run', scope: 'assets:write', expiresAt: null, createdBy: owner.id },
      tx,
    )
    return { organization: { name: organization.name, slug: organization.slug }, ownerEmail, ownerPassword, apiKey: token }
  })
}

export function describeFirstRun(credentials: FirstRunCredentials, publicBaseUrl: string): string {
  return [
    '',
    'Asset Library is set up. These credentials are shown once: store them now.',
    `  Organization:          ${credentials.organization.name} (slug: ${credentials.organization.slug})`,
    `  API key (assets:write): ${credentials.apiKey}`,
    `  Owner login:           ${credentials.ownerEmail} / ${credentials.ownerPassword}`,
    '',
    'Try it:',
    `  Web app: ${publicBaseUrl}/ (sign in with the owner login)`,
    `  curl -H "Authorization: Bearer ${credentials.apiKey}" ${publicBaseUrl}/api/v1/auth/key`,
    `  API reference: ${publicBaseUrl}/api/v1/docs`,
    '',
  ].join('\n')
}
