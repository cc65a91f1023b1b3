import type { Config } from '../../config.js'
import type { Organization } from '../../platform/db/schema.js'
import type { App } from '../../platform/http/app-type.js'
import { appResponse, DataListSchema, iso } from '../../platform/http/schemas.js'
import { MemberSchema, OrganizationSchema, OrganizationWithRoleSchema, OrgParams, UpdateOrganizationBody } from './schemas.js'
import type { OrganizationAiStatus } from '../search/embeddings.js'
import type { OrgService } from './service.js'

const ORG_TAGS = ['app-org']

function orgView(org: Organization) {
  return { id: org.id, name: org.name, slug: org.slug, plan: org.plan, ai_enabled: org.ai_enabled, created_at: iso(org.created_at) }
}

/** /app/api/orgs/:org and its members: the organization's settings, for its members and managers. */
export function orgRoutes(app: App, deps: { orgs: OrgService; planLimits: Config['planLimits']; aiStatus(organizationId: string): Promise<OrganizationAiStatus> }): void {
  const { orgs } = deps

  app.get(
    '/app/api/orgs/:org',
    {
      config: { auth: { kind: 'session', role: 'member' } },
      schema: {
        operationId: 'appGetOrganization',
        tags: ORG_TAGS,
        summary: 'Fetch the organization',
        params: OrgParams,
        response: { 200: appResponse('The organization, with your role in it.', OrganizationWithRoleSchema) },
      },
    },
    async (request) => {
      const { organization, role } = request.membership!
      const limits = deps.planLimits[organization.plan] ?? {}
      const usage = {
        assets: organization.asset_count,
        bytes: Number(organization.byte_count),
        max_assets: limits.maxAssets ?? null,
        max_bytes: limits.maxBytes ?? null,
      }
      return { ...orgView(organization), role, usage, ai: await deps.aiStatus(organization.id) }
    },
  )

  app.patch(
    '/app/api/orgs/:org',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appUpdateOrganization',
        tags: ORG_TAGS,
        summary: 'Change the organization\u2019s settings',
        description: 'Its name, and whether AI (semantic search) is on.',
        params: OrgParams,
        body: UpdateOrganizationBody,
        response: { 200: appResponse('The organization as changed.', OrganizationSchema) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      return orgView(await orgs.updateSettings(organization.id, request.body))
    },
  )

  app.get(
    '/app/api/orgs/:org/members',
    {
      config: { auth: { kind: 'session', role: 'member' } },
      schema: {
        operationId: 'appListMembers',
        tags: ORG_TAGS,
        summary: 'List members',
        description: 'Everyone in the organization with their role, in the order they joined.',
        params: OrgParams,
        response: { 200: appResponse('The members.', DataListSchema(MemberSchema)) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      const members = await orgs.listMembers(organization.id)
      return { data: members.map((member) => ({ ...member, joined_at: iso(member.joined_at) })) }
    },
  )
}
