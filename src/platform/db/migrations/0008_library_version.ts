import { sql, type Kysely, type RawBuilder } from 'kysely'

/**
 * `organizations.library_version` moves whenever anything a list of assets shows may have changed: an
 * asset inserted, updated or deleted, a collection membership added or removed, a collection renamed
 * or deleted. Triggers bump it in the writing transaction, so a reader that sees the new version sees
 * the change too, and a page cached under a version is exactly the page any reader of that version
 * would compute. The application never writes it.
 *
 * Inserts and deletes of assets already update the organization for its counters; the same statement
 * now moves the version. Every trigger is per statement with transition tables, so a bulk change
 * touches each organization once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table organizations add column library_version bigint not null default 0;

    ${counterFunctions(true)}

    create function bump_library_version() returns trigger language plpgsql as $$
    begin
      update organizations set library_version = library_version + 1 where id in (select organization_id from changed_rows);
      return null;
    end $$;
    -- Triggers of one event fire in name order: this one sorts before assets_tags_counted_again, so an
    -- update locks the organization before its tags, in the order a push takes them, and cannot deadlock
    -- with one.
    create trigger assets_library_versioned after update on assets referencing new table as changed_rows
      for each statement execute function bump_library_version();
    create trigger collections_versioned_update after update on collections referencing new table as changed_rows
      for each statement execute function bump_library_version();
    create trigger collections_versioned_delete after delete on collections referencing old table as changed_rows
      for each statement execute function bump_library_version();

    -- A membership names its collection, not its organization.
    create function bump_library_version_of_members() returns trigger language plpgsql as $$
    begin
      update organizations set library_version = library_version + 1
        where id in (select collections.organization_id from collections join changed_members on changed_members.collection_id = collections.id);
      return null;
    end $$;
    create trigger collection_assets_versioned_insert after insert on collection_assets referencing new table as changed_members
      for each statement execute function bump_library_version_of_members();
    create trigger collection_assets_versioned_delete after delete on collection_assets referencing old table as changed_members
      for each statement execute function bump_library_version_of_members();
  `.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger collection_assets_versioned_insert on collection_assets;
    drop trigger collection_assets_versioned_delete on collection_assets;
    drop trigger collections_versioned_update on collections;
    drop trigger collections_versioned_delete on collections;
    drop trigger assets_library_versioned on assets;
    drop function bump_library_version_of_members, bump_library_version;
    ${counterFunctions(false)}
    alter table organizations drop column library_version;
  `.execute(db)
}

/** Migration 0007's counter functions on asset inserts and deletes, moving the version too or (down) not. */
function counterFunctions(movingVersion: boolean): RawBuilder<unknown> {
  const version = movingVersion ? ', library_version = library_version + 1' : ''
  const counter = (name: string, sign: '+' | '-', rows: string) => `
    create or replace function ${name}() returns trigger language plpgsql as $$
    begin
      update organizations set asset_count = asset_count ${sign} changed.assets, byte_count = byte_count ${sign} changed.bytes${version}
        from (select organization_id, count(*) as assets, sum(byte_size) as bytes from ${rows} group by organization_id) as changed
        where changed.organization_id = organizations.id;
      return null;
    end $$;`
  return sql.raw(counter('count_added_assets', '+', 'added_assets') + counter('count_removed_assets', '-', 'removed_assets'))
}
