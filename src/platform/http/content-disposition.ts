/**
 * `Content-Disposition: attachment` naming the file `name` (RFC 6266): a plain-ASCII `filename` for old
 * clients and the exact name in `filename*` (RFC 5987). Control characters and path separators become
 * `_`, so a name cannot make a client write outside its download folder.
 */
export function attachment(name: string): string {
  const safe = [...name].map((char) => (char < ' ' || char === '\u007f' || char === '/' || char === '\\' ? '_' : char)).join('')
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_').replace(/["%]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(safe)}`
}

function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
