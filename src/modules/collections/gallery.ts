/** The plain HTML page of a shared collection: thumbnails linking to the originals, no script. */
export function renderGallery(view: {
  name: string
  description: string
  assets: { data: Array<{ title: string; width: number; height: number; thumbnail_url: string; original_url: string }>; total: number }
}): string {
  const items = view.assets.data
    .map(
      (asset) => `    <figure>
      <a href="${escape(asset.original_url)}"><img src="${escape(asset.thumbnail_url)}" alt="${escape(asset.title)}" loading="lazy"></a>
      <figcaption>${escape(asset.title || 'Untitled')} <small>${asset.width}\u00d7${asset.height}</small></figcaption>
    </figure>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${escape(view.name)}</title>
  <style>
    body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
    main { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 1rem; }
    figure { margin: 0; } img { width: 100%; height: 180px; object-fit: contain; background: #f4f4f4; }
    figcaption { font-size: .9rem; margin-top: .3rem; } small { color: #777; }
  </style>
</head>
<body>
  <h1>${escape(view.name)}</h1>
  <p>${escape(view.description)}</p>
  <p><small>${view.assets.total} asset${view.assets.total === 1 ? '' : 's'}</small></p>
  <main>
${items}
  </main>
</body>
</html>
`
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
