import type { Config } from '../../config.js'
import type { MemberAudit, Organization, Role } from '../../platform/db/schema.js'
import type { App } from '../../platform/http/app-type.js'
import { derivationNamed, type DerivedWork } from '../../platform/background/derivation.js'
import { problems } from '../../platform/http/errors.js'
import { pageOf } from '../../platform/http/pagination.js'
import { appNoContent, appProblemResponses, appResponse, DataListSchema, iso } from '../../platform/http/schemas.js'
import {
  ChangeRoleBody,
  DerivationCountsSchema,
  HandOverBody,
  JobParams,
  MemberChangeListSchema,
  MemberChangesQuery,
  MemberParams,
  MemberSchema,
  OrganizationSchema,
  OrganizationWithRoleSchema,
  OrgParams,
  RetryOutcomeSchema,
  UpdateOrganizationBody,
} from './schemas.js'
import type { OrganizationAiStatus } from '../search/embeddings.js'
import type { OrgService } from './service.js'

const ORG_TAGS = ['app-org']

const NO_MEMBER = appProblemResponses({ not_found: 'no member with this user id in the organization' })

function memberView(member: { user_id: string; email: string; name: string; role: Role; joined_at: Date }) {
  return { ...member, joined_at: iso(member.joined_at) }
}

function orgView(org: Organization) {
  return { id: org.id, name: org.name, slug: org.slug, plan: org.plan, ai_enabled: org.ai_enabled, created_at: iso(org.created_at) }
}

/** /app/api/orgs/:org and its members: the organization's settings, for its members and managers. */
export function orgRoutes(
  app: App,
  deps: {
    orgs: OrgService
    planLimits: Config['planLimits']
    trashRetentionDays: Config['trashRetentionDays']
    publicBaseUrl: Config['publicBaseUrl']
    aiStatus(organizationId: string): Promise<OrganizationAiStatus>
  },
): void {
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
        assets: organization.asset_count + organization.trashed_count,
        trashed_assets: organization.trashed_count,
        bytes: Number(organization.stored_byte_count),
        max_assets: limits.maxAssets ?? null,
        max_bytes: limits.maxBytes ?? null,
      }
      return { ...orgView(organization), role, usage, ai: await deps.aiStatus(organization.id), trash_retention_days: deps.trashRetentionDays, public_base_url: deps.publicBaseUrl }
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
      return { data: (await orgs.listMembers(organization.id)).map(memberView) }
    },
  )

  memberChangeRoutes(app, orgs)
}

