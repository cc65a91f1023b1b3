import type { Role } from '../platform/db/schema.js'
import { randomToken } from '../platform/ids.js'
import { MIN_PASSWORD_LENGTH } from '../modules/orgs/service.js'
import { oneOf, required, UsageError } from './arguments.js'
import type { Commands } from './command.js'
import { output } from './output.js'

export const userCommands: Commands = {
  'user create': async ({ values, services: { orgs } }) => {
    const org = await orgs.organizationBySlug(required(values, 'org'))
    const role = oneOf<Role>(values, 'role', ['owner', 'admin', 'member'])
    const password = values.password ?? randomToken(12)
    const { user, created } = await orgs.addMember(org.id, { email: required(values, 'email'), password, role })
    const generated = created && !values.password
    const note = created ? (generated ? `; password: ${password}` : '') : ' (existing user: password unchanged)'
    return output(values, { id: user.id, email: user.email, role, created, ...(generated && { password }) }, `User ${user.email} is a member of ${org.slug}${note}`)
  },
  'user set-password': async ({ values, services: { orgs } }) => {
    if (values.password !== undefined && values.password.length < MIN_PASSWORD_LENGTH) {
      throw new UsageError(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    }
    const org = await orgs.organizationBySlug(required(values, 'org'))
    const password = values.password ?? randomToken(12)
    const user = await orgs.setPassword(org.id, required(values, 'email'), password)
    const generated = !values.password
    const note = generated ? `; password: ${password}` : ''
    return output(values, { id: user.id, email: user.email, ...(generated && { password }) }, `The password of ${user.email} is changed and their sessions are ended${note}`)
  },
}
