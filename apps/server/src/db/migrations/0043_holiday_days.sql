-- 0043_holiday_days (issue 28 point 4): the national holiday arrangement as data, one row a day: 'off' (放假,
-- weekends inside a holiday included) or 'work' (调休上班). The statutory filing deadline (税收征收管理法实施细则
-- 第一百零九条) is computed from it for years without a published table. Platform-wide reference data: everyone
-- reads, only a platform operator writes (平台运营 › 节假日安排). Seeded with 2025 (国办发明电〔2024〕12号) and 2026
-- (国务院办公厅 2025-11-04), the same days as HOLIDAY_SEED_DAYS (packages/shared/src/filing-holidays.ts).
CREATE TABLE "holiday_days" (
	"day" text PRIMARY KEY NOT NULL CHECK ("day" ~ '^\d{4}-\d{2}-\d{2}$'),
	"kind" text NOT NULL CHECK ("kind" in ('off', 'work')),
	"name" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "holiday_days" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY "holiday_days_read" ON "holiday_days" AS PERMISSIVE FOR SELECT TO "dzy_app" USING (true);
--> statement-breakpoint
CREATE POLICY "holiday_days_insert" ON "holiday_days" AS PERMISSIVE FOR INSERT TO "dzy_app" WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "holiday_days_update" ON "holiday_days" AS PERMISSIVE FOR UPDATE TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator)) WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "holiday_days_delete" ON "holiday_days" AS PERMISSIVE FOR DELETE TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
INSERT INTO "holiday_days" ("day", "kind", "name") VALUES
('2025-01-01', 'off', '元旦'),
('2025-01-26', 'work', '春节'),
('2025-01-28', 'off', '春节'),
('2025-01-29', 'off', '春节'),
('2025-01-30', 'off', '春节'),
('2025-01-31', 'off', '春节'),
('2025-02-01', 'off', '春节'),
('2025-02-02', 'off', '春节'),
('2025-02-03', 'off', '春节'),
('2025-02-04', 'off', '春节'),
('2025-02-08', 'work', '春节'),
('2025-04-04', 'off', '清明节'),
('2025-04-05', 'off', '清明节'),
('2025-04-06', 'off', '清明节'),
('2025-04-27', 'work', '劳动节'),
('2025-05-01', 'off', '劳动节'),
('2025-05-02', 'off', '劳动节'),
('2025-05-03', 'off', '劳动节'),
('2025-05-04', 'off', '劳动节'),
('2025-05-05', 'off', '劳动节'),
('2025-05-31', 'off', '端午节'),
('2025-06-01', 'off', '端午节'),
('2025-06-02', 'off', '端午节'),
('2025-09-28', 'work', '国庆节、中秋节'),
('2025-10-01', 'off', '国庆节、中秋节'),
('2025-10-02', 'off', '国庆节、中秋节'),
('2025-10-03', 'off', '国庆节、中秋节'),
('2025-10-04', 'off', '国庆节、中秋节'),
('2025-10-05', 'off', '国庆节、中秋节'),
('2025-10-06', 'off', '国庆节、中秋节'),
('2025-10-07', 'off', '国庆节、中秋节'),
('2025-10-08', 'off', '国庆节、中秋节'),
('2025-10-11', 'work', '国庆节、中秋节'),
('2026-01-01', 'off', '元旦'),
('2026-01-02', 'off', '元旦'),
('2026-01-03', 'off', '元旦'),
('2026-01-04', 'work', '元旦'),
('2026-02-14', 'work', '春节'),
('2026-02-15', 'off', '春节'),
('2026-02-16', 'off', '春节'),
('2026-02-17', 'off', '春节'),
('2026-02-18', 'off', '春节'),
('2026-02-19', 'off', '春节'),
('2026-02-20', 'off', '春节'),
('2026-02-21', 'off', '春节'),
('2026-02-22', 'off', '春节'),
('2026-02-23', 'off', '春节'),
('2026-02-28', 'work', '春节'),
('2026-04-04', 'off', '清明节'),
('2026-04-05', 'off', '清明节'),
('2026-04-06', 'off', '清明节'),
('2026-05-01', 'off', '劳动节'),
('2026-05-02', 'off', '劳动节'),
('2026-05-03', 'off', '劳动节'),
('2026-05-04', 'off', '劳动节'),
('2026-05-05', 'off', '劳动节'),
('2026-05-09', 'work', '劳动节'),
('2026-06-19', 'off', '端午节'),
('2026-06-20', 'off', '端午节'),
('2026-06-21', 'off', '端午节'),
('2026-09-20', 'work', '国庆节'),
('2026-09-25', 'off', '中秋节'),
('2026-09-26', 'off', '中秋节'),
('2026-09-27', 'off', '中秋节'),
('2026-10-01', 'off', '国庆节'),
('2026-10-02', 'off', '国庆节'),
('2026-10-03', 'off', '国庆节'),
('2026-10-04', 'off', '国庆节'),
('2026-10-05', 'off', '国庆节'),
('2026-10-06', 'off', '国庆节'),
('2026-10-07', 'off', '国庆节'),
('2026-10-10', 'work', '国庆节');
