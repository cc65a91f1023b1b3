// Reads a file's C2PA manifest with the Content Authenticity Initiative's own WebAssembly builds, off the
// main thread: checking a manifest hashes the whole file and verifies its signature, 20 ms for a small
// JPEG and far more for a 25 MiB one, all of it synchronous inside WebAssembly.
// Plain JavaScript so that it loads the same under tsx, Vitest and the compiled build.
//
// A message is `{ id, bytes, mimeType }`; the answer is `{ id, outcome }`, one of
//   { kind: 'none' }                      no manifest in the file
//   { kind: 'remote' }                    only a reference to a manifest stored elsewhere (not fetched)
//   { kind: 'broken', reason }            a manifest is there but cannot be read (truncated, malformed)
//   { kind: 'read', state, active, manifests }
// After a failure of the WebAssembly itself (a trap), the thread ends: its memory may be inconsistent.
import { readFileSync } from 'node:fs'
/* global WebAssembly */
import { parentPort } from 'node:worker_threads'
import * as detector from '@contentauth/detector'
import { initSync, WasmReader } from '@contentauth/c2pa-wasm'

detector.initSync({ module: readFileSync(new URL(import.meta.resolve('@contentauth/detector/pkg/detector_bg.wasm'))) })
initSync({ module: readFileSync(new URL(import.meta.resolve('@contentauth/c2pa-wasm/c2pa.wasm'))) })

// Nothing a file asks for is fetched: a remote manifest or a certificate's revocation status would be a
// request to an address the file chose, which the service makes only through its guarded client.
const READER_SETTINGS = JSON.stringify({ verify: { remote_manifest_fetch: false, ocsp_fetch: false } })

// The reader's errors that mean the file has no manifest of its own (c2pa-rs's `Error` variants).
const NO_MANIFEST = new Set(['JumbfNotFound', 'ProvenanceMissing', 'UnsupportedType'])
// The reader's answer for a remote manifest it was told not to fetch (a fetch that failed would be `RemoteManifestFetch`).
const REMOTE_MANIFEST = 'RemoteManifestUrl'

parentPort.on('message', async ({ id, bytes, mimeType }) => {
  try {
    parentPort.postMessage({ id, outcome: await read(bytes, mimeType) })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) })
    if (error instanceof WebAssembly.RuntimeError) process.exit(1)
  }
})
parentPort.postMessage({ ready: true })

async function read(bytes, mimeType) {
  // An SVG holds its manifest in base64, which the detector's scan cannot see: the reader looks itself.
  if (mimeType !== 'image/svg+xml' && !hasManifestMarker(bytes)) return { kind: 'none' }
  let reader
  try {
    reader = await WasmReader.fromBytes(mimeType, bytes, READER_SETTINGS)
  } catch (error) {
    if (typeof error !== 'string') throw error
    const variant = /^C2pa\((\w+)/.exec(error)?.[1] ?? error
    if (NO_MANIFEST.has(variant)) return { kind: 'none' }
    if (variant === REMOTE_MANIFEST) return { kind: 'remote' }
    return { kind: 'broken', reason: error.slice(0, 500) }
  }
  try {
    const store = reader.manifestStore()
    return { kind: 'read', state: store.validation_state ?? null, active: store.active_manifest ?? null, manifests: summarize(store.manifests ?? {}) }
  } finally {
    reader.free()
  }
}

/** The detector's scan for the C2PA manifest store's JUMBF label: the reader runs only on a file that has one. */
function hasManifestMarker(bytes) {
  const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer
  try {
    detector.scan_array_buffer(buffer)
    return true
  } catch (error) {
    if (error === 'NOT_FOUND') return false
    throw error
  }
}

/** Each manifest's claim generator, signer and actions: what provenance.ts decides from. */
function summarize(manifests) {
  return Object.fromEntries(
    Object.entries(manifests).map(([label, manifest]) => [
      label,
      {
        claimGenerator: manifest.claim_generator ?? null,
        claimGeneratorInfo: (manifest.claim_generator_info ?? []).map((info) => ({ name: String(info.name ?? ''), version: info.version == null ? null : String(info.version) })),
        signer: manifest.signature_info?.issuer ?? manifest.signature_info?.common_name ?? null,
        actions: (manifest.assertions ?? [])
          .filter((assertion) => /^c2pa\.actions(\.v\d+)?$/.test(assertion.label))
          .flatMap((assertion) => assertion.data?.actions ?? [])
          .map((action) => ({ action: String(action.action ?? ''), digitalSourceType: typeof action.digitalSourceType === 'string' ? action.digitalSourceType : null })),
      },
    ]),
  )
}
