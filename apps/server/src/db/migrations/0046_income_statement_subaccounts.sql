-- 0046_income_statement_subaccounts (issue 28 point 8): the 利润表 (会小企02, 小企业会计准则 财会〔2011〕17号 附录) reads
-- its 其中 lines 4-10, 12-13, 15-17, 23 and 25-29 from sub-accounts by name (statement-lines.ts). The preset chart
-- (apps/server/src/modules/books/charts.ts) now has them; this adds the same sub-accounts to every existing book:
-- 税金及附加 (5403 小企业 / 6403 企业) by tax, 5711 营业外支出 and 5301 营业外收入 (小企业), 商品维修费 under 销售费用,
-- 开办费 and 研究费用 under 管理费用. A code the book already uses is left as it is. Where 税金及附加 / 营业外支出 /
-- 营业外收入 had no sub-accounts and held lines, balances or openings, these move to the new "99 其他" (as adding a
-- sub-account in the 科目 page moves a leaf's data to its first child), so no figure changes; the 计提附加税 of the
-- open periods, remade, posts each tax to its own sub-account. Expense sub-accounts under a 销售费用/管理费用 that
-- is itself a leaf are not added (its data would have nowhere right to go).
-- One statement: every data-modifying CTE runs once and sees the same snapshot (the accounts as they were); the new
-- accounts' ids come from the INSERT's RETURNING.
WITH "subs" ("std", "parent", "suffix", "name", "holder") AS (
  SELECT s.std, s.parent, t.suffix, t.name, true FROM (VALUES ('small2013', '5403'), ('general', '6403')) AS s(std, parent)
  CROSS JOIN (VALUES
    ('01', '消费税'), ('02', '城市维护建设税'), ('03', '资源税'), ('04', '土地增值税'), ('05', '城镇土地使用税'),
    ('06', '房产税'), ('07', '车船税'), ('08', '印花税'), ('09', '教育费附加'), ('10', '地方教育附加'), ('99', '其他')
  ) AS t(suffix, name)
  UNION ALL
  SELECT 'small2013', '5711', t.suffix, t.name, true FROM (VALUES
    ('01', '坏账损失'), ('02', '无法收回的长期债券投资损失'), ('03', '无法收回的长期股权投资损失'),
    ('04', '自然灾害等不可抗力因素造成的损失'), ('05', '税收滞纳金'), ('99', '其他')
  ) AS t(suffix, name)
  UNION ALL
  SELECT 'small2013', '5301', t.suffix, t.name, true FROM (VALUES ('01', '政府补助'), ('99', '其他')) AS t(suffix, name)
  UNION ALL
  SELECT s.std, s.parent, '06', '商品维修费', false FROM (VALUES ('small2013', '5601'), ('general', '6601')) AS s(std, parent)
  UNION ALL
  SELECT s.std, s.parent, t.suffix, t.name, false FROM (VALUES ('small2013', '5602'), ('general', '6602')) AS s(std, parent)
  CROSS JOIN (VALUES ('15', '开办费'), ('16', '研究费用')) AS t(suffix, name)
),
"ins" AS (
  INSERT INTO "book_accounts" ("agency_id", "book_id", "code", "name", "parent_id", "level", "category", "direction", "is_leaf", "enabled", "preset")
  SELECT p."agency_id", p."book_id", p."code" || s."suffix", s."name", p."id", p."level" + 1, p."category", p."direction", true, true, true
  FROM "book_accounts" p
  JOIN "books" b ON b."id" = p."book_id"
  JOIN "subs" s ON s."std" = b."standard" AND s."parent" = p."code"
  WHERE p."level" = 1 AND (s."holder" OR NOT p."is_leaf")
  ON CONFLICT ("book_id", "code") DO NOTHING
  RETURNING "id", "parent_id", "code"
),
-- A parent that was a leaf: its data goes to its new 99 其他.
"moves" AS (
  SELECT p."id" AS "from_id", i."id" AS "to_id"
  FROM "book_accounts" p JOIN "ins" i ON i."parent_id" = p."id" AND i."code" = p."code" || '99'
  WHERE p."is_leaf"
),
"lines" AS (
  UPDATE "voucher_lines" l SET "account_id" = m."to_id" FROM "moves" m WHERE l."account_id" = m."from_id"
),
"balances" AS (
  UPDATE "book_balances" x SET "account_id" = m."to_id" FROM "moves" m WHERE x."account_id" = m."from_id"
),
"openings" AS (
  UPDATE "book_openings" x SET "account_id" = m."to_id" FROM "moves" m WHERE x."account_id" = m."from_id"
)
UPDATE "book_accounts" a SET "is_leaf" = false
WHERE a."is_leaf" AND a."id" IN (SELECT "parent_id" FROM "ins");
