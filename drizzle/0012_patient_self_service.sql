ALTER TABLE "booking" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "refund_owed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "calendar_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "reminder_sent_at" timestamp with time zone;