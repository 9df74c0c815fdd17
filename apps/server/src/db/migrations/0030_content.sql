-- Issue 17: 财税课堂 content (videos, lectures, news) published by the platform operator. Platform-wide (no
-- agency_id): every signed-in user reads published items, only a platform operator reads unpublished ones and
-- writes. Views are counted once per user, item and China day; a user's last position is kept per item.
CREATE TABLE "content_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "content_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"category" text NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'none' NOT NULL,
	"video_file" text DEFAULT '' NOT NULL,
	"video_url" text DEFAULT '' NOT NULL,
	"cover_file" text DEFAULT '' NOT NULL,
	"duration_sec" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"watch_count" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "content_items" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "content_views" (
	"content_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "content_views_content_id_user_id_day_pk" PRIMARY KEY("content_id","user_id","day")
);
--> statement-breakpoint
ALTER TABLE "content_views" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "content_progress" (
	"content_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"position_sec" integer DEFAULT 0 NOT NULL,
	"duration_sec" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_progress_user_id_content_id_pk" PRIMARY KEY("user_id","content_id")
);
--> statement-breakpoint
ALTER TABLE "content_progress" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "content_items" ADD CONSTRAINT "content_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "content_views" ADD CONSTRAINT "content_views_content_id_content_items_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "content_views" ADD CONSTRAINT "content_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "content_progress" ADD CONSTRAINT "content_progress_content_id_content_items_id_fk" FOREIGN KEY ("content_id") REFERENCES "public"."content_items"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "content_progress" ADD CONSTRAINT "content_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "content_items_order_idx" ON "content_items" ("sort_order", "id");
--> statement-breakpoint
CREATE INDEX "content_items_kind_order_idx" ON "content_items" ("kind", "sort_order", "id");
--> statement-breakpoint
CREATE POLICY "content_items_read" ON "content_items" AS PERMISSIVE FOR SELECT TO "dzy_app" USING (app_user() is not null and ("content_items"."published" or exists (select 1 from users u where u.id = app_user() and u.is_operator)));
--> statement-breakpoint
CREATE POLICY "content_items_insert" ON "content_items" AS PERMISSIVE FOR INSERT TO "dzy_app" WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "content_items_update" ON "content_items" AS PERMISSIVE FOR UPDATE TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator)) WITH CHECK (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "content_items_delete" ON "content_items" AS PERMISSIVE FOR DELETE TO "dzy_app" USING (exists (select 1 from users u where u.id = app_user() and u.is_operator));
--> statement-breakpoint
CREATE POLICY "content_views_own" ON "content_views" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("content_views"."user_id" = app_user()) WITH CHECK ("content_views"."user_id" = app_user());
--> statement-breakpoint
CREATE POLICY "content_progress_own" ON "content_progress" AS PERMISSIVE FOR ALL TO "dzy_app" USING ("content_progress"."user_id" = app_user()) WITH CHECK ("content_progress"."user_id" = app_user());
--> statement-breakpoint
-- A reader's view: counted once per (item, user, day) for a published item; the count is bumped here, the one
-- write to content_items a non-operator can cause. Returns the count and whether this call added to it.
CREATE OR REPLACE FUNCTION content_count_view(p_content integer, p_day date)
RETURNS TABLE (watch_count integer, counted boolean) LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public
AS $$
  WITH ins AS (
    INSERT INTO content_views (content_id, user_id, day)
    SELECT c.id, app_user(), p_day FROM content_items c
    WHERE c.id = p_content AND c.published AND app_user() IS NOT NULL
    ON CONFLICT DO NOTHING
    RETURNING content_id
  ), upd AS (
    UPDATE content_items SET watch_count = content_items.watch_count + 1
    WHERE content_items.id = p_content AND EXISTS (SELECT 1 FROM ins)
    RETURNING content_items.watch_count
  )
  SELECT coalesce((SELECT u.watch_count FROM upd u), (SELECT c.watch_count FROM content_items c WHERE c.id = p_content AND c.published)),
         EXISTS (SELECT 1 FROM upd)
$$;
