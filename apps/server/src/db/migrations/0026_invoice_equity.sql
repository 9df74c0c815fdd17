-- Issue 15: the benefit entries of the 发票 features (business.md §6), for databases seeded before them (the
-- demo seed writes the same rows, CUSTOMER_EQUITY_MENUS). 开具发票 (also 批量开票), 红冲发票 and 进项勾选确认 are
-- paid (iscontrol 'Y'); 发票采集 is not.
INSERT INTO "equity_menus" ("menuid", "title", "iscontrol", "anqyflag") VALUES
  (2131, '开具发票', 'Y', 'Y'),
  (2132, '红冲发票', 'Y', 'Y'),
  (2133, '进项勾选确认', 'Y', 'Y'),
  (2134, '发票采集', 'N', 'Y')
ON CONFLICT ("menuid") DO NOTHING;
--> statement-breakpoint
-- A client whose plan holds the paid customer feature (停止/恢复服务, 2115) -- every client covered by the agency's
-- places holds every paid entry (quotaCoverage) -- gets the paid 发票 entries too.
UPDATE "enterprises" SET "qylb" = "qylb" || '2131,2132,2133,'
WHERE "qylb" LIKE '%,2115,%' AND "qylb" NOT LIKE '%,2131,%';
