import type { ReactNode } from 'react'
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

/**
 * An asset's thumbnail in a fixed square box (nothing shifts while it loads), drawn whole over a
 * checkerboard, loaded lazily. The image is decorative: the card's title names the asset. `children`
 * sit over the image (a selection box, an AI badge in a corner).
 */
export function AssetThumb({ asset, children, className }: { asset: ThumbAsset; children?: ReactNode; className?: string }) {
  return (
    <div className={className ? `asset-thumb ${className}` : 'asset-thumb'}>
      <img src={asset.thumbnail_url} alt="" width={asset.width} height={asset.height} loading="lazy" decoding="async" draggable={false} />
      {children}
    </div>
  )
}
