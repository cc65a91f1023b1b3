import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

type IPAddress = ipaddr.IPv4 | ipaddr.IPv6
type Network = [IPAddress, number]

/**
 * Decides which destinations outbound requests may reach: public unicast addresses, plus whatever
 * the operator opened on purpose (tests, self-hosters fetching from their own network).
 */
export interface AddressPolicy {
  /** True when the host name itself was allowlisted: every address it resolves to is accepted. */
  allowsHost(hostname: string): boolean
  /** True for a public unicast address, or one inside an allowlisted network. */
  allowsAddress(address: string): boolean
}

/**
 * Builds the policy from allowlist entries: host names (`images.intranet`), IP addresses
 * (`127.0.0.1`, `::1`, `[::1]`) and CIDRs (`10.0.0.0/8`, `fd00::/8`). Empty means public only.
 * Throws a TypeError naming the first entry it cannot read, so configuration fails at start-up.
 */
export function createAddressPolicy(allowlist: readonly string[] = []): AddressPolicy {
  const hosts = new Set<string>()
  const networks: Network[] = []
  for (const raw of allowlist) {
    const entry = raw.trim().toLowerCase()
    if (entry === '') continue
    const network = parseNetwork(entry)
    if (network) networks.push(network)
    else if (isHostName(entry)) hosts.add(withoutTrailingDot(entry))
    else throw new TypeError(`allowlist entry "${raw}" is neither a host name, an IP address nor a CIDR`)
  }
  return {
    allowsHost: (hostname) => hosts.has(withoutTrailingDot(hostname.toLowerCase())),
    allowsAddress: (address) => isPublicAddress(address) || inNetworks(address, networks),
  }
}

/**
 * Only global unicast addresses are public. Loopback, private, link-local (cloud metadata), CGNAT,
 * multicast, broadcast, unspecified (`0.0.0.0` and `::` reach local services on Linux), unique-local,
 * documentation and other reserved ranges are not. Anything unparsable is not public either.
 */
export function isPublicAddress(text: string): boolean {
  const address = parseAddress(text)
  if (address === undefined) return false
  if (address.kind() === 'ipv4') return address.range() === 'unicast'
  const embedded = embeddedIPv4(address as ipaddr.IPv6)
  if (embedded !== undefined) return embedded.every((ipv4) => ipv4.range() === 'unicast')
  return address.range() === 'unicast'
}

/**
 * IPv6 forms that carry an IPv4 address end up at (or are routed by) that IPv4 address, so that is
 * the one to judge. ipaddr.js calls IPv4-compatible `::7f00:1` plain unicast, hence the explicit check.
 * Teredo carries two: the server in clear and the client with its bits inverted.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray()
  const ipv4At = (offset: number, mask = 0) =>
    new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((byte) => byte ^ mask))
  const zeroUpTo = (end: number, from = 0) => bytes.slice(from, end).every((byte) => byte === 0)

  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d (SIIT)
      return [ipv4At(12)]
    case 'rfc6052': // NAT64 well-known prefix 64:ff9b::/96 only; the local-use /48 stays blocked
      return zeroUpTo(12, 4) ? [ipv4At(12)] : undefined
    case '6to4': // 2002:AABB:CCDD::
      return [ipv4At(2)]
    case 'teredo': // 2001:0:SSSS:SSSS:flags:port:~CCCC:~CCCC
      return [ipv4At(4), ipv4At(12, 0xff)]
    case 'unicast': // IPv4-compatible ::a.b.c.d
      return zeroUpTo(12) ? [ipv4At(12)] : undefined
    default:
      return undefined
  }
}

function inNetworks(text: string, networks: readonly Network[]): boolean {
  if (networks.length === 0) return false
  const address = parseAddress(text)
  if (address === undefined) return false
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so an IPv4 entry also covers its mapped form.
  const candidates = [address, ipaddr.process(address.toString())]
  return networks.some(([base, bits]) =>
    candidates.some((candidate) => candidate.kind() === base.kind() && candidate.match(base, bits)),
  )
}

function parseNetwork(entry: string): Network | undefined {
  const [addressPart = '', bitsPart, ...rest] = entry.replace(/^\[(.*)\]$/, '$1').split('/')
  const address = parseAddress(addressPart)
  if (address === undefined || rest.length > 0) return undefined
  const maxBits = address.kind() === 'ipv4' ? 32 : 128
  if (bitsPart === undefined) return [address, maxBits]
  const bits = /^\d{1,3}$/.test(bitsPart) ? Number(bitsPart) : NaN
  return bits <= maxBits ? [address, bits] : undefined
}

/** Accepts only canonical literals (what the URL parser and DNS produce), never `127.1` or `0x7f.1`. */
function parseAddress(text: string): IPAddress | undefined {
  if (isIP(text) === 0) return undefined
  try {
    return ipaddr.parse(text)
  } catch {
    return undefined
  }
}

const LABEL = '[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?'
const HOST_NAME = new RegExp(`^${LABEL}(\\.${LABEL})*\\.?$`)
/** The URL parser reads a host whose last label is a number (`127.1`, `0x7f`) as IPv4: not a name. */
const NUMERIC_LAST_LABEL = /(^|\.)(\d+|0x[0-9a-f]*)\.?$/

function isHostName(entry: string): boolean {
  return HOST_NAME.test(entry) && !NUMERIC_LAST_LABEL.test(entry)
}

function withoutTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname
}
