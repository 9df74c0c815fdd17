CREATE TABLE "equity_menus" (
	"menuid" integer PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"iscontrol" text DEFAULT 'N' NOT NULL,
	"anqyflag" text DEFAULT 'Y' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "qyzt" text DEFAULT '1' NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "sfgxbzts" text DEFAULT '0' NOT NULL;