import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP, type LookupFunction, type Socket } from 'node:net'
import { createSecureContext, rootCertificates } from 'node:tls'
import type { buildConnector } from 'undici'
import type { AddressPolicy } from './address-policy.js'
import { fetchErrors } from './errors.js'
import { loadUndici } from './undici.js'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to every address it has. Injectable so tests stay offline. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) reject(error)
      else resolve(addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })))
    })
  })

/**
 * An undici connector that checks the destination inside the connection itself, so a DNS answer
 * cannot change between the check and the connect (rebinding):
 * - host names go through a lookup that resolves every address and refuses them all if any one is
 *   not allowed (a name with one public and one private address is blocked);
 * - literal IPs, for which Node never calls lookup, are checked before connecting;
 * - the connected peer is checked once more, as a backstop should a Node version bypass lookup.
 */
export function guardedConnector(
  policy: AddressPolicy,
  resolver: HostResolver,
  connectTimeoutMs: number,
  extraCa?: string,
): buildConnector.connector {
  const connect = loadUndici().buildConnector({
    timeout: connectTimeoutMs,
    lookup: guardedLookup(policy, resolver),
    // Setting `ca` replaces Node's bundle, so the bundle is named too. One context for every connection:
    // as a `ca` option the ~140 certificates were parsed again at each connect (~20 ms of CPU), and a
    // burst of new connections to one endpoint then timed out.
    ...(extraCa !== undefined && { secureContext: createSecureContext({ ca: [...rootCertificates, extraCa] }) }),
  })

  return (options, callback) => {
    const { hostname } = options
    if (isIP(hostname) !== 0 && !policy.allowsAddress(hostname)) {
      queueMicrotask(() => callback(fetchErrors.blocked(), null))
      return
    }
    connect(options, (error, socket) => {
      if (error) return callback(error, null)
      if (peerAllowed(policy, hostname, socket)) return callback(null, socket)
      socket.destroy()
      callback(fetchErrors.blocked(), null)
    })
  }
}

function peerAllowed(policy: AddressPolicy, hostname: string, socket: Socket): boolean {
  const peer = socket.remoteAddress
  return peer !== undefined && (policy.allowsHost(hostname) || policy.allowsAddress(peer))
}

function guardedLookup(policy: AddressPolicy, resolver: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(policy, resolver, hostname).then(
      (addresses) => {
        const usable = ofFamily(addresses, options.family)
        const first = usable[0]
        if (first === undefined) callback(notFound(hostname), '')
        else if (options.all) callback(null, usable)
        else callback(null, first.address, first.family)
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    )
  }
}

/** Every address of `hostname`, or a `blocked` error when any one of them is not allowed. */
export async function resolveAllowed(policy: AddressPolicy, resolver: HostResolver, hostname: string): Promise<ResolvedAddress[]> {
  const addresses = await resolver(hostname)
  if (addresses.length === 0) throw notFound(hostname)
  if (!policy.allowsHost(hostname) && !addresses.every(({ address }) => policy.allowsAddress(address))) {
    throw fetchErrors.blocked()
  }
  return addresses
}

function ofFamily(addresses: ResolvedAddress[], family: LookupFunctionFamily): LookupAddress[] {
  const wanted = family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : family
  return wanted === 4 || wanted === 6 ? addresses.filter((a) => a.family === wanted) : addresses
}

type LookupFunctionFamily = Parameters<LookupFunction>[1]['family']

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname })
}
