CREATE TABLE "event_unlock" (
	"event_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"access_code_id" uuid NOT NULL,
	"unlocked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_unlock_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "event" DROP CONSTRAINT "event_spaces_check";--> statement-breakpoint
ALTER TABLE "event_unlock" ADD CONSTRAINT "event_unlock_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_unlock" ADD CONSTRAINT "event_unlock_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_unlock" ADD CONSTRAINT "event_unlock_access_code_id_event_access_code_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."event_access_code"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event" DROP COLUMN "booked_spaces";--> statement-breakpoint
ALTER TABLE "event" ADD CONSTRAINT "event_spaces_check" CHECK ("event"."total_spaces" >= 0);