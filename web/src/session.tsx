import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { createContext, Fragment, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { answerError, appApi, sessionHeaders, signalSignedOut, unwrap, whenSignedOut, type AppData } from './api/client'
import { ApiError } from '@asset-library/client'
import { useToast } from './ui/toast'

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

/**
 * Each tab keeps the organization it acts in (sessionStorage), so a switch in one tab never retargets
 * another; a new tab starts in the one chosen last (localStorage).
 */
const ORGANIZATION_STORAGE = 'asset-library:organization'
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

function chosenOrganization(body: SessionBody): Membership {
  const memberOf = (slug: string | null) => body.organizations.find((o) => o.slug === slug)
  return memberOf(sessionStorage.getItem(ORGANIZATION_STORAGE)) ?? memberOf(localStorage.getItem(ORGANIZATION_STORAGE)) ?? body.organizations[0]!
}

function chooseOrganization(slug: string): void {
  sessionStorage.setItem(ORGANIZATION_STORAGE, slug)
  localStorage.setItem(ORGANIZATION_STORAGE, slug)
  sessionHeaders.organization = slug
}

/** Every call from now on carries this session's CSRF token and this tab's organization. */
export function rememberSession(body: SessionBody): SessionBody {
  sessionHeaders.csrf = body.csrf_token
  chooseOrganization(chosenOrganization(body).slug)
  return body
}

/**
 * Forgets everything of the user and organization of the moment: cached answers, finished mutations
 * (which may hold a secret shown once), and the headers. Nothing of theirs survives into the next session.
 */
function forgetOrganizationData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY[0] })
  queryClient.getMutationCache().clear()
}

function forgetSession(queryClient: QueryClient): void {
  forgetOrganizationData(queryClient)
  sessionHeaders.csrf = ''
  sessionHeaders.organization = ''
  queryClient.setQueryData(SESSION_QUERY, null)
}

/** A new session (sign-in): nothing cached from before it is kept. */
export function signedIn(queryClient: QueryClient, body: SessionBody): void {
  forgetOrganizationData(queryClient)
  queryClient.setQueryData(SESSION_QUERY, rememberSession(body))
}

export function SessionProvider({ body, children }: { body: SessionBody; children: ReactNode }) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [slug, setSlug] = useState(() => chosenOrganization(body).slug)
  // A membership that ended since (a refreshed session without it) falls back to the tab's next choice.
  const organization = body.organizations.find((o) => o.slug === slug) ?? chosenOrganization(body)

  const switchOrganization = useCallback(
    (next: string) => {
      if (next === slug) return
      chooseOrganization(next)
      forgetOrganizationData(queryClient)
      setSlug(next)
    },
    [queryClient, slug],
  )
  const signOut = useCallback(async () => {
    try {
      const { response, error } = await appApi.POST('/app/api/logout')
      if (!response.ok && response.status !== 401) throw answerError(response, error)
      signalSignedOut()
    } catch (error) {
      toast.error(error)
    }
  }, [toast])

  useEffect(() => whenSignedOut(() => forgetSession(queryClient)), [queryClient])

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
  // Keyed by the organization, so a switch remounts every screen: no state of the other one survives.
  return (
    <SessionContext.Provider value={value}>
      <Fragment key={organization.slug}>{children}</Fragment>
    </SessionContext.Provider>
  )
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
