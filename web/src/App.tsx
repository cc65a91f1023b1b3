import { Link, Route, Switch, useRoute } from 'wouter'
import logo from './favicon.svg'
import { AcceptInvitationScreen } from './screens/invite/AcceptInvitationScreen'
import { AssetDetailScreen } from './screens/library/AssetDetailScreen'
import { LibraryScreen } from './screens/library/LibraryScreen'
import { CollectionScreen } from './screens/collections/CollectionScreen'
import { CollectionsScreen } from './screens/collections/CollectionsScreen'
import { SettingsScreen } from './screens/settings/SettingsScreen'
import { SignInScreen } from './screens/SignInScreen'
import { UploadScreen } from './screens/upload/UploadScreen'
import { SessionProvider, useSession, useSessionQuery } from './session'

/** Signed out: the sign-in screen, or the invitation being accepted. Signed in: the shell and its screens. */
export function App() {
  const session = useSessionQuery()
  const [inviting] = useRoute('/invite/:token')
  if (inviting) return <Route path="/invite/:token" component={AcceptInvitationScreen} />
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
  { href: '/collections', label: 'Collections', match: (path: string) => path.startsWith('/collections') },
  { href: '/settings', label: 'Settings', match: (path: string) => path.startsWith('/settings') },
]

function Shell() {
  const { user, organizations, organization, switchOrganization, signOut } = useSession()
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand" aria-label="Asset Library home">
          <img src={logo} alt="" width="22" height="22" />
          <span>Asset Library</span>
        </Link>
        <nav aria-label="Main" className="main-nav">
          {NAV.map((item) => (
            <Link key={item.href} href={item.href} className={(active) => (active || item.match(location.pathname) ? 'active' : '')}>
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
      <main className="content">
        <Switch>
          <Route path="/" component={LibraryScreen} />
          <Route path="/assets/:id" component={AssetDetailScreen} />
          <Route path="/upload" component={UploadScreen} />
          <Route path="/collections" component={CollectionsScreen} />
          <Route path="/collections/:id" component={CollectionScreen} />
          <Route path="/settings" nest>
            <SettingsScreen />
          </Route>
          <Route>
            <p className="page-message">This page does not exist. <Link href="/">Back to the library</Link></p>
          </Route>
        </Switch>
      </main>
    </div>
  )
}
