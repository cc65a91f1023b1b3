import { describe, expect, it } from 'vitest'
import { createAddressPolicy, isPublicAddress } from '../../src/platform/net/address-policy.js'

describe('isPublicAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local: cloud metadata'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['192.0.0.1', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fec0::1', 'deprecated site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, as the URL parser writes it'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated metadata'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['64:ff9b::7f00:1', 'NAT64 loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 metadata'],
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['2001:0:808:808::80ff:fffe', 'Teredo with a loopback client'],
    ['2001:0:a00:1::f7f7:f7f7', 'Teredo with a private server'],
    ['not-an-ip', 'not an address'],
    ['127.1', 'a non-canonical spelling'],
  ])('%s is not public (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:808:808::f7f7:f7f7',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true)
  })
})

describe('createAddressPolicy', () => {
  it('allows public addresses only when the allowlist is empty', () => {
    const policy = createAddressPolicy()
    expect(policy.allowsAddress('8.8.8.8')).toBe(true)
    expect(policy.allowsAddress('127.0.0.1')).toBe(false)
    expect(policy.allowsHost('localhost')).toBe(false)
  })

  it('opens the listed networks and nothing next to them', () => {
    const policy = createAddressPolicy(['127.0.0.1/32', '10.1.0.0/16', 'fd00::/8'])
    expect(policy.allowsAddress('127.0.0.1')).toBe(true)
    expect(policy.allowsAddress('::ffff:7f00:1')).toBe(true)
    expect(policy.allowsAddress('127.0.0.2')).toBe(false)
    expect(policy.allowsAddress('::1')).toBe(false)
    expect(policy.allowsAddress('10.1.200.3')).toBe(true)
    expect(policy.allowsAddress('10.2.0.1')).toBe(false)
    expect(policy.allowsAddress('fd00::5')).toBe(true)
    expect(policy.allowsAddress('fc00::5')).toBe(false)
  })

  it('reads bare and bracketed addresses as single hosts', () => {
    const policy = createAddressPolicy(['127.0.0.1', '[::1]'])
    expect(policy.allowsAddress('127.0.0.1')).toBe(true)
    expect(policy.allowsAddress('::1')).toBe(true)
    expect(policy.allowsAddress('127.0.0.2')).toBe(false)
  })

  it('matches host names exactly, ignoring case and a trailing dot', () => {
    const policy = createAddressPolicy(['Images.Intranet.', 'localhost'])
    expect(policy.allowsHost('images.intranet')).toBe(true)
    expect(policy.allowsHost('IMAGES.INTRANET.')).toBe(true)
    expect(policy.allowsHost('localhost')).toBe(true)
    expect(policy.allowsHost('evil.images.intranet')).toBe(false)
    expect(policy.allowsHost('127.0.0.1')).toBe(false)
  })

  it.each(['127.1', '0x7f000001', '10.0.0.0/33', '::1/129', 'a..b', 'http://example.com', '10.0.0.0/8/8', '*.example.com'])(
    'refuses the unreadable entry %s at construction',
    (entry) => {
      expect(() => createAddressPolicy([entry])).toThrow(TypeError)
    },
  )
})
