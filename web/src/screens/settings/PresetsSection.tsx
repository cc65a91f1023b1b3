import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { ASSETS_KEY, PRESETS_KEY } from '../../api/cache'
import { appApi, unwrap } from '../../api/client'
import { useOrg, useSession } from '../../session'
import { ConfirmDialog, Dialog } from '../../ui/Dialog'
import { FormError } from '../../ui/FormError'
import { QueryError } from '../../ui/QueryError'
import { Table } from '../../ui/Table'
import { useToast } from '../../ui/toast'
import { presetsQuery, type Preset } from '../library/queries'
import { SectionHeader } from './parts'
import { useConfirmedMutation } from './useConfirmedMutation'

type Fit = Preset['fit']
type Format = NonNullable<Preset['format']>

const FITS: Record<Fit, string> = {
  contain: 'Contain: the whole image, padded to the box',
  cover: 'Cover: the box filled, cropped from the centre',
  inside: 'Inside: the whole image, no padding',
}
const FORMATS: Record<Format, string> = { webp: 'WebP', avif: 'AVIF', jpeg: 'JPEG', png: 'PNG' }
/** As the server clamps them (`RENDER_MAX_SIDE` may allow more; the server says what it kept). */
const MAX_SIDE = 4096
const NAME_PATTERN = '[a-z0-9][a-z0-9\\-]{0,39}'
const BACKGROUND_PATTERN = '#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})'

/** The form's fields as typed: empty means left out. */
interface Draft {
  name: string
  width: string
  height: string
  fit: Fit
  format: Format
  quality: string
  background: string
}

const NEW_PRESET: Draft = { name: '', width: '', height: '', fit: 'contain', format: 'webp', quality: '', background: '' }

function draftOf(preset: Preset): Draft {
  const text = (value: number | string | null) => (value === null ? '' : String(value))
  return {
    name: preset.name,
    width: text(preset.width),
    height: text(preset.height),
    fit: preset.fit,
    format: preset.format ?? 'webp',
    quality: text(preset.quality),
    background: preset.background === null ? '' : `#${preset.background}`,
  }
}

/** Every parameter, as the API's PUT replaces them all. */
function paramsOf(draft: Draft) {
  const number = (text: string) => (text.trim() === '' ? null : Number(text))
  return {
    width: number(draft.width),
    height: number(draft.height),
    fit: draft.fit,
    format: draft.format,
    quality: draft.format === 'png' ? null : number(draft.quality),
    background: draft.background.trim() === '' ? null : draft.background.trim(),
  }
}

/** `1200 × 630`, `1200 wide`, `630 high`, or the image's own size. */
export function presetSize(preset: Pick<Preset, 'width' | 'height'>): string {
  const { width, height } = preset
  if (width !== null && height !== null) return `${width} × ${height}`
  if (width !== null) return `${width} wide`
  if (height !== null) return `${height} high`
  return 'Original size'
}

/** The padding's colour: the preset's own, else the format's default; the original has none. */
function backgroundOf(preset: Preset) {
  if (preset.background !== null) return <code>#{preset.background}</code>
  if (preset.format === null) return '—'
  return preset.format === 'jpeg' ? 'White' : 'Transparent'
}

/**
 * Settings › Rendition presets: every member sees them (the asset records link each one); owners and
 * admins add, change and delete the organization's own. The built-ins are listed, never editable.
 */
