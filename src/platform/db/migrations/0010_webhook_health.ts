import { sql, type Kysely } from 'kysely'

/**
 * Webhook health: a subscription remembers since when every attempt has failed, and is disabled
 * automatically (with when and why) once that has lasted WEBHOOK_DISABLE_AFTER_MS. A delivery remembers
 * when its current attempt started, so that an attempt whose runner died or was cut off mid-send is
 * recorded as `interrupted` by the runner that takes the delivery over (store.ts claimDeliveries).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table webhook_subscriptions
      add column failing_since timestamptz,
      add column disabled_at timestamptz,
      add column disabled_reason text;
    alter table webhook_deliveries add column attempt_started_at timestamptz;
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table webhook_deliveries drop column attempt_started_at;
    alter table webhook_subscriptions drop column failing_since, drop column disabled_at, drop column disabled_reason;
  `.execute(db)
}
