import { sql, type Kysely } from 'kysely'

/**
 * Who created an asset or a collection through the web app's session: a member may delete only their
 * own. Null for rows made with an API key, and for every row made before this migration (the creator
 * was not recorded); only owners and admins delete those through the web app.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table assets add column created_by uuid references users(id) on delete set null;
    alter table collections add column created_by uuid references users(id) on delete set null;
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table collections drop column created_by;
    alter table assets drop column created_by;
  `.execute(db)
}
