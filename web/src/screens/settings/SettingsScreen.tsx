import { Link, Redirect, Route, Switch, useLocation } from 'wouter'
import { useSession } from '../../session'
import { AccountSection } from './AccountSection'
import { ConnectSection } from './ConnectSection'
import { IntegrationsSection } from './IntegrationsSection'
import { KeysSection } from './KeysSection'
import { MembersSection } from './MembersSection'
import { OrganizationSection } from './OrganizationSection'
import { PresetsSection } from './PresetsSection'
import { ProcessingSection } from './ProcessingSection'
import { WebhookDetail } from './WebhookDetail'
import { WebhooksSection } from './WebhooksSection'
import './settings.css'

const SECTIONS = [
  { href: '/keys', label: 'API keys', managersOnly: true },
  { href: '/webhooks', label: 'Webhooks', managersOnly: true },
  { href: '/processing', label: 'Processing', managersOnly: true },
  { href: '/members', label: 'Members', managersOnly: false },
  { href: '/organization', label: 'Organization', managersOnly: false },
  { href: '/connect', label: 'Connect', managersOnly: false },
  { href: '/integrations', label: 'Integrations', managersOnly: false },
  { href: '/presets', label: 'Rendition presets', managersOnly: false },
  { href: '/account', label: 'Your account', managersOnly: false },
]

/** Settings, mounted at /settings (paths here are relative): a sub-navigation and the section shown. */
export function SettingsScreen() {
  const { canManage } = useSession()
  const [location] = useLocation()
  const sections = SECTIONS.filter((s) => canManage || !s.managersOnly)
  return (
    <div className="settings">
      <aside className="settings-side">
        <h1 className="settings-title">Settings</h1>
        <nav aria-label="Settings" className="settings-nav">
          <ul>
          {sections.map((section) => {
            const active = location === section.href || location.startsWith(`${section.href}/`)
            return (
              <li key={section.href}>
                <Link href={section.href} className={active ? 'active' : ''} aria-current={active ? 'page' : undefined}>
                  {section.label}
                </Link>
              </li>
            )
          })}
          </ul>
        </nav>
      </aside>
      <div className="settings-main">
        <Switch>
          <Route path="/">
            <Redirect to={sections[0]!.href} replace />
          </Route>
          {canManage && <Route path="/keys" component={KeysSection} />}
          {canManage && <Route path="/webhooks" component={WebhooksSection} />}
          {canManage && <Route path="/webhooks/:id">{(params) => <WebhookDetail id={params.id} />}</Route>}
          {canManage && <Route path="/processing" component={ProcessingSection} />}
          <Route path="/integrations" component={IntegrationsSection} />
          <Route path="/members" component={MembersSection} />
          <Route path="/organization" component={OrganizationSection} />
          <Route path="/connect" component={ConnectSection} />
          <Route path="/presets" component={PresetsSection} />
          <Route path="/account" component={AccountSection} />
          <Route>
            <p className="page-message">
              {canManage ? 'There is no such settings page.' : 'Only an owner or admin of the organization can open this page.'}{' '}
              <Link href="/members">Back to the settings</Link>
            </p>
          </Route>
        </Switch>
      </div>
    </div>
  )
}
