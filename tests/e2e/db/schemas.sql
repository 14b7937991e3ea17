-- The schemas of the idconform db end-to-end test (tests/e2e/db.sh): one
-- conforming schema (`good`, which must audit clean) and one schema per
-- check, each with the one defect that check must find and nothing else.
-- fx holds the helpers (no tables: never audited).
CREATE SCHEMA fx;
-- A UUIDv7 from the clock and random bits (PostgreSQL 15 has no uuidv7()).
CREATE FUNCTION fx.v7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT (lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || '7' ||
          substr(md5(random()::text), 1, 3) || '9' || substr(md5(random()::text), 1, 15))::uuid
$$;
-- A UUIDv7 of a given time (ms since the epoch).
CREATE FUNCTION fx.v7_at(ms bigint) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT (lpad(to_hex(ms), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || 'a' ||
          substr(md5(random()::text), 1, 15))::uuid
$$;
-- The name the pg_uuidv7 extension gives its generator: a default of it
-- says the key holds v7 without a declaration.
CREATE FUNCTION fx.uuid_generate_v7() RETURNS uuid LANGUAGE sql VOLATILE AS $$ SELECT fx.v7() $$;
-- A lower-case ULID: 26 Crockford symbols, the first at most 7.
CREATE FUNCTION fx.ulid() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT '0' || string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz', 1 + floor(random() * 32)::int, 1), '')
  FROM generate_series(1, 25)
$$;

-- conforming: uuid keys the application makes (v7), references of the key's
-- type, a detail table with a composite key (R6), a unique viewable id
CREATE SCHEMA good;
CREATE TABLE good.customers (id uuid PRIMARY KEY DEFAULT fx.uuid_generate_v7(), name text, viewable_id text UNIQUE NOT NULL
                             CHECK (viewable_id ~ '^TR-[0-9A-HJKMNP-TV-Z]{7}$'));
CREATE TABLE good.orders (id uuid PRIMARY KEY, customer_id uuid NOT NULL REFERENCES good.customers (id),
                          parent_id uuid REFERENCES good.orders (id), note text,
                          placed_at timestamptz NOT NULL DEFAULT clock_timestamp() - random() * interval '1 day');
CREATE TABLE good.order_lines (order_id uuid REFERENCES good.orders (id), line_no integer, sku text,
                               PRIMARY KEY (order_id, line_no));
INSERT INTO good.customers SELECT fx.v7(), 'c' || i, translate('TR-' || upper(substr(md5(i::text), 1, 7)), 'ILOU', 'JKMN')
  FROM generate_series(1, 50) i;
INSERT INTO good.orders SELECT fx.v7(), (SELECT id FROM good.customers ORDER BY random() + i LIMIT 1), NULL, 'n'
  FROM generate_series(1, 200) i;
INSERT INTO good.order_lines SELECT o.id, l, 'sku' FROM good.orders o, generate_series(1, 3) l;
-- a time read from the clock when the id was made: the id's millisecond,
-- with microseconds of its own (no DATA-ID-005 warning)
CREATE TABLE good.payments (id uuid PRIMARY KEY, paid_at timestamptz NOT NULL);
INSERT INTO good.payments SELECT fx.v7_at(1700000000000 + i * 1000), to_timestamp((1700000000000 + i * 1000) / 1000.0 + 0.000417)
  FROM generate_series(1, 10) i;

-- no failure, one warning: a v4 key table nobody declared v7 is judged by what
-- it holds (one version); its v4 default is said, not failed
CREATE SCHEMA w_v4;
CREATE TABLE w_v4.sessions (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), opened_at timestamptz);
INSERT INTO w_v4.sessions (opened_at) SELECT clock_timestamp() FROM generate_series(1, 20);

-- R1: one table keyed by a sequence among uuid-keyed ones
CREATE SCHEMA d_r1;
CREATE TABLE d_r1.customers (id uuid PRIMARY KEY);
CREATE TABLE d_r1.orders (id uuid PRIMARY KEY);
CREATE TABLE d_r1.invoices (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, total integer);
INSERT INTO d_r1.customers SELECT fx.v7() FROM generate_series(1, 10);
INSERT INTO d_r1.orders SELECT fx.v7() FROM generate_series(1, 10);
INSERT INTO d_r1.invoices (total) SELECT i FROM generate_series(1, 10) i;

-- DATA-ID-001 (key default): the database makes v4 keys where the config declares v7 (the stored ones are v7)
CREATE SCHEMA d_default;
CREATE TABLE d_default.customers (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text);
INSERT INTO d_default.customers SELECT fx.v7(), 'c' FROM generate_series(1, 10);

-- DATA-ID-001 (values): a uuid key whose default makes v7, holding v4 values
CREATE SCHEMA d_v4;
CREATE TABLE d_v4.customers (id uuid PRIMARY KEY DEFAULT fx.uuid_generate_v7(), name text);
INSERT INTO d_v4.customers SELECT gen_random_uuid(), 'c' FROM generate_series(1, 10);

-- DATA-ID-001 (v7 timestamps): keys made in 2100
CREATE SCHEMA d_future;
CREATE TABLE d_future.customers (id uuid PRIMARY KEY);
INSERT INTO d_future.customers SELECT fx.v7() FROM generate_series(1, 10);
INSERT INTO d_future.customers SELECT fx.v7_at(4102444800000 + i) FROM generate_series(1, 2) i;

