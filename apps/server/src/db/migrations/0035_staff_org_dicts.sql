-- 0035_staff_org_dicts (issue 19 points 3, 7, 8): dictionaries as data and the AI knowledge addresses
-- (platform-wide: every signed-in user reads, only a platform operator writes), who sees full phone numbers
-- per agency, and the agency's AI knowledge whitelist. The dictionaries are seeded from DICT_SEED
-- (packages/shared/src/dicts.ts); apps/server/test/dicts.test.ts checks the two agree.
CREATE TABLE "dict_data" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dict_data_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"dict_type" text NOT NULL,
	"type_name" text NOT NULL,
	"code" text NOT NULL,
	"label" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dict_data" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE UNIQUE INDEX "dict_data_type_code_uq" ON "dict_data" ("dict_type", "code");
--> statement-breakpoint
CREATE INDEX "dict_data_type_sort_idx" ON "dict_data" ("dict_type", "sort", "id");
--> statement-breakpoint
CREATE POLICY "dict_data_read" ON "dict_data" AS PERMISSIVE FOR SELECT TO "dzy_app" USING (app_user() is not null);
--> statement-breakpoint
CREATE POLICY "dict_data_insert" ON "dict_data" AS PERMISSIVE FOR INSERT TO "dzy_app" WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "dict_data_update" ON "dict_data" AS PERMISSIVE FOR UPDATE TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator)) WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "dict_data_delete" ON "dict_data" AS PERMISSIVE FOR DELETE TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE TABLE "aq_urls" (
	"region_code" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "aq_urls" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "aq_urls" ADD CONSTRAINT "aq_urls_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE POLICY "aq_urls_read" ON "aq_urls" AS PERMISSIVE FOR SELECT TO "dzy_app" USING (app_user() is not null);
--> statement-breakpoint
CREATE POLICY "aq_urls_insert" ON "aq_urls" AS PERMISSIVE FOR INSERT TO "dzy_app" WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "aq_urls_update" ON "aq_urls" AS PERMISSIVE FOR UPDATE TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator)) WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "aq_urls_delete" ON "aq_urls" AS PERMISSIVE FOR DELETE TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE TABLE "phone_settings" (
	"agency_id" integer PRIMARY KEY NOT NULL,
	"staff_phone" text DEFAULT 'admin' NOT NULL,
	"client_phone" text DEFAULT 'all' NOT NULL,
	"user_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_settings" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "phone_settings" ADD CONSTRAINT "phone_settings_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE POLICY "phone_settings_tenant" ON "phone_settings" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("phone_settings"."agency_id" = app_agency()) WITH CHECK ("phone_settings"."agency_id" = app_agency());
--> statement-breakpoint
CREATE TABLE "ai_whitelist" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ai_whitelist_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agency_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"phone" text NOT NULL,
	"order_no" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_whitelist" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "ai_whitelist" ADD CONSTRAINT "ai_whitelist_agency_id_organisations_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."organisations"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ai_whitelist" ADD CONSTRAINT "ai_whitelist_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "ai_whitelist_agency_user_uq" ON "ai_whitelist" ("agency_id", "user_id");
--> statement-breakpoint
CREATE POLICY "ai_whitelist_tenant" ON "ai_whitelist" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("ai_whitelist"."agency_id" = app_agency()) WITH CHECK ("ai_whitelist"."agency_id" = app_agency());
--> statement-breakpoint
INSERT INTO "dict_data" ("dict_type", "type_name", "code", "label", "sort") VALUES
('agency_scale', '机构规模', '1', '20人以下', 10),
('agency_scale', '机构规模', '2', '20-99人', 20),
('agency_scale', '机构规模', '3', '100-299人', 30),
('agency_scale', '机构规模', '4', '300-499人', 40),
('agency_scale', '机构规模', '5', '500人以上', 50),
('taxpayer_kind', '纳税人类型', '0', '一般纳税人', 10),
('taxpayer_kind', '纳税人类型', '1', '小规模纳税人', 20),
('sfbm', '办税身份', '1', '办税员', 10),
('sfbm', '办税身份', '2', '法定代表人', 20),
('sfbm', '办税身份', '3', '财务负责人', 30),
('sfbm', '办税身份', '6', '购票员', 40),
('sfbm', '办税身份', '97', '代理人（代理登录）', 50),
('hydj', '会员等级', '1', '基础会员', 10),
('hydj', '会员等级', '2', '金税会员', 20),
('hydj', '会员等级', '3', '金税会员（小规模）', 30),
('hydj', '会员等级', '8', '高级会员', 40),
('hydj', '会员等级', '41', '金税会员（试用）', 50),
('htzt', '合同状态', '0', '已删除', 10),
('htzt', '合同状态', '1', '待提交', 20),
('htzt', '合同状态', '2', '执行中', 30),
('htzt', '合同状态', '3', '已终止', 40),
('filing_tax_type', '申报税种', 'zzs', '增值税及附加税费', 10),
('filing_tax_type', '申报税种', 'qysds', '企业所得税月(季)度预缴', 20),
('filing_tax_type', '申报税种', 'grsds', '个人所得税扣缴', 30),
('filing_tax_type', '申报税种', 'cwbb', '财务报表', 40),
('filing_tax_type', '申报税种', 'yhs', '财产和行为税（印花税）', 50),
('filing_tax_type', '申报税种', 'qysdsnd', '企业所得税年度汇算', 60),
('filing_tax_type', '申报税种', 'gsnb', '工商年报', 70),
('filing_tax_type', '申报税种', 'cbj', '残保金', 80),
('org_type', '机构类型', 'dls', '代理机构', 10),
('org_type', '机构类型', 'kd', '会计工厂代理机构', 20),
('org_type', '机构类型', 'kjgc', '会计工厂', 30),
('whitelist_type', '白名单类型', 'lbsjc', '列表数据检查', 10),
('whitelist_type', '白名单类型', 'dljghdkjgcmenu', '代理机构会计工厂菜单', 20),
('whitelist_type', '白名单类型', 'wsbsdt', '网上办税大厅', 30),
('whitelist_type', '白名单类型', 'kxdlmmjy', '可信登录密码校验', 40),
('tyyygl', '通用应用管理', 'wxwork', '企业微信', 10),
('tyyygl', '通用应用管理', 'managModule', '管理', 20),
('tyyygl', '通用应用管理', 'boss', '服务', 30),
('tyyygl', '通用应用管理', 'moreModuleCloudInvoice', '发票', 40),
('tyyygl', '通用应用管理', 'czc', '财税存储', 50),
('tyyygl', '通用应用管理', 'ai', 'AI 咨询', 60);
