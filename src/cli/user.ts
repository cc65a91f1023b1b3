import type { Role } from '../platform/db/schema.js'
import { randomToken } from '../platform/ids.js'
import { oneOf, required } from './arguments.js'
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
}