export function PresetsSection() {
  const org = useOrg()
  const { canManage } = useSession()
  const queryClient = useQueryClient()
  const toast = useToast()
  const presets = useQuery({ ...presetsQuery(org), meta: { quiet: true } })
  // Asset records link every preset: those the app holds are stale after a change.
  const refresh = () => Promise.all([PRESETS_KEY, ASSETS_KEY].map((key) => queryClient.invalidateQueries({ queryKey: [key] })))
  const [editing, setEditing] = useState<{ preset: Preset | null } | null>(null)
  const remove = useConfirmedMutation({
    mutationFn: (preset: Preset) => unwrap(appApi.DELETE('/app/api/orgs/{org}/presets/{name}', { params: { path: { org, name: preset.name } } })),
    onSuccess: (_, preset) => {
      toast.success(`The preset “${preset.name}” is deleted.`)
      void refresh()
    },
  })
  const own = presets.data?.data.filter((preset) => !preset.built_in) ?? []

  return (
    <section className="stack" aria-labelledby="presets-title">
      <SectionHeader title="Rendition presets" id="presets-title">
        {canManage && (
          <button type="button" className="primary" onClick={() => setEditing({ preset: null })}>
            New preset
          </button>
        )}
      </SectionHeader>
      <p className="muted section-intro">
        A preset names a size and format of your assets, such as <code>web-1200</code> for sites or <code>og-image</code> for social cards. Every asset record
        links each preset in <code>renditions</code>, and <code>render?preset=NAME</code> makes it. <code>thumbnail</code> and <code>original</code> are built in.
      </p>
      {!canManage && <p className="note">Presets are read-only for you: an owner or admin manages them.</p>}
      {presets.isPending && <p className="muted">Loading presets…</p>}
      {presets.isError && <QueryError error={presets.error} onRetry={() => void presets.refetch()} what="the presets" />}
      {presets.data && (
        <PresetTable presets={presets.data.data} canManage={canManage} onEdit={(preset) => setEditing({ preset })} onDelete={remove.ask} />
      )}
      {presets.data && own.length === 0 && (
        <p className="muted">{canManage ? 'No presets of your own yet: add one for each size your sites, decks and feeds use.' : 'No presets of your own yet.'}</p>
      )}
      {editing && <PresetDialog preset={editing.preset} onSaved={() => void refresh()} onClose={() => setEditing(null)} />}
      <ConfirmDialog title="Delete this preset?" confirmLabel="Delete preset" {...remove.dialog}>
        <p>
          Asset records stop linking <strong>{remove.asked?.name}</strong> at once; links handed out before keep working until they expire.
        </p>
      </ConfirmDialog>
    </section>
  )
}

function PresetTable(props: { presets: Preset[]; canManage: boolean; onEdit(preset: Preset): void; onDelete(preset: Preset): void }) {
  const { presets, canManage, onEdit, onDelete } = props
  return (
    <Table columns={['Name', 'Size', 'Fit', 'Format', 'Quality', 'Background', { label: 'Actions', hidden: true }]} caption="Rendition presets" stacked>
      {presets.map((preset) => (
        <tr key={preset.name}>
          <td className="strong">
            <code>{preset.name}</code> {preset.built_in && <span className="badge">Built in</span>}
          </td>
          <td className="nowrap">{presetSize(preset)}</td>
          <td>{preset.width === null && preset.height === null ? '—' : preset.fit}</td>
          <td>{preset.format === null ? 'As uploaded' : FORMATS[preset.format]}</td>
          <td>{preset.quality ?? '—'}</td>
          <td>{backgroundOf(preset)}</td>
          <td className="actions-cell">
            {canManage && !preset.built_in && (
              <>
                <button type="button" className="small" onClick={() => onEdit(preset)} aria-label={`Edit ${preset.name}`}>
                  Edit
                </button>
                <button type="button" className="danger small" onClick={() => onDelete(preset)} aria-label={`Delete ${preset.name}`}>
                  Delete
                </button>
              </>
            )}
          </td>
        </tr>
      ))}
    </Table>
  )
}

