import { createHash } from 'node:crypto'
import { DEFAULT_LIMIT } from '../../platform/http/pagination.js'
import { escapeHtml as escape } from '../../platform/html.js'
import { fileNameOf } from './share-zip.js'

export const GALLERY_PAGE_SIZE = DEFAULT_LIMIT

/** The pages a gallery of `total` assets has: at least one, the empty collection's. */
export const pageCount = (total: number) => Math.max(1, Math.ceil(total / GALLERY_PAGE_SIZE))

/** The web app's icon (web/src/favicon.svg, which a test keeps this equal to), inlined: the page has no static files. */
export const APP_FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#3b5bdb"/><rect x="7" y="7" width="8" height="8" rx="2" fill="#fff"/><rect x="17" y="7" width="8" height="8" rx="2" fill="#fff" opacity=".7"/><rect x="7" y="17" width="8" height="8" rx="2" fill="#fff" opacity=".7"/><rect x="17" y="17" width="8" height="8" rx="2" fill="#fff" opacity=".4"/></svg>'

/**
 * The lightbox, a progressive enhancement: without it each thumbnail is a link to the large image. A
 * modal <dialog> keeps focus inside, closes on Esc and gives focus back to the thumbnail; the arrow
 * keys move through the page's assets. The caption counts in the whole collection ("51 of 120" on the
 * second page): the dialog carries the page's offset and the total. Inline, allowed by its hash in the
 * page's policy.
 */
const LIGHTBOX_SCRIPT = `(() => {
  const dialog = document.getElementById('lightbox')
  if (!dialog || typeof dialog.showModal !== 'function') return
  const links = [...document.querySelectorAll('a.open')]
  const image = dialog.querySelector('img')
  const caption = dialog.querySelector('.caption')
  const download = dialog.querySelector('a[download]')
  const offset = Number(dialog.dataset.offset)
  const total = Number(dialog.dataset.total)
  let current = 0
  let opener = null
  const show = (index) => {
    current = (index + links.length) % links.length
    const link = links[current]
    image.src = link.href
    image.alt = link.dataset.title
    caption.textContent = link.dataset.title + ' (' + (offset + current + 1) + ' of ' + total + ')'
    download.href = link.href
    download.setAttribute('download', link.dataset.file)
  }
  links.forEach((link, index) => link.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    opener = link
    show(index)
    dialog.showModal()
  }))
  dialog.querySelector('.prev').addEventListener('click', () => show(current - 1))
  dialog.querySelector('.next').addEventListener('click', () => show(current + 1))
  dialog.querySelector('.close').addEventListener('click', () => dialog.close())
  const controls = [...dialog.querySelectorAll('button, a')]
  dialog.addEventListener('keydown', (event) => {
    // The modal dialog makes the page inert, but Tab would still leave for the browser's own controls.
    if (event.key === 'Tab') {
      const edge = event.shiftKey ? controls[0] : controls[controls.length - 1]
      if (document.activeElement !== edge) return
      event.preventDefault()
      ;(event.shiftKey ? controls[controls.length - 1] : controls[0]).focus()
      return
    }
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key]
    if (!step) return
    event.preventDefault()
    show(current + step)
  })
  dialog.addEventListener('close', () => {
    image.removeAttribute('src')
    if (opener) opener.focus()
  })
})()`

