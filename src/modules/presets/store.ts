import { sql, type Selectable } from 'kysely'
import type { Db } from '../../platform/db/index.js'
import type { RenditionPresetsTable } from '../../platform/db/schema.js'
import type { RenditionSpec } from '../renditions/spec.js'

export type PresetRow = Selectable<RenditionPresetsTable>

const PRIMARY_KEY = 'rendition_presets_pkey'

/** The organization's presets, by name in code-unit order: the same on every database, whatever its collation. */
export function listPresets(db: Db, organizationId: string): Promise<PresetRow[]> {
  return db.selectFrom('rendition_presets').selectAll().where('organization_id', '=', organizationId).orderBy(sql`name collate "C"`).execute()
}

/**
 * How many presets the organization has, its row locked first so that concurrent creations are counted
 * one after the other and none passes the cap.
 */
export async function lockedPresetCount(tx: Db, organizationId: string): Promise<number> {
  await tx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute()
  const row = await tx
    .selectFrom('rendition_presets')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The new preset, or null when the organization has one of this name already. */
export async function insertPreset(tx: Db, organizationId: string, name: string, spec: RenditionSpec): Promise<PresetRow | null> {
  const row = await tx
    .insertInto('rendition_presets')
    .values({ organization_id: organizationId, name, ...spec })
    .onConflict((oc) => oc.constraint(PRIMARY_KEY).doNothing())
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

/** The preset with its parameters replaced, or null when there is none of this name. */
export async function replacePreset(db: Db, organizationId: string, name: string, spec: RenditionSpec): Promise<PresetRow | null> {
  const row = await db
    .updateTable('rendition_presets')
    .set({ ...spec, updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .returningAll()
    .executeTakeFirst()
  return row ?? null
}

export async function deletePreset(db: Db, organizationId: string, name: string): Promise<boolean> {
  const result = await db.deleteFrom('rendition_presets').where('organization_id', '=', organizationId).where('name', '=', name).executeTakeFirst()
  return result.numDeletedRows > 0n
}
