/** Debian's Chromium, as the docs check and the end-to-end tests start it (never a downloaded browser). */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * Headless on a closed network: without the background-networking switches Chromium keeps calling
 * Google's hosts, and this machine refuses them by the dozen.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