/** Owners and admins change roles, remove members and read the record of it; owners hand over ownership. */
function memberChangeRoutes(app: App, orgs: OrgService): void {
  app.patch(
    '/app/api/orgs/:org/members/:user_id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appChangeMemberRole',
        tags: ORG_TAGS,
        summary: 'Change a member\u2019s role',
        description: 'Only owners make or unmake owners; the last owner stays one. Recorded in the member changes.',
        params: MemberParams,
        body: ChangeRoleBody,
        response: {
          200: appResponse('The member with their new role.', MemberSchema),
          ...NO_MEMBER,
          ...appProblemResponses({
            role_not_allowed: 'an admin makes someone an owner, or changes an owner\u2019s role',
            last_owner: 'the member is the last owner, and the new role is not owner',
          }),
        },
      },
    },
    async (request) => {
      const { organization, user } = request.membership!
      return memberView(await orgs.changeRole(organization.id, user, request.params.user_id, request.body.role))
    },
  )

  app.delete(
    '/app/api/orgs/:org/members/:user_id',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appRemoveMember',
        tags: ORG_TAGS,
        summary: 'Remove a member',
        description:
          'The member leaves the organization and every session of theirs ends at once (a user of several organizations signs in again to reach the others). What they made stays. Only owners remove owners, never the last one. Recorded in the member changes.',
        params: MemberParams,
        response: {
          204: appNoContent('Removed.'),
          ...NO_MEMBER,
          ...appProblemResponses({ role_not_allowed: 'an admin removes an owner', last_owner: 'the member is the last owner' }),
        },
      },
    },
    async (request, reply) => {
      const { organization, user } = request.membership!
      await orgs.removeMember(organization.id, user, request.params.user_id)
      return reply.code(204).send()
    },
  )

  app.post(
    '/app/api/orgs/:org/ownership',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appHandOverOwnership',
        tags: ORG_TAGS,
        summary: 'Hand over ownership',
        description: 'The member becomes an owner and the calling owner becomes an admin, together. Recorded in the member changes.',
        params: OrgParams,
        body: HandOverBody,
        response: {
          204: appNoContent('Handed over.'),
          ...appProblemResponses({ not_found: 'no member with this user id in the organization', role_not_allowed: 'the caller is an admin, not an owner' }),
        },
      },
    },
    async (request, reply) => {
      const { organization, user } = request.membership!
      await orgs.handOverOwnership(organization.id, user, request.body.user_id)
      return reply.code(204).send()
    },
  )

  app.get(
    '/app/api/orgs/:org/members/changes',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appListMemberChanges',
        tags: ORG_TAGS,
        summary: 'List member changes',
        description: 'Who removed a member, changed a role or handed over ownership, and when: newest first.',
        params: OrgParams,
        querystring: MemberChangesQuery,
        response: { 200: appResponse('A page of member changes.', MemberChangeListSchema) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      const page = pageOf(request.query)
      const { rows, total } = await orgs.memberChanges(organization.id, page)
      return { data: rows.map(memberChangeView), total, ...page }
    },
  )
}

/**
 * /app/api/orgs/:org/jobs: the work that follows a change to the organization's assets (thumbnails,
 * embeddings), counted for this organization only, and its retry; for owners and admins (the app's
 * Processing panel).
 */
export function jobRoutes(app: App, deps: { derivations: readonly DerivedWork[] }): void {
  app.get(
    '/app/api/orgs/:org/jobs',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appListJobs',
        tags: ORG_TAGS,
        summary: 'Count the processing queues',
        description: 'One row per kind of work done after a push (thumbnails, embeddings), counting this organization\u2019s jobs only.',
        params: OrgParams,
        response: { 200: appResponse('The queues, in a fixed order.', DataListSchema(DerivationCountsSchema)) },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      const queue = async (derivation: DerivedWork) => ({ ...(await derivation.counts(organization.id)), unavailable_reason: await derivation.unavailableReason() })
      return { data: await Promise.all(deps.derivations.map(queue)) }
    },
  )

  app.post(
    '/app/api/orgs/:org/jobs/:name/retry',
    {
      config: { auth: { kind: 'session', role: 'manager' } },
      schema: {
        operationId: 'appRetryJobs',
        tags: ORG_TAGS,
        summary: 'Retry failed and missing work',
        description:
          'Queues again this organization\u2019s failed jobs of one queue, and the work that is missing (a thumbnail whose file is gone, a text with no embedding while AI is on).',
        params: JobParams,
        response: {
          200: appResponse('How many jobs were queued again.', RetryOutcomeSchema),
          ...appProblemResponses({ not_found: 'no queue with this name' }),
        },
      },
    },
    async (request) => {
      const { organization } = request.membership!
      const derivation = derivationNamed(deps.derivations, request.params.name)
      if (!derivation) throw problems.notFound('Queue')
      return { name: derivation.name, queued: await derivation.retry(organization.id) }
    },
  )
}

function memberChangeView(entry: MemberAudit) {
  return {
    id: entry.id,
    action: entry.action,
    actor: { user_id: entry.actor_id, email: entry.actor_email },
    member: { user_id: entry.member_id, email: entry.member_email },
    from_role: entry.from_role,
    to_role: entry.to_role,
    created_at: iso(entry.created_at),
  }
}
