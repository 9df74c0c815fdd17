-- Issue 18 point 1 (docs/decisions-18-kjgc.md, "Issue 18 follow-up"). The agency a factory user acts for
-- is the session's choice (sessions.kjgc_dls_id), checked against the live bindings at every request; null
-- means the factory's default. Two factory users, each signed in, may act for different agencies.
ALTER TABLE "sessions" ADD COLUMN "kjgc_dls_id" integer;
--> statement-breakpoint
-- A factory session sees only the clients handed over to it, on every client-owned table and not only on
-- enterprises: a contract, a charge or a filing row is read by its own id or agency without a join to
-- enterprises. Every table with an enterprise_id column (but the handovers themselves) gets a restrictive
-- policy; `(select app_kjgc())` is evaluated once per query, so an agency's session pays one test.
DO $$
DECLARE t text;
BEGIN
  FOR t IN
    SELECT c.relname FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'enterprise_id' AND NOT a.attisdropped
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> 'kjgc_handovers'
    ORDER BY c.relname
  LOOP
    EXECUTE format(
      'CREATE POLICY %I ON %I AS RESTRICTIVE FOR ALL TO "dzy_app" USING (%s) WITH CHECK (%s)',
      t || '_kjgc_handover', t,
      format('(select app_kjgc()) is null or exists (select 1 from "kjgc_handovers" h where h."enterprise_id" = %I."enterprise_id" and h."kjgc_id" = (select app_kjgc()))', t),
      format('(select app_kjgc()) is null or exists (select 1 from "kjgc_handovers" h where h."enterprise_id" = %I."enterprise_id" and h."kjgc_id" = (select app_kjgc()))', t)
    );
  END LOOP;
END $$;
--> statement-breakpoint
-- Rows keyed by a client-owned parent (a contract's lines, a book's vouchers and accounts, ...): visible to a
-- factory when the parent is, which the parent's own policy decides (policies' subqueries are under RLS).
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT * FROM (VALUES
    ('contract_lines', 'contract_id', 'contracts'),
    ('invoice_lines', 'invoice_id', 'invoices'),
    ('book_accounts', 'book_id', 'books'),
    ('book_aux_items', 'book_id', 'books'),
    ('book_balances', 'book_id', 'books'),
    ('book_closes', 'book_id', 'books'),
    ('book_openings', 'book_id', 'books'),
    ('book_run_clients', 'book_id', 'books'),
    ('vouchers', 'book_id', 'books'),
    ('voucher_lines', 'voucher_id', 'vouchers'),
    ('opportunity_followups', 'opportunity_id', 'opportunities'),
    ('opportunity_transfers', 'opportunity_id', 'opportunities'),
    ('work_order_steps', 'work_order_id', 'work_orders'),
    ('work_order_attachments', 'work_order_id', 'work_orders')
  ) AS v(child, fk, parent)
  LOOP
    EXECUTE format(
      'CREATE POLICY %I ON %I AS RESTRICTIVE FOR ALL TO "dzy_app" USING (%s) WITH CHECK (%s)',
      r.child || '_kjgc_handover', r.child,
      format('(select app_kjgc()) is null or exists (select 1 from %I p where p."id" = %I.%I)', r.parent, r.child, r.fk),
      format('(select app_kjgc()) is null or exists (select 1 from %I p where p."id" = %I.%I)', r.parent, r.child, r.fk)
    );
  END LOOP;
END $$;
