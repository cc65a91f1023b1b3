import { sql, type Kysely } from 'kysely'

/**
 * The thumbnail queue wakes runners as the other queues do, instead of being polled every 5 s (issue 32):
 * - a job that commits due (a push's, or one made due again by a retry) notifies
 *   `asset_library_thumbnails`, so a worker process claims it at once;
 * - the assets whose image failed to decode are counted per organization for the operator's and the
 *   owners' view of the queues, through a partial index that holds only them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create trigger thumbnail_jobs_notify after insert or update of next_attempt_at on thumbnail_jobs
      for each row when (new.next_attempt_at <= now())
      execute function notify_channel('asset_library_thumbnails');
    create index assets_thumbnail_failed on assets (organization_id) where thumbnail_failure is not null;
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index assets_thumbnail_failed;
    drop trigger thumbnail_jobs_notify on thumbnail_jobs;
  `.execute(db)
}
