/**
 * What `asset-library-client mcp` runs, as its own process for the tests: the bridge between this
 * process's stdio and the service named by ASSET_LIBRARY_URL, with the key ASSET_LIBRARY_KEY.
 */
import { bridgeMcp } from '../src/mcp-bridge.js'

await bridgeMcp({ url: process.env.ASSET_LIBRARY_URL ?? '', apiKey: process.env.ASSET_LIBRARY_KEY ?? '' })
