import { useState, type CSSProperties, type ReactNode, type SyntheticEvent } from 'react'
import { isTransparent } from './transparency'
import './asset-thumb.css'

/** What a thumbnail needs: every listed asset, search hit, similar hit and collection member has these. */
export interface ThumbAsset {
  title: string
  thumbnail_url: string
  width: number
  height: number
}

/** The name to show and to label with: the title, or "Untitled" when it is blank. */
export function assetTitle(asset: { title?: string | null }): string {
  return asset.title?.trim() || 'Untitled'
}

/** The mark of an asset created by AI (the contract: text "AI", title "Created by AI"). */
export function AiBadge() {
  return (
    <span className="badge ai" title="Created by AI">
      AI
    </span>
  )
}

/** What the loaded thumbnail showed: whether it has transparency, and its shape (the record's may predate its EXIF rotation). */
interface Loaded {
  transparent: boolean
  ratio: number
}

/** The image's box inside the square: exactly the picture, so a checkerboard behind it shows nowhere else. */
const boxOf = (ratio: number): CSSProperties => (ratio >= 1 ? { width: '100%', height: `${100 / ratio}%` } : { width: `${100 * ratio}%`, height: '100%' })

/**
 * An asset's thumbnail in a fixed square box (nothing shifts while it loads), loaded lazily. A picture
 * with transparency is drawn over a checkerboard (`data-transparency`), an opaque one over a plain
 * background. The image is decorative: the card's title names the asset. One that cannot be shown (an
 * image whose decode failed has no thumbnail: 404 `thumbnail_unavailable`) leaves "No preview" in the box
 * instead of a broken image. `children` sit over the image (a selection box, an AI badge in a corner).
 */
export function AssetThumb({ asset, children, className }: { asset: ThumbAsset; children?: ReactNode; className?: string }) {
  const [loaded, setLoaded] = useState<Loaded & { url: string }>()
  const [failedUrl, setFailedUrl] = useState<string>()
  const shown = loaded?.url === asset.thumbnail_url ? loaded : undefined
  const load = (event: SyntheticEvent<HTMLImageElement>) => {
    const image = event.currentTarget
    const ratio = image.naturalWidth > 0 && image.naturalHeight > 0 ? image.naturalWidth / image.naturalHeight : 1
    setLoaded({ url: asset.thumbnail_url, transparent: isTransparent(image), ratio })
  }
  const boxClass = className ? `asset-thumb ${className}` : 'asset-thumb'
  if (failedUrl === asset.thumbnail_url) {
    return (
      <div className={boxClass} data-preview="none">
        <span className="asset-thumb-none">No preview</span>
        {children}
      </div>
    )
  }
  return (
    <div className={boxClass} data-transparency={shown && (shown.transparent ? 'transparent' : 'opaque')}>
      <img
        src={asset.thumbnail_url}
        alt=""
        width={asset.width}
        height={asset.height}
        loading="lazy"
        decoding="async"
        draggable={false}
        style={shown && boxOf(shown.ratio)}
        onLoad={load}
        onError={() => setFailedUrl(asset.thumbnail_url)}
      />
      {children}
    </div>
  )
}
