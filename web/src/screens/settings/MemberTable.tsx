import { useMutation, useQueryClient } from '@tanstack/react-query'
import { appApi, unwrap, type AppData } from '../../api/client'
import { SESSION_QUERY, useOrg, useSession } from '../../session'
import { ConfirmDialog } from '../../ui/Dialog'
import { formatDate } from '../../ui/format'
import { useToast } from '../../ui/toast'
import { Table } from '../../ui/Table'
import { useConfirmedMutation } from './useConfirmedMutation'

type Member = AppData<'/app/api/orgs/{org}/members', 'get'>['data'][number]
type Role = Member['role']

const ROLE_NAMES: Record<Role, string> = { member: 'a member', admin: 'an admin', owner: 'an owner' }

/**
 * What the signed-in user may do to another member, as the server decides it: owners and admins change
 * roles and remove people, but only owners touch owners or make them, and only owners hand over ownership.
 * Nobody acts on their own row here: an owner steps down by handing over ownership.
 */
function allowedOn(myRole: Role, member: Member, isMe: boolean) {
  const manages = !isMe && (myRole === 'owner' || (myRole === 'admin' && member.role !== 'owner'))
  return {
    roles: manages ? (myRole === 'owner' ? (['member', 'admin', 'owner'] as const) : (['member', 'admin'] as const)) : [],
    remove: manages,
    handOver: !isMe && myRole === 'owner' && member.role !== 'owner',
  }
}

/** The members, with a role select, Remove and Hand over ownership for those allowed to use them. */
export function MemberTable({ members }: { members: Member[] }) {
  const org = useOrg()
  const { canManage, user, organization } = useSession()
  const queryClient = useQueryClient()
  const toast = useToast()
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['members', org] })
    void queryClient.invalidateQueries({ queryKey: ['member-changes', org] })
  }
  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      unwrap(appApi.PATCH('/app/api/orgs/{org}/members/{user_id}', { params: { path: { org, user_id: member.user_id } }, body: { role } })),
    onSuccess: (changed) => {
      toast.success(`${changed.email} is now ${ROLE_NAMES[changed.role]}.`)
      queryClient.setQueryData<{ data: Member[] }>(['members', org], (list) => list && { data: list.data.map((m) => (m.user_id === changed.user_id ? changed : m)) })
      refresh()
    },
  })
  /** The role a select shows: the one being sent while it is, so the select does not jump back meanwhile. */
  const shownRole = (member: Member) =>
    changeRole.isPending && changeRole.variables.member.user_id === member.user_id ? changeRole.variables.role : member.role
  const remove = useConfirmedMutation({
    mutationFn: (member: Member) => unwrap(appApi.DELETE('/app/api/orgs/{org}/members/{user_id}', { params: { path: { org, user_id: member.user_id } } })),
    onSuccess: (_, member) => {
      toast.success(`${member.email} is removed from the organization.`)
      refresh()
    },
  })
  const handOver = useConfirmedMutation({
    mutationFn: (member: Member) => unwrap(appApi.POST('/app/api/orgs/{org}/ownership', { params: { path: { org } }, body: { user_id: member.user_id } })),
    onSuccess: (_, member) => {
      toast.success(`${member.email} is now the owner; you are an admin.`)
      refresh()
      // Your own role changed: the session says what you may do from now on.
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY })
    },
  })

  return (
    <>
      <Table columns={['Name', 'Email', 'Role', 'Joined', ...(canManage ? [{ label: 'Actions', hidden: true }] : [])]} caption="Members" stacked>
        {members.map((member) => {
          const isMe = member.user_id === user.id
          const allowed = allowedOn(organization.role, member, isMe)
          return (
            <tr key={member.user_id}>
              <td className="strong">
                {member.name || <span className="muted">—</span>} {isMe && <span className="badge">You</span>}
              </td>
              <td className="email">{member.email}</td>
              <td>
                {allowed.roles.length > 0 ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={shownRole(member)}
                    disabled={changeRole.isPending}
                    onChange={(event) => changeRole.mutate({ member, role: event.target.value as Role })}
                  >
                    {allowed.roles.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className={`badge ${member.role === 'member' ? '' : 'ok'}`}>{member.role}</span>
                )}
              </td>
              <td className="nowrap">{formatDate(member.joined_at)}</td>
              {canManage && (
                <td className="actions-cell">
                  {allowed.handOver && (
                    <button type="button" className="small" onClick={() => handOver.ask(member)}>
                      Hand over ownership<span className="visually-hidden"> to {member.email}</span>
                    </button>
                  )}
                  {allowed.remove && (
                    <button type="button" className="danger small" onClick={() => remove.ask(member)}>
                      Remove<span className="visually-hidden"> {member.email}</span>
                    </button>
                  )}
                </td>
              )}
            </tr>
          )
        })}
      </Table>
      <ConfirmDialog title="Remove this member?" confirmLabel="Remove member" {...remove.dialog}>
        <p>
          <strong>{remove.asked?.email}</strong> loses access to this organization at once and is signed out. What they uploaded stays. You can invite them again
          later.
        </p>
      </ConfirmDialog>
      <ConfirmDialog title="Hand over ownership?" confirmLabel="Hand over ownership" {...handOver.dialog}>
        <p>
          <strong>{handOver.asked?.email}</strong> becomes an owner, and you become an admin. Only an owner can make you an owner again.
        </p>
      </ConfirmDialog>
    </>
  )
}
