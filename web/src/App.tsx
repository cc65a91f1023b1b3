import { lazy, Suspense, useEffect, useRef, type ComponentType } from 'react'
import { Link, Route, Switch, useLocation, useRoute } from 'wouter'
import logo from './favicon.svg'
import { LibraryScreen } from './screens/library/LibraryScreen'
import { SignInScreen } from './screens/SignInScreen'
import { SessionProvider, useSession, useSessionQuery } from './session'
import { ErrorBoundary } from './ui/ErrorBoundary'

/** The library is the first screen; the others load when first opened, so it comes up sooner. */
function lazyScreen<P>(load: () => Promise<Record<string, ComponentType<P>>>, name: string) {
  return lazy(async () => ({ default: (await load())[name]! }))
}

const AcceptInvitationScreen = lazyScreen(() => import('./screens/invite/AcceptInvitationScreen'), 'AcceptInvitationScreen')
const ForgotPasswordScreen = lazyScreen(() => import('./screens/password/ForgotPasswordScreen'), 'ForgotPasswordScreen')
const ResetPasswordScreen = lazyScreen(() => import('./screens/password/ResetPasswordScreen'), 'ResetPasswordScreen')
const AssetDetailScreen = lazyScreen(() => import('./screens/library/AssetDetailScreen'), 'AssetDetailScreen')
const CollectionScreen = lazyScreen(() => import('./screens/collections/CollectionScreen'), 'CollectionScreen')
const ImportScreen = lazyScreen(() => import('./screens/import/ImportScreen'), 'ImportScreen')
const ImportDetailScreen = lazyScreen(() => import('./screens/import/ImportDetailScreen'), 'ImportDetailScreen')
const CollectionsScreen = lazyScreen(() => import('./screens/collections/CollectionsScreen'), 'CollectionsScreen')
const DuplicatesScreen = lazyScreen(() => import('./screens/duplicates/DuplicatesScreen'), 'DuplicatesScreen')
const TrashScreen = lazyScreen(() => import('./screens/trash/TrashScreen'), 'TrashScreen')
const SettingsScreen = lazyScreen(() => import('./screens/settings/SettingsScreen'), 'SettingsScreen')
const UploadScreen = lazyScreen(() => import('./screens/upload/UploadScreen'), 'UploadScreen')

/** The screens that need no session, whether or not there is one: an invitation, and a forgotten password. */
function SessionlessScreen() {
  return (
    <ErrorBoundary>
      <Suspense fallback={<div className="splash" aria-busy="true" />}>
        <Switch>
          <Route path="/invite/:token" component={AcceptInvitationScreen} />
          <Route path="/forgot-password" component={ForgotPasswordScreen} />
          <Route path="/reset-password" component={ResetPasswordScreen} />
        </Switch>
      </Suspense>
    </ErrorBoundary>
  )
}

/** Signed out: the sign-in screen, or a screen that needs no session. Signed in: the shell and its screens. */
export function App() {
  const session = useSessionQuery()
  const [inviting] = useRoute('/invite/:token')
  const [forgetting] = useRoute('/forgot-password')
  const [resetting] = useRoute('/reset-password')
  if (inviting || forgetting || resetting) return <SessionlessScreen />
  if (session.isPending) return <div className="splash" aria-busy="true" />
  if (!session.data) return <SignInScreen />
  return (
    <SessionProvider body={session.data}>
      <Shell />
    </SessionProvider>
  )
}

const NAV = [
  { href: '/', label: 'Library', match: (path: string) => path === '/' || path.startsWith('/assets') },
  { href: '/upload', label: 'Upload', match: (path: string) => path.startsWith('/upload') },
  { href: '/import', label: 'Import', match: (path: string) => path === '/import' || path.startsWith('/import/') },
  { href: '/collections', label: 'Collections', match: (path: string) => path.startsWith('/collections') },
  { href: '/duplicates', label: 'Duplicates', match: (path: string) => path.startsWith('/duplicates') },
  { href: '/trash', label: 'Trash', match: (path: string) => path.startsWith('/trash') },
  { href: '/settings', label: 'Settings', match: (path: string) => path.startsWith('/settings') },
]

/**
 * A client-side navigation is silent to a screen reader: the title names the section, and focus moves
 * to the content, as a page load would do.
 */
function useNavigationFocus(label: string) {
  const [path] = useLocation()
  const main = useRef<HTMLElement>(null)
  const first = useRef(true)
  useEffect(() => {
    document.title = `${label} · Asset Library`
    // A screen that put the focus somewhere itself (the card one came back to) keeps it.
    if (first.current) first.current = false
    else if (!main.current?.contains(document.activeElement)) main.current?.focus({ preventScroll: true })
  }, [path, label])
  return main
}

function Shell() {
  const { user, organizations, organization, switchOrganization, signOut } = useSession()
  const [path] = useLocation()
  const section = NAV.find((item) => item.match(path))
  const main = useNavigationFocus(section?.label ?? 'Asset Library')
  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand" aria-label="Asset Library home">
          <img src={logo} alt="" width="22" height="22" />
          <span>Asset Library</span>
        </Link>
        <nav aria-label="Main" className="main-nav">
          {NAV.map((item) => (
            <Link key={item.href} href={item.href} className={item === section ? 'active' : ''} aria-current={item === section ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="topbar-end">
          {organizations.length > 1 ? (
            <select aria-label="Organization" value={organization.slug} onChange={(e) => switchOrganization(e.target.value)}>
              {organizations.map((o) => (
                <option key={o.slug} value={o.slug}>
                  {o.name}
                </option>
              ))}
            </select>
          ) : (
            <span className="org-name">{organization.name}</span>
          )}
          <span className="user-email" title={user.email}>
            {user.email}
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main className="content" id="content" ref={main} tabIndex={-1}>
        <ErrorBoundary resetKey={path}>
          <Suspense fallback={<p className="page-message" aria-busy="true">Loading…</p>}>
            <Switch>
              <Route path="/" component={LibraryScreen} />
              <Route path="/assets/:id" component={AssetDetailScreen} />
              <Route path="/upload" component={UploadScreen} />
              <Route path="/import" component={ImportScreen} />
              <Route path="/import/:id">{(params) => <ImportDetailScreen id={params.id} />}</Route>
              <Route path="/collections" component={CollectionsScreen} />
              <Route path="/collections/:id" component={CollectionScreen} />
              <Route path="/duplicates" component={DuplicatesScreen} />
              <Route path="/trash" component={TrashScreen} />
              <Route path="/settings" nest>
                <SettingsScreen />
              </Route>
              <Route>
                <p className="page-message">This page does not exist. <Link href="/">Back to the library</Link></p>
              </Route>
            </Switch>
          </Suspense>
        </ErrorBoundary>
      </main>
    </div>
  )
}
