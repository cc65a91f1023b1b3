import type { Asset } from './queries'

const EXTENSION: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/tiff': 'tiff',
  'image/svg+xml': 'svg',
}

/** The original's file name: its title, made safe for every file system, with its format's extension. */
export function downloadName(asset: Pick<Asset, 'title' | 'mime_type'>): string {
  const extension = EXTENSION[asset.mime_type] ?? asset.mime_type.split('/')[1]?.replace(/\W/g, '') ?? 'bin'
  const printable = [...asset.title].map((char) => (char < ' ' ? '-' : char)).join('')
  const stem = printable.replace(/[\\/:*?"<>|]+/g, '-').trim() || 'asset'
  return stem.toLowerCase().endsWith(`.${extension}`) ? stem : `${stem}.${extension}`
}

/** The signed original URL, answered as an attachment under its file name (the /files route's `download`). */
export function downloadHref(asset: Pick<Asset, 'title' | 'mime_type' | 'original_url'>): string {
  const url = new URL(asset.original_url, window.location.href)
  url.searchParams.set('download', downloadName(asset))
  return url.href
}
