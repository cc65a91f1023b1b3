import { sql, type Kysely } from 'kysely'

/**
 * What a push and a list page cost must not grow with the library:
 * - The organization keeps its plan usage as counters, which triggers on `assets` keep exact in the
 *   statement that inserts or deletes (a statement trigger with transition tables, so a bulk change
 *   updates the organization once). The plan check reads two columns instead of a count over the library.
 * - An asset keeps its tags on its row: `tags` as spelled in the catalogue (sorted case-insensitively, as
 *   the API shows them) and `tag_keys` lower-cased, which `tag=` matches through a GIN index, with the
 *   planner's element statistics. The catalogue (`tags`) still holds every name and its spelling; the
 *   `asset_tags` link table goes, so a push writes its tags with the row. Each catalogue tag keeps how
 *   many assets carry it, kept by triggers too: `tag=` alone has its total, and GET /tags its counts,
 *   without counting the library.
 * - Embedding texts that become due wake other processes by trigger, so the statement that queues one
 *   can be a clause of a larger statement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table organizations add column asset_count integer not null default 0, add column byte_count bigint not null default 0;
    update organizations set asset_count = used.assets, byte_count = used.bytes
      from (select organization_id, count(*) as assets, sum(byte_size) as bytes from assets group by organization_id) as used
      where used.organization_id = organizations.id;

    create function count_added_assets() returns trigger language plpgsql as $$
    begin
      update organizations set asset_count = asset_count + added.assets, byte_count = byte_count + added.bytes
        from (select organization_id, count(*) as assets, sum(byte_size) as bytes from added_assets group by organization_id) as added
        where added.organization_id = organizations.id;
      return null;
    end $$;
    create function count_removed_assets() returns trigger language plpgsql as $$
    begin
      update organizations set asset_count = asset_count - removed.assets, byte_count = byte_count - removed.bytes
        from (select organization_id, count(*) as assets, sum(byte_size) as bytes from removed_assets group by organization_id) as removed
        where removed.organization_id = organizations.id;
      return null;
    end $$;
    create trigger assets_counted_in after insert on assets referencing new table as added_assets
      for each statement execute function count_added_assets();
    create trigger assets_counted_out after delete on assets referencing old table as removed_assets
      for each statement execute function count_removed_assets();

    alter table assets add column tags text[] not null default '{}', add column tag_keys text[] not null default '{}';
    update assets set tags = linked.names, tag_keys = linked.keys
      from (
        select asset_tags.asset_id, array_agg(tags.name order by lower(tags.name) collate "C") as names, array_agg(lower(tags.name) order by lower(tags.name) collate "C") as keys
        from asset_tags join tags on tags.id = asset_tags.tag_id group by asset_tags.asset_id
      ) as linked
      where linked.asset_id = assets.id;
    create index assets_tag_keys_idx on assets using gin (tag_keys);
    drop table asset_tags;

    alter table tags add column asset_count integer not null default 0;
    update tags set asset_count = used.assets
      from (select organization_id, key, count(*) as assets from assets cross join unnest(assets.tag_keys) as key group by organization_id, key) as used
      where used.organization_id = tags.organization_id and used.key = lower(tags.name);
    -- Adds to each tag's count. The rows are locked in one order (organization, name) before the update,
    -- so statements that change overlapping tags wait for each other instead of deadlocking (the
    -- application never locks an existing tag itself).
    create function add_to_tag_counts(changes jsonb) returns void language sql as $$
      with changed as (
        select (change ->> 'organization_id')::uuid as organization_id, change ->> 'key' as key, (change ->> 'assets')::int as assets
        from jsonb_array_elements(changes) as change
      ),
      locked as (
        select tags.id, changed.assets from tags join changed on changed.organization_id = tags.organization_id and changed.key = lower(tags.name)
        order by tags.organization_id, lower(tags.name) collate "C" for no key update of tags
      )
      update tags set asset_count = tags.asset_count + locked.assets from locked where tags.id = locked.id
    $$;
    create function count_tagged_assets() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform add_to_tag_counts((select jsonb_agg(changed) from (
          select organization_id, key, count(*) as assets from added_assets cross join unnest(tag_keys) as key group by organization_id, key) as changed));
      elsif tg_op = 'DELETE' then
        perform add_to_tag_counts((select jsonb_agg(changed) from (
          select organization_id, key, -count(*) as assets from removed_assets cross join unnest(tag_keys) as key group by organization_id, key) as changed));
      else
        perform add_to_tag_counts((select jsonb_agg(changed) from (
          select organization_id, key, sum(delta) as assets from (
            select organization_id, key, -1 as delta from assets_before cross join unnest(tag_keys) as key
            union all
            select organization_id, key, 1 as delta from assets_after cross join unnest(tag_keys) as key
          ) as deltas group by organization_id, key having sum(delta) <> 0) as changed));
      end if;
      return null;
    end $$;
    create trigger assets_tags_counted_in after insert on assets referencing new table as added_assets
      for each statement execute function count_tagged_assets();
    create trigger assets_tags_counted_out after delete on assets referencing old table as removed_assets
      for each statement execute function count_tagged_assets();
    create trigger assets_tags_counted_again after update on assets referencing old table as assets_before new table as assets_after
      for each statement execute function count_tagged_assets();

    create trigger asset_embeddings_notify after insert or update of next_attempt_at on asset_embeddings
      for each row when (new.next_attempt_at is not null and new.next_attempt_at <= now())
      execute function notify_channel('asset_library_embeddings');
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger asset_embeddings_notify on asset_embeddings;
    drop trigger assets_tags_counted_in on assets;
    drop trigger assets_tags_counted_out on assets;
    drop trigger assets_tags_counted_again on assets;
    drop function count_tagged_assets, add_to_tag_counts;
    alter table tags drop column asset_count;
    create table asset_tags (
      asset_id uuid not null references assets(id) on delete cascade,
      tag_id uuid not null references tags(id) on delete cascade,
      primary key (asset_id, tag_id)
    );
    create index asset_tags_tag_idx on asset_tags (tag_id);
    insert into asset_tags (asset_id, tag_id)
      select assets.id, tags.id from assets cross join unnest(assets.tag_keys) as key
      join tags on tags.organization_id = assets.organization_id and lower(tags.name) = key;
    drop index assets_tag_keys_idx;
    alter table assets drop column tags, drop column tag_keys;
    drop trigger assets_counted_in on assets;
    drop trigger assets_counted_out on assets;
    drop function count_added_assets, count_removed_assets;
    alter table organizations drop column asset_count, drop column byte_count;
  `.execute(db)
}