/** The form of a new preset (`preset` null) or of a change to one (its name stays: a rename is a new preset). */
function PresetDialog({ preset, onSaved, onClose }: { preset: Preset | null; onSaved(): void; onClose(): void }) {
  const org = useOrg()
  const toast = useToast()
  const [draft, setDraft] = useState<Draft>(preset ? draftOf(preset) : NEW_PRESET)
  const set = (changes: Partial<Draft>) => setDraft({ ...draft, ...changes })
  const save = useMutation({
    mutationFn: () => {
      const body = paramsOf(draft)
      return unwrap(
        preset
          ? appApi.PUT('/app/api/orgs/{org}/presets/{name}', { params: { path: { org, name: preset.name } }, body })
          : appApi.POST('/app/api/orgs/{org}/presets', { params: { path: { org } }, body: { name: draft.name.trim(), ...body } }),
      )
    },
    onSuccess: (saved) => {
      toast.success(`The preset “${saved.name}” is saved: ${presetSize(saved)}, ${FORMATS[saved.format!]}.`)
      onSaved()
      onClose()
    },
    gcTime: 0,
    meta: { quiet: true },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    save.mutate()
  }
  const lossless = draft.format === 'png'
  return (
    <Dialog title={preset ? `Edit ${preset.name}` : 'New preset'} open onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <label className="field">
          <span>Name</span>
          <input
            required
            maxLength={40}
            pattern={NAME_PATTERN}
            placeholder="e.g. web-1200"
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
            disabled={preset !== null}
            aria-describedby="preset-name-hint"
            spellCheck={false}
            autoComplete="off"
            data-autofocus={preset === null ? true : undefined}
          />
          <small id="preset-name-hint">{preset ? 'To rename a preset, add one under the new name and delete this one.' : 'Lower-case letters, digits and hyphens; it goes into URLs as it is.'}</small>
        </label>
        <div className="form-grid preset-fields">
          <label className="field">
            <span>Width</span>
            <input type="number" min={1} max={MAX_SIDE} step={1} inputMode="numeric" placeholder="Auto" value={draft.width} onChange={(e) => set({ width: e.target.value })} data-autofocus={preset ? true : undefined} />
          </label>
          <label className="field">
            <span>Height</span>
            <input type="number" min={1} max={MAX_SIDE} step={1} inputMode="numeric" placeholder="Auto" value={draft.height} onChange={(e) => set({ height: e.target.value })} />
          </label>
        </div>
        <label className="field">
          <span>Fit</span>
          <select value={draft.fit} onChange={(e) => set({ fit: e.target.value as Fit })} aria-describedby="preset-fit-hint">
            {Object.entries(FITS).map(([fit, label]) => (
              <option key={fit} value={fit}>
                {label}
              </option>
            ))}
          </select>
          <small id="preset-fit-hint">With one side given, the other follows the image’s proportions; with neither, the image keeps its size.</small>
        </label>
        <div className="form-grid preset-fields">
          <label className="field">
            <span>Format</span>
            <select value={draft.format} onChange={(e) => set({ format: e.target.value as Format })}>
              {Object.entries(FORMATS).map(([format, label]) => (
                <option key={format} value={format}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Quality</span>
            <input
              type="number"
              min={20}
              max={100}
              step={1}
              inputMode="numeric"
              placeholder={lossless ? 'Lossless' : '80'}
              value={lossless ? '' : draft.quality}
              onChange={(e) => set({ quality: e.target.value })}
              disabled={lossless}
            />
          </label>
          <label className="field">
            <span>Background</span>
            <input
              pattern={BACKGROUND_PATTERN}
              maxLength={9}
              placeholder={draft.format === 'jpeg' ? 'White' : 'Transparent'}
              value={draft.background}
              onChange={(e) => set({ background: e.target.value })}
              aria-describedby="preset-background-hint"
              spellCheck={false}
              autoComplete="off"
            />
          </label>
        </div>
        <small id="preset-background-hint" className="hint">
          Background: the padding’s colour as <code>#rrggbb</code> or <code>#rrggbbaa</code>, for <em>contain</em>.
        </small>
        <FormError error={save.error} />
        <div className="row end">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={save.isPending || (!preset && !draft.name.trim())}>
            {preset ? 'Save preset' : 'Add preset'}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
