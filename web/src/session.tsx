import { useQuery, useQueryClient } from '@tanstack/react-query'
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react'
import { appApi, sessionHeaders, unwrap, whenSignedOut, type AppData } from './api/client'
import { ApiError } from './api/problem'

type SessionBody = AppData<'/app/api/session', 'get'>
export type Membership = SessionBody['organizations'][number]

export interface Session {
  user: SessionBody['user']
  organizations: Membership[]
  /** The organization the app acts in. */
  organization: Membership
  /** Owners and admins manage keys, webhooks, members and settings. */
  canManage: boolean
  switchOrganization(slug: string): void
  signOut(): Promise<void>
}

const ORGANIZATION_KEY = 'asset-library:organization'
const SessionContext = createContext<Session | null>(null)
export const SESSION_QUERY = ['session'] as const

/** The signed-in session, or null; a 401 means signed out, anything else is an error to show. */
export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_QUERY,
    queryFn: async () => {
      try {
        return rememberSession(await unwrap(appApi.GET('/app/api/session')))
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null
        throw error
      }
    },
    staleTime: 5 * 60_000,
  })
}

/** The organization to act in: the one chosen last on this browser while still a member, else the first. */
function chosenOrganization(body: SessionBody): Membership {
  const stored = localStorage.getItem(ORGANIZATION_KEY)
  return body.organizations.find((o) => o.slug === stored) ?? body.organizations[0]!
}

/** Every call from now on carries this session's CSRF token and organization. */
export function rememberSession(body: SessionBody): SessionBody {
  sessionHeaders.csrf = body.csrf_token
  sessionHeaders.organization = chosenOrganization(body).slug
  return body
}

/** Every cached answer but the session itself belongs to the organization (and user) of the moment. */
const isOrganizationData = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== SESSION_QUERY[0]

export function SessionProvider({ body, children }: { body: SessionBody; children: ReactNode }) {
  const queryClient = useQueryClient()
  const organization = chosenOrganization(body)

  const switchOrganization = useCallback(
    (slug: string) => {
      localStorage.setItem(ORGANIZATION_KEY, slug)
      sessionHeaders.organization = slug
      // Everything cached belongs to the organization left behind.
      queryClient.removeQueries({ predicate: isOrganizationData })
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY })
    },
    [queryClient],
  )
  const signOut = useCallback(async () => {
    await appApi.POST('/app/api/logout')
    sessionHeaders.csrf = ''
    queryClient.setQueryData(SESSION_QUERY, null)
    queryClient.removeQueries({ predicate: isOrganizationData })
  }, [queryClient])

  useEffect(() => {
    whenSignedOut(() => {
      queryClient.setQueryData(SESSION_QUERY, null)
    })
  }, [queryClient])

  const value = useMemo<Session>(
    () => ({
      user: body.user,
      organizations: body.organizations,
      organization,
      canManage: organization.role === 'owner' || organization.role === 'admin',
      switchOrganization,
      signOut,
    }),
    [body, organization, switchOrganization, signOut],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useSession(): Session {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useSession outside a signed-in SessionProvider')
  return session
}

/** The organization slug for /app/api/orgs/:org paths. */
export function useOrg(): string {
  return useSession().organization.slug
}
