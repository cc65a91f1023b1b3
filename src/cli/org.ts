import { required } from './arguments.js'
import type { Commands } from './command.js'
import { output } from './output.js'

export const orgCommands: Commands = {
  'org create': async ({ values, services: { orgs } }) => {
    const org = await orgs.createOrganization({ name: required(values, 'name'), ...(values.slug && { slug: values.slug }), ...(values.plan && { plan: values.plan }) })
    return output(values, org, `Created organization ${org.name} (slug: ${org.slug}, id: ${org.id})`)
  },
  'org list': async ({ values, services: { orgs } }) => {
    const list = await orgs.listOrganizations()
    return output(values, list, list.map((o) => `${o.slug}\t${o.name}\t${o.plan}`).join('\n'))
  },
}
