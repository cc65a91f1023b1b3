import { MAX_KEY_LIMIT } from '../modules/keys/schemas.js'
import { expiryFromDuration } from '../modules/keys/service.js'
import type { Scope } from '../platform/db/schema.js'
import { oneOf, optionalCount, required, UsageError } from './arguments.js'
import type { Commands } from './command.js'
import { output } from './output.js'

export const keyCommands: Commands = {
  'key create': async ({ values, services: { orgs, keys } }) => {
    const org = await orgs.organizationBySlug(required(values, 'org'))
    const scope = oneOf<Scope>(values, 'scope', ['assets:read', 'assets:write'])
    const expiresIn = values['expires-in']
    const expiresAt = expiresIn === undefined ? null : expiryFromDuration(expiresIn)
    if (expiresIn !== undefined && !expiresAt) throw new UsageError('--expires-in takes a duration such as 12h, 90d or 2w')
    const ownLimits = { expensive: optionalCount(values, 'limit-expensive', MAX_KEY_LIMIT), cheap: optionalCount(values, 'limit-cheap', MAX_KEY_LIMIT) }
    const { key, token } = await keys.create({ organizationId: org.id, name: values.name ?? 'cli', scope, expiresAt, createdBy: null, ownLimits })
    const limits = `limits per window: expensive ${key.limit_expensive ?? 'default'}, cheap ${key.limit_cheap ?? 'default'}`
    return output(values, { ...key, token }, `API key (shown once): ${token}\nscope ${scope}, prefix ${key.prefix}, expires ${key.expires_at?.toISOString() ?? 'never'}, ${limits}`)
  },
  'key list': async ({ values, services: { orgs, keys } }) => {
    const org = await orgs.organizationBySlug(required(values, 'org'))
    const list = await keys.list(org.id)
    return output(values, list, list.map((k) => `${k.id}\t${k.prefix}\t${k.name}\t${k.scope}\t${k.revoked_at ? 'revoked' : 'active'}`).join('\n'))
  },
  'key revoke': async ({ values, services: { orgs, keys } }) => {
    const org = await orgs.organizationBySlug(required(values, 'org'))
    const key = await keys.revoke(org.id, required(values, 'id'))
    return output(values, key, `Revoked ${key.prefix} (${key.name})`)
  },
}
