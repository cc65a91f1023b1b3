import { isIP } from 'node:net'
import { createAddressPolicy, isPublicAddress } from '../../platform/net/address-policy.js'

/** Names that never resolve to a public address, by convention or by RFC 6761. */
const LOCAL_NAME = /(?:^|\.)(?:localhost|local|internal|test|invalid|example|home\.arpa|lan)$/i

/**
 * Whether a service elsewhere on the internet (Figma) can reach `baseUrl`: its host is a public address,
 * or a dotted name that is not a local one. Names are not resolved: this judges what the operator
 * configured, not the DNS of the moment. An entry of `allowlist` (OUTBOUND_ALLOWLIST) naming the host or
 * its network counts as reachable: the operator opened it on purpose, and that is how the tests let the
 * fake Figma on 127.0.0.1 call back.
 */
export function isReachableFromOutside(baseUrl: string, allowlist: readonly string[]): boolean {
  const hostname = new URL(baseUrl).hostname.replace(/^\[(.*)\]$/, '$1')
  const policy = createAddressPolicy(allowlist)
  if (isIP(hostname) !== 0) return policy.allowsAddress(hostname) || isPublicAddress(hostname)
  if (policy.allowsHost(hostname)) return true
  return hostname.includes('.') && !LOCAL_NAME.test(hostname.replace(/\.$/, ''))
}
