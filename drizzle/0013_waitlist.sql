CREATE TYPE "public"."waitlist_status" AS ENUM('waiting', 'offered', 'accepted', 'left', 'lapsed');--> statement-breakpoint
CREATE TABLE "waitlist_entry" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"status" "waitlist_status" DEFAULT 'waiting' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"offered_slot_time" text,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"booking_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entry_offer_check" CHECK ("waitlist_entry"."status" <> 'offered' or ("waitlist_entry"."offered_slot_time" is not null and "waitlist_entry"."offer_expires_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entry_one_active_per_person" ON "waitlist_entry" USING btree ("event_id","user_id") WHERE "waitlist_entry"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_entry_active_idx" ON "waitlist_entry" USING btree ("event_id","joined_at") WHERE "waitlist_entry"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_entry_user_idx" ON "waitlist_entry" USING btree ("user_id");