-- DATA-ID-005 (a warning): a time column that is the key's v7 timestamp on every row
CREATE SCHEMA d_time;
CREATE TABLE d_time.orders (id uuid PRIMARY KEY, created_at timestamptz NOT NULL);
INSERT INTO d_time.orders SELECT fx.v7_at(1700000000000 + i * 1000), to_timestamp((1700000000000 + i * 1000) / 1000.0)
  FROM generate_series(1, 10) i;

-- DATA-ID-003: one column, two versions
CREATE SCHEMA d_mixed;
CREATE TABLE d_mixed.items (id uuid PRIMARY KEY, batch_uuid uuid);
INSERT INTO d_mixed.items SELECT fx.v7(), CASE WHEN i % 3 = 0 THEN gen_random_uuid() ELSE fx.v7() END
  FROM generate_series(1, 30) i;

-- DATA-ID-007: Nil and Max in a reference, '' and '0' in a text id
CREATE SCHEMA d_dummy;
CREATE TABLE d_dummy.things (id uuid PRIMARY KEY, owner_id uuid, code_id text);
INSERT INTO d_dummy.things SELECT fx.v7(), fx.v7(), fx.v7()::text FROM generate_series(1, 10);
INSERT INTO d_dummy.things VALUES (fx.v7(), '00000000-0000-0000-0000-000000000000', ''),
                                  (fx.v7(), 'ffffffff-ffff-ffff-ffff-ffffffffffff', '0'), (fx.v7(), NULL, NULL);

-- DATA-ID-002 (values): a text key in other spellings than the canonical one
CREATE SCHEMA d_spelling;
CREATE TABLE d_spelling.customers (id text PRIMARY KEY);
INSERT INTO d_spelling.customers SELECT fx.v7()::text FROM generate_series(1, 10);
INSERT INTO d_spelling.customers SELECT upper(fx.v7()::text);
INSERT INTO d_spelling.customers SELECT '{' || fx.v7()::text || '}';

-- DATA-ID-002 (reference type): an integer reference to a bigint key
CREATE SCHEMA d_reftype;
CREATE TABLE d_reftype.customers (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY);
CREATE TABLE d_reftype.orders (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                               customer_id integer REFERENCES d_reftype.customers (id));
INSERT INTO d_reftype.customers SELECT FROM generate_series(1, 5);
INSERT INTO d_reftype.orders (customer_id) SELECT 1 + i % 5 FROM generate_series(1, 10) i;

-- DATA-ID-006: the table's own id without a unique constraint (keyed by a natural key, R6), one id twice
CREATE SCHEMA d_unique;
CREATE TABLE d_unique.products (sku text PRIMARY KEY, id uuid NOT NULL);
INSERT INTO d_unique.products SELECT 'sku' || i, fx.v7() FROM generate_series(1, 10) i;
INSERT INTO d_unique.products SELECT 'copy-of-sku1', id FROM d_unique.products WHERE sku = 'sku1';

-- R2 (with tests/e2e/db/ulid.yaml declaring tickets.id a ULID): the database makes the key
CREATE SCHEMA d_r2;
CREATE TABLE d_r2.tickets (id text PRIMARY KEY DEFAULT fx.ulid(), title text);
INSERT INTO d_r2.tickets (id, title) SELECT fx.ulid(), 't' FROM generate_series(1, 10);

-- R4 (with ulid.yaml): upper-case ULIDs
CREATE SCHEMA d_r4;
CREATE TABLE d_r4.tickets (id text PRIMARY KEY, title text);
INSERT INTO d_r4.tickets SELECT fx.ulid(), 't' FROM generate_series(1, 10);
INSERT INTO d_r4.tickets SELECT upper(fx.ulid()), 't' FROM generate_series(1, 2);

-- A table that vanishes during the audit (db.sh drops d_vanish.b while the audit waits for it)
CREATE SCHEMA d_vanish;
CREATE TABLE d_vanish.a (id uuid PRIMARY KEY);
CREATE TABLE d_vanish.b (id uuid PRIMARY KEY);
CREATE TABLE d_vanish.c (id uuid PRIMARY KEY);
INSERT INTO d_vanish.a SELECT fx.v7() FROM generate_series(1, 3);
INSERT INTO d_vanish.b SELECT fx.v7() FROM generate_series(1, 3);
INSERT INTO d_vanish.c SELECT fx.v7() FROM generate_series(1, 3);

-- A column of a type idconform db does not read: said and skipped, nothing fails
CREATE SCHEMA d_type;
CREATE TABLE d_type.things (id uuid PRIMARY KEY, legacy_id numeric);
INSERT INTO d_type.things SELECT fx.v7(), i FROM generate_series(1, 5) i;

-- Roles: `auditor` may SELECT every table of every schema (and nothing else),
-- `limited` only good.customers.
CREATE ROLE auditor LOGIN PASSWORD 'pw-Secret-4417';
CREATE ROLE limited LOGIN PASSWORD 'pw-Limited-9921';
DO $$
DECLARE s text;
BEGIN
  FOR s IN SELECT nspname FROM pg_namespace WHERE nspname = 'good' OR nspname LIKE 'd\_%' OR nspname LIKE 'w\_%' LOOP
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO auditor', s);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO auditor', s);
  END LOOP;
END $$;
GRANT USAGE ON SCHEMA good TO limited;
GRANT SELECT ON good.customers TO limited;