/** The page's policy: no source but its own hashed script; images from the signed file links and the inlined icon. */
export const GALLERY_CSP = [
  "default-src 'none'",
  'img-src * data:',
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${createHash('sha256').update(LIGHTBOX_SCRIPT).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** A preset a share offers, as its JSON lists it. */
export interface GalleryPreset {
  name: string
  /** Null for `original`: the asset's own. */
  format: string | null
  width: number | null
  height: number | null
  /** `inside` with both sides: the image fits in the box, so the box is only its largest size. */
  fit: string
}

export interface GalleryView {
  name: string
  description: string
  organization: { name: string }
  presets: GalleryPreset[]
  assets: {
    data: Array<{ title: string; width: number; height: number; file_name: string; thumbnail_url: string; original_url: string; renditions: Record<string, string> }>
    total: number
  }
  /** The share's token, for its zip link. */
  token: string
  /** This page, from 1, of `pages`. */
  page: number
  pages: number
}

/**
 * The HTML page of a shared collection, one page of its assets: thumbnails linking to the large
 * images, a download of each original and of each preset's file (under "More sizes", a disclosure
 * that needs no script), the whole as a zip of the originals or of a preset, and links to the pages
 * before and after.
 */
export function renderGallery(view: GalleryView): string {
  const { total } = view.assets
  const pageLink = (page: number) => `?page=${page}`
  const prev = view.page > 1 ? pageLink(view.page - 1) : undefined
  const next = view.page < view.pages ? pageLink(view.page + 1) : undefined
  const items = view.assets.data
    .map((asset) => {
      const title = asset.title || 'Untitled'
      return `    <li>
      <a class="open" href="${escape(asset.original_url)}" data-title="${escape(title)}" data-file="${escape(asset.file_name)}"><img src="${escape(asset.thumbnail_url)}" alt="${escape(title)}" width="${asset.width}" height="${asset.height}" loading="lazy"></a>
      <p class="caption">${escape(title)} <span class="muted">${asset.width}\u00d7${asset.height}</span></p>
      <a class="download" href="${escape(downloadUrl(asset.original_url, asset.file_name))}" download="${escape(asset.file_name)}">Download<span class="visually-hidden"> ${escape(title)}</span></a>
${moreSizes(asset, title, view.presets)}    </li>`
    })
    .join('\n')
  const title = `${escape(view.name)}${view.pages > 1 ? ` (page ${view.page} of ${view.pages})` : ''} \u2014 ${escape(view.organization.name)}`
  return `${pageHead(title, `${prev ? `  <link rel="prev" href="${prev}">\n` : ''}${next ? `  <link rel="next" href="${next}">\n` : ''}`)}
<body>
  <header>
    <p class="muted">Shared by ${escape(view.organization.name)}</p>
    <h1>${escape(view.name)}</h1>
${view.description ? `    <p>${escape(view.description)}</p>\n` : ''}    <p>${total} asset${total === 1 ? '' : 's'}${total > 0 ? ` \u00b7 <a href="${escape(view.token)}.zip" download>Download all as a zip</a>${zipsOfPresets(view.token, view.presets)}` : ''}</p>
  </header>
  <main>
    <ul class="grid" aria-label="Assets">
${items}
    </ul>
${view.pages > 1 ? pageNav(view.page, view.pages, prev, next) : ''}  </main>
  <dialog id="lightbox" aria-label="Large image" data-offset="${(view.page - 1) * GALLERY_PAGE_SIZE}" data-total="${total}">
    <img alt="">
    <p class="caption"></p>
    <div class="controls">
      <button type="button" class="prev">Previous</button>
      <button type="button" class="next">Next</button>
      <a download>Download</a>
      <button type="button" class="close">Close</button>
    </div>
  </dialog>
  <script>${LIGHTBOX_SCRIPT}</script>
</body>
</html>
`
}

/**
 * What a person who follows an unknown or revoked link sees: a page, not the API's problem document,
 * since the link was most likely sent to them by someone else.
 */
export function renderGone(): string {
  return `${pageHead('This link does not work')}
<body>
  <main>
    <h1>This link does not work</h1>
    <p>The collection behind it is no longer shared, or the link was copied incompletely.</p>
    <p class="muted">Ask the person who sent it for a new link.</p>
  </main>
</body>
</html>
`
}

/** The shared pages' head, up to </head>: `title` is escaped HTML, `links` more head lines. */
function pageHead(title: string, links = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${title}</title>
  <link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(APP_FAVICON_SVG)}">
${links}  <style>${STYLE}</style>
</head>`
}

/**
 * A file's link asking for `Content-Disposition: attachment` under its file name (the files route's
 * unsigned `download` parameter); the `download` attribute names it as well, the page and the files
 * being on one origin.
 */
const downloadUrl = (url: string, fileName: string) => `${url}&download=${encodeURIComponent(fileName)}`

/** The presets other than the original, which the page's own download gives. */
const otherPresets = (presets: GalleryPreset[]) => presets.filter((preset) => preset.name !== 'original')

/** What a preset makes, for a person: `WebP, 1200 px wide`, `JPEG, 1200\u00d7630`, `WebP, up to 512\u00d7512`. */
export function describePreset(preset: GalleryPreset): string {
  const { width, height } = preset
  const box = width !== null && height !== null ? `${preset.fit === 'inside' ? 'up to ' : ''}${width}\u00d7${height}` : null
  const size = box ?? (width !== null ? `${width} px wide` : height !== null ? `${height} px high` : 'full size')
  return `${FORMAT_NAMES[preset.format ?? ''] ?? preset.format ?? 'Original'}, ${size}`
}

const FORMAT_NAMES: Record<string, string> = { webp: 'WebP', png: 'PNG', jpeg: 'JPEG', avif: 'AVIF' }

/**
 * The file name of an asset's file of a preset: its title, the preset's name, the format's extension
 * (`Logo (web-1200).webp`), so the files of one asset saved side by side do not overwrite each other.
 */
export function presetFileName(title: string, preset: GalleryPreset): string {
  return fileNameOf(`${title || 'untitled'} (${preset.name})`, `image/${preset.format ?? ''}`)
}

/** An asset's files of the presets, under a disclosure; none for an image that has no renditions. */
function moreSizes(asset: { renditions: Record<string, string> }, title: string, presets: GalleryPreset[]): string {
  const offered = otherPresets(presets).filter((preset) => asset.renditions[preset.name] !== undefined)
  if (offered.length === 0) return ''
  const links = offered.map((preset) => {
    const fileName = presetFileName(title, preset)
    return `          <li><a href="${escape(downloadUrl(asset.renditions[preset.name]!, fileName))}" download="${escape(fileName)}">${escape(preset.name)}</a> <span class="muted">${escape(describePreset(preset))}</span></li>`
  })
  return `      <details class="sizes">
        <summary>More sizes<span class="visually-hidden"> of ${escape(title)}</span></summary>
        <ul>
${links.join('\n')}
        </ul>
      </details>
`
}

/** The zip of each preset besides the originals'. */
function zipsOfPresets(token: string, presets: GalleryPreset[]): string {
  const links = otherPresets(presets).map(
    (preset) => `<a href="${escape(token)}.zip?preset=${encodeURIComponent(preset.name)}" download title="${escape(describePreset(preset))}">${escape(preset.name)}</a>`,
  )
  return links.length > 0 ? ` \u00b7 a zip in another size: ${links.join(', ')}` : ''
}

function pageNav(page: number, pages: number, prev: string | undefined, next: string | undefined): string {
  return `    <nav aria-label="Pages">
      ${prev ? `<a rel="prev" href="${prev}">Previous page</a>` : ''}
      <span>Page ${page} of ${pages}</span>
      ${next ? `<a rel="next" href="${next}">Next page</a>` : ''}
    </nav>
`
}

// Text colours reach WCAG AA (4.5:1) on their backgrounds: #1f2328 and #57606a on white, white on #1f2328.
const STYLE = `
    body { font-family: system-ui, sans-serif; margin: 0 auto; padding: 1.5rem; max-width: 80rem; color: #1f2328; background: #fff; }
    h1 { margin: .2rem 0 .5rem; font-size: 1.6rem; }
    a { color: #0b57d0; }
    .muted { color: #57606a; }
    .grid { list-style: none; padding: 0; margin: 1rem 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 1rem; }
    .grid img { display: block; width: 100%; height: 180px; object-fit: contain; background: #f0f0f0; }
    .grid .caption { margin: .3rem 0 .2rem; font-size: .9rem; overflow-wrap: anywhere; }
    .download { font-size: .9rem; }
    .sizes { font-size: .9rem; margin-top: .2rem; }
    .sizes summary { cursor: pointer; color: #0b57d0; }
    .sizes ul { list-style: none; padding: 0; margin: .3rem 0 0; }
    .sizes li { margin: .15rem 0; }
    nav { display: flex; gap: 1.5rem; align-items: center; justify-content: center; margin: 1.5rem 0; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    dialog { max-width: 95vw; max-height: 95vh; padding: 1rem; border: 0; border-radius: .5rem; background: #1f2328; color: #fff; }
    dialog::backdrop { background: rgb(0 0 0 / .8); }
    dialog img { display: block; width: min(90vw, 80rem); height: 75vh; margin: 0 auto .5rem; object-fit: contain; }
    dialog a { color: #fff; }
    dialog .caption { text-align: center; margin: 0 0 .75rem; }
    .controls { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; justify-content: center; }
    .controls button { font: inherit; padding: .4rem .9rem; border: 1px solid #fff; border-radius: .3rem; background: transparent; color: #fff; cursor: pointer; }
    @media (max-width: 30rem) { body { padding: 1rem; } .grid { grid-template-columns: repeat(2, 1fr); gap: .75rem; } .grid img { height: 130px; } }
  `
