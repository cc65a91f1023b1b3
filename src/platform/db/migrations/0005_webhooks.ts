import { sql, type Kysely } from 'kysely'

/**
 * Outbound webhooks: subscriptions, one delivery per (event, subscription) with its exact body, and the
 * history of attempts. The outbox becomes a queue of its own (claims.ts columns): an event is due for
 * fan-out from its commit until a dispatcher has made its deliveries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- json keeps the payload's text as written (jsonb reorders keys), so it goes into bodies unchanged.
    alter table outbox_events alter column payload type json using payload::json;
    alter table outbox_events
      add column next_attempt_at timestamptz default now(),
      add column attempts integer not null default 0,
      add column locked_by text,
      add column locked_until timestamptz,
      add column last_error text;
    create index outbox_events_due_idx on outbox_events (next_attempt_at) where next_attempt_at is not null;

    -- Wakes runners of other processes when new rows commit (never for a rollback); the channel is
    -- the trigger's argument.
    create function notify_channel() returns trigger language plpgsql as $$
    begin
      perform pg_notify(tg_argv[0], '');
      return null;
    end $$;
    create trigger outbox_events_notify after insert on outbox_events
      for each statement execute function notify_channel('outbox_events');

    create table webhook_subscriptions (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      url text not null,
      description text not null default '',
      events text[] not null,
      enabled boolean not null default true,
      -- Signing secrets, sealed with a key derived from APP_SECRET (AES-256-GCM).
      secret text not null,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index webhook_subscriptions_org_idx on webhook_subscriptions (organization_id, created_at);

    create table webhook_deliveries (
      id uuid primary key,
      organization_id uuid not null references organizations(id) on delete cascade,
      subscription_id uuid not null references webhook_subscriptions(id) on delete cascade,
      event_id uuid,
      event text not null,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      -- What started the current series of attempts: automatic, replay or ping.
      series_trigger text not null default 'automatic',
      attempt_count integer not null default 0,
      last_status_code integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      next_attempt_at timestamptz default now(),
      attempts integer not null default 0,
      locked_by text,
      locked_until timestamptz,
      last_error text
    );
    -- A dispatcher that fans an event out again after its lease ran out makes no second delivery.
    create unique index webhook_deliveries_event_idx on webhook_deliveries (subscription_id, event_id);
    create index webhook_deliveries_history_idx on webhook_deliveries (subscription_id, created_at desc, id desc);
    -- Claims look for each subscription's due deliveries (store.ts claimDeliveries).
    create index webhook_deliveries_due_idx on webhook_deliveries (subscription_id, next_attempt_at) where next_attempt_at is not null;
    create index webhook_deliveries_created_idx on webhook_deliveries (created_at);

    create trigger webhook_deliveries_notify after insert on webhook_deliveries
      for each statement execute function notify_channel('webhook_deliveries');

    create table webhook_attempts (
      delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
      number integer not null,
      attempted_at timestamptz not null,
      trigger text not null,
      status_code integer not null,
      error text,
      duration_ms integer not null,
      response_body text not null default '',
      primary key (delivery_id, number)
    );
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table webhook_attempts, webhook_deliveries, webhook_subscriptions;
    drop trigger outbox_events_notify on outbox_events;
    drop function notify_channel;
    drop index outbox_events_due_idx;
    alter table outbox_events drop column next_attempt_at, drop column attempts, drop column locked_by,
      drop column locked_until, drop column last_error;
    alter table outbox_events alter column payload type jsonb using payload::jsonb;
  `.execute(db)
}